// Declarations only (include/CFuzzer.h); libFuzzer itself comes with -sanitize=fuzzer.
#include "CFuzzer.h"
