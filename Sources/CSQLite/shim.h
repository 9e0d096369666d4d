#ifndef BT_CSQLITE_SHIM_H
#define BT_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
