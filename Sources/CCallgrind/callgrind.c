#include "bt_callgrind.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BT_HAVE_CALLGRIND 1
#endif
#endif

#ifdef BT_HAVE_CALLGRIND
int bt_callgrind_compiled(void) { return 1; }
void bt_callgrind_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void bt_callgrind_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
#else
int bt_callgrind_compiled(void) { return 0; }
void bt_callgrind_start(void) {}
void bt_callgrind_stop(void) {}
#endif
