#ifndef BT_CZLIB_SHIM_H
#define BT_CZLIB_SHIM_H
#include <zlib.h>
#endif
