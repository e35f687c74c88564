// The prefetch hint is a static inline function of the header, which Swift
// inlines where it is called; SwiftPM needs one source file for a C target.
#include "prefetch.h"
