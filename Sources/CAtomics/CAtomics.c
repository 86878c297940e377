// Everything in CAtomics is `static inline` in include/CAtomics.h; SwiftPM needs one source.
#include "CAtomics.h"
