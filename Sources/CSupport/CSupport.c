// Everything in CSupport is `static inline` in include/CSupport.h; SwiftPM needs one source.
#include "CSupport.h"
