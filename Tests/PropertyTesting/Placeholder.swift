public enum PropertyTestingPlaceholder {}
