// include/bt.h, the C library's header, for CBridge (its structs and opaque handles).
#include "../../include/bt.h"
