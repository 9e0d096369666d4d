#ifndef BT_CALLGRIND_H
#define BT_CALLGRIND_H

/* Callgrind's client requests for `bt bench kernel` (make perf-check): instruction counting is
 * switched on around the measured part only, so setup, warm-up and process start are not counted.
 * The requests are compiled in when valgrind's headers (Debian `valgrind`) were present at build
 * time; otherwise every function here does nothing and `bt_callgrind_compiled` returns 0. Outside
 * valgrind the requests are a few no-op instructions. */

/* 1 when the client requests were compiled in. */
int bt_callgrind_compiled(void);
/* CALLGRIND_START_INSTRUMENTATION: count from here (every thread). */
void bt_callgrind_start(void);
/* CALLGRIND_STOP_INSTRUMENTATION: stop counting. */
void bt_callgrind_stop(void);

#endif
