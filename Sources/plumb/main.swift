import Plumb

let plumb = TextMeasurer()
let style = TextStyle(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15)
for text in ["Hello, world", "The quick brown fox jumps over the lazy dog again and again", "你好，世界！这是一个测试。", "👨‍👩‍👧‍👦 family 🇯🇵"] {
    let l = plumb.layout(text, style: style, width: 200)
    print(l.measurement)
    for (i, line) in l.lines.enumerated() { print("  \(i): \(l.text(ofLine: i).debugDescription) \(line.rect)") }
}
