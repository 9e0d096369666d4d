/*
 * rsi.c: bt's core from C. Reads a series from a bt store, computes RSI into a caller-owned
 * array, evaluates a rule, backtests it and prints a few statistics.
 *
 *   make lib                                   # .build/release/libbt.so
 *   cc -O2 -I include examples/c/rsi.c -L .build/release -lbt -Wl,-rpath,$PWD/.build/release -o rsi
 *   ./rsi data/bt.sqlite GOOG 14
 *
 * Prints the lookback, the last five bars' close and RSI, the rule's signal count, the run's
 * trades and total return, and what bt says about a period of 0. Exits 1 on any failure, with
 * bt_last_error()'s message.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bt.h"

static int fail(const char *what) {
    fprintf(stderr, "rsi: %s: %s\n", what, bt_last_error());
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: rsi DB SYMBOL [PERIOD]\n");
        return 2;
    }
    int period = argc > 3 ? atoi(argv[3]) : 14;

    bt_store *store = NULL;
    if (bt_store_open(argv[1], &store) != BT_OK) return fail("open");
    bt_series *series = NULL;
    if (bt_store_read(store, argv[2], NULL, NULL, NULL, &series) != BT_OK) return fail("read");
    size_t n = bt_series_count(series);

    /* The caller owns every array. */
    int64_t *time = malloc(n * sizeof *time);
    double *open = malloc(n * sizeof *open), *high = malloc(n * sizeof *high), *low = malloc(n * sizeof *low);
    double *close = malloc(n * sizeof *close), *volume = malloc(n * sizeof *volume), *rsi = malloc(n * sizeof *rsi);
    uint8_t *entries = malloc(n), *exits = malloc(n);
    if (!time || !open || !high || !low || !close || !volume || !rsi || !entries || !exits) return 1;
    if (bt_series_copy(series, time, open, high, low, close, volume) != BT_OK) return fail("copy");

    /* Indicators: TA-Lib's shape. The first bt_rsi_lookback(period) outputs are NaN. */
    int lookback = bt_rsi_lookback(period);
    if (lookback < 0) {
        fprintf(stderr, "rsi: period %d is out of range\n", period);
        return 2;
    }
    if (bt_rsi(n, close, period, rsi) != BT_OK) return fail("bt_rsi");
    printf("%s: %zu bars, rsi(%d) lookback %d\n", bt_series_symbol(series), n, period, lookback);
    for (size_t i = n >= 5 ? n - 5 : 0; i < n; i++) printf("%lld %.2f %.6f\n", (long long)time[i], close[i], rsi[i]);

    /* Rules: compiled once, evaluated over the arrays. */
    bt_bars bars = {n, time, open, high, low, close, volume, bt_series_symbol(series), bt_series_timeframe(series)};
    bt_expr *entry = NULL, *exit_ = NULL;
    if (bt_expr_compile("cross_above(rsi(close, 14), 30)", NULL, 0, &entry) != BT_OK) return fail("entry");
    if (bt_expr_compile("cross_below(rsi(close, 14), 70)", NULL, 0, &exit_) != BT_OK) return fail("exit");
    if (bt_expr_signal(entry, &bars, entries) != BT_OK || bt_expr_signal(exit_, &bars, exits) != BT_OK) return fail("signals");
    size_t fired = 0;
    for (size_t i = 0; i < n; i++) fired += entries[i];
    printf("entries: %zu\n", fired);

    /* A backtest with bt run's defaults, but no depth model and a 2% stop, on the loaded series
       itself (bt_backtest(&bars, ...) would copy and check the columns first). */
    bt_config config;
    bt_config_init(&config);
    config.depth = "none";
    config.sl = "2%";
    bt_signals signals = {entries, exits, NULL, NULL};
    bt_result *result = NULL;
    if (bt_backtest_series(series, &signals, &config, &result) != BT_OK) return fail("backtest");
    double total = NAN;
    if (bt_result_stat(result, "total_return", &total) != BT_OK) return fail("stat");
    printf("trades: %zu, total_return: %.6f\n", bt_result_trade_count(result), total);

    /* Bad input returns a status and a message; it never aborts. */
    if (bt_sma(n, close, 0, rsi) == BT_E_INPUT) printf("period 0: %s\n", bt_last_error());

    bt_result_free(result);
    bt_expr_free(entry);
    bt_expr_free(exit_);
    bt_series_free(series);
    bt_store_close(store);
    free(time); free(open); free(high); free(low); free(close); free(volume); free(rsi); free(entries); free(exits);
    return 0;
}
