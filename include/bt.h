/*
 * bt.h: bt's core as a C library (libbt.so).
 *
 * The model is TA-Lib's C API: the caller owns every input and output array, each indicator has
 * a lookback function, every call returns a status code, and the indicator calls allocate
 * nothing for their outputs. What the library must own (a compiled expression, a backtest's
 * result, an open store, a strategy, a loaded series) is an opaque handle with its own _free.
 *
 * Errors. Every function that can fail returns a bt_status; on failure bt_last_error() gives a
 * message that reads like bt's command line (what, where, why: "sma: period must be at least 1
 * (got 0)", "fee_bps '-3': fee must be in [0, 10000) basis points", "entry: unknown function
 * 'smaa' ... did you mean 'sma'?"). The message is thread-local: a failure on one thread never
 * overwrites another thread's message. Nothing in the library aborts the host process on bad
 * input: NULL pointers, NaN-filled arrays, periods of 0, lengths that do not match, unknown
 * names, handles already freed and damaged stores all return a status.
 *
 * Threads. Calls on separate handles may run in parallel from any threads; the indicator
 * functions and bt_backtest keep no state between calls. One handle must not be used by two
 * threads at the same time (a bt_store or bt_result is like a FILE *), except bt_expr,
 * bt_strategy and bt_series handles, which are read-only after they are made and may be shared.
 *
 * Arrays. Lengths are counts of elements (not bytes). Outputs of indicators have the input's
 * length; the first lookback values are NaN (the warm-up, as TA-Lib's Python wrapper shows it),
 * and so are all values when the series is shorter than the warm-up. A NaN or infinite input
 * splits the series into runs, each computed on its own (the warm-up restarts after a gap), as
 * `bt indicators` does; TA-Lib instead lets one NaN poison the rest of the series.
 *
 * Strings. Every const char * the library takes (arguments, bt_bars and bt_config fields, the
 * "name=value" lists) is NUL-terminated UTF-8: text that is not UTF-8 is refused with BT_E_INPUT
 * naming the argument, never repaired. The string ends at its first NUL, which the library cannot
 * see: a binding from a language whose strings may hold NUL must refuse them before encoding (as
 * btcore does), or the rest of the text is silently lost.
 *
 * Versioning. BT_ABI_VERSION changes when a function or struct changes incompatibly;
 * bt_abi_version() says which one the loaded library implements. Structs that may grow
 * (bt_config) start with their size, set by their _init function; they grow only at their end,
 * so a caller built against an older bt.h of the same ABI passes its smaller size and the fields
 * it does not know take bt run's defaults.
 */
#ifndef BT_H
#define BT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BT_ABI_VERSION 1

/* ---------------------------------------------------------------------------------------------
 * Status codes and errors
 * ------------------------------------------------------------------------------------------- */

typedef enum bt_status {
    BT_OK = 0,
    /* A value is wrong: a period, a setting, an expression, a name, a bar (the message says
       which and why). */
    BT_E_INPUT = 1,
    /* A required pointer was NULL, or a handle is not a live handle of the right kind (freed,
       or another kind of handle). */
    BT_E_ARGUMENT = 2,
    /* Lengths do not fit: arrays of different lengths, or an output buffer too small. */
    BT_E_LENGTH = 3,
    /* The candle store failed: damaged, locked, unreadable (bt exits 1 for these). */
    BT_E_STORE = 4,
    /* A failure inside bt that is not the caller's (please report it). */
    BT_E_INTERNAL = 5,
    /* The caller stopped a long call through its cancel flag (bt_sweep). */
    BT_E_CANCELLED = 6
} bt_status;

/* The message of the last failed call on this thread ("" when none has failed). The pointer
   stays valid until the next failing call on the same thread. */
const char *bt_last_error(void);

/* The status of the last failed call on this thread (BT_OK when none has failed). */
bt_status bt_last_status(void);

/* bt's version ("0.9.0"); a static string. */
const char *bt_version(void);

/* The BT_ABI_VERSION this library was built with. */
int bt_abi_version(void);

/* ---------------------------------------------------------------------------------------------
 * Indicators: caller-owned arrays, TA-Lib's lookbacks
 *
 * Each bt_NAME writes outputs of length n computed the way TA-Lib 0.6 computes NAME (within
 * 1e-9 relative of its values after the warm-up); bt_NAME_lookback gives the number of leading
 * NaN outputs (TA-Lib's TA_NAME_Lookback with unstable periods 0), or -1 for parameters the
 * indicator refuses. Periods are at least 1. n may be 0 (nothing is written).
 *
 * In place. Inputs may alias each other, and an output may be an input's own array or overlap it
 * (out == in, or out = in + 1): as TA-Lib allows, the call then reads a copy of that input made
 * first, so the values are those of separate arrays. Outputs must not overlap each other.
 *
 * Errors: BT_E_ARGUMENT for a NULL array when n > 0 or two outputs that overlap, BT_E_INPUT for
 * a parameter out of range (period < 1 or > 10,000,000; macd's fast >= slow; bbands' k negative
 * or not finite).
 * ------------------------------------------------------------------------------------------- */

/* Simple moving average over `period` values (TA-Lib SMA). Lookback period - 1. */
int bt_sma_lookback(int period);
bt_status bt_sma(size_t n, const double *in, int period, double *out);

/* Exponential moving average, k = 2 / (period + 1), seeded with the SMA of the first period
   values (TA-Lib EMA). Lookback period - 1. */
int bt_ema_lookback(int period);
bt_status bt_ema(size_t n, const double *in, int period, double *out);

/* Linearly weighted moving average, weights 1..period (TA-Lib WMA). Lookback period - 1. */
int bt_wma_lookback(int period);
bt_status bt_wma(size_t n, const double *in, int period, double *out);

/* Relative strength index, Wilder's smoothing (TA-Lib RSI). Lookback period. Range 0..100. */
int bt_rsi_lookback(int period);
bt_status bt_rsi(size_t n, const double *in, int period, double *out);

/* Rate of change in percent: (x[i] / x[i - period] - 1) * 100 (TA-Lib ROC). Lookback period. */
int bt_roc_lookback(int period);
bt_status bt_roc(size_t n, const double *in, int period, double *out);

/* Rolling population standard deviation (TA-Lib STDDEV with nbdev 1). Lookback period - 1. */
int bt_stddev_lookback(int period);
bt_status bt_stddev(size_t n, const double *in, int period, double *out);

/* MACD line, signal line and histogram (TA-Lib MACD). Needs 1 <= fast < slow. Lookback
   slow + signal - 2 (33 for 12/26/9) for all three outputs. */
int bt_macd_lookback(int fast, int slow, int signal);
bt_status bt_macd(size_t n, const double *in, int fast, int slow, int signal,
                  double *out_macd, double *out_signal, double *out_hist);

/* Bollinger Bands: SMA(period) +/- k population standard deviations (TA-Lib BBANDS with
   nbdevup = nbdevdn = k, matype SMA). Lookback period - 1. */
int bt_bbands_lookback(int period);
bt_status bt_bbands(size_t n, const double *in, int period, double k,
                    double *out_upper, double *out_middle, double *out_lower);

/* Average true range, Wilder's smoothing (TA-Lib ATR). Lookback period. */
int bt_atr_lookback(int period);
bt_status bt_atr(size_t n, const double *high, const double *low, const double *close, int period, double *out);

/* Williams %R, -100..0 (TA-Lib WILLR). Lookback period - 1. */
int bt_willr_lookback(int period);
bt_status bt_willr(size_t n, const double *high, const double *low, const double *close, int period, double *out);

/* Commodity channel index (TA-Lib CCI). Lookback period - 1. */
int bt_cci_lookback(int period);
bt_status bt_cci(size_t n, const double *high, const double *low, const double *close, int period, double *out);

/* Average directional index (TA-Lib ADX). Lookback 2 * period - 1. */
int bt_adx_lookback(int period);
bt_status bt_adx(size_t n, const double *high, const double *low, const double *close, int period, double *out);

/* Slow stochastic with SMA smoothing (TA-Lib STOCH, slowk_matype = slowd_matype = 0). Lookback
   (fastk - 1) + (slowk - 1) + (slowd - 1) for both outputs. */
int bt_stoch_lookback(int fastk, int slowk, int slowd);
bt_status bt_stoch(size_t n, const double *high, const double *low, const double *close,
                   int fastk, int slowk, int slowd, double *out_k, double *out_d);

/* On-balance volume (TA-Lib OBV). Lookback 0. */
int bt_obv_lookback(void);
bt_status bt_obv(size_t n, const double *close, const double *volume, double *out);

/* Donchian channels: highest high, lowest low over period bars and their mean (no TA-Lib
   function). Lookback period - 1. */
int bt_donchian_lookback(int period);
bt_status bt_donchian(size_t n, const double *high, const double *low, int period,
                      double *out_upper, double *out_middle, double *out_lower);

/* Rolling volume-weighted average price of the typical price (no TA-Lib function); NaN where
   the window's volume is 0. Lookback period - 1. */
int bt_vwap_lookback(int period);
bt_status bt_vwap(size_t n, const double *high, const double *low, const double *close,
                  const double *volume, int period, double *out);

/* ---------------------------------------------------------------------------------------------
 * Candles
 * ------------------------------------------------------------------------------------------- */

/* OHLCV bars as caller-owned columns of n elements each. Nothing is kept after a call returns. */
typedef struct bt_bars {
    size_t n;
    /* Bar open times in UTC seconds since 1970, strictly increasing. Required by bt_backtest;
       may be NULL for expressions (the bars are then numbered 0, 1, 2, ... seconds). */
    const int64_t *time;
    const double *open;
    const double *high;
    const double *low;
    const double *close;
    /* May be NULL: no volume, read as zeros (a backtest then warns "no_volume": the
       participation cap and the synthetic book's impact are off). */
    const double *volume;
    /* The series' symbol, for results and messages; NULL for "". */
    const char *symbol;
    /* Its timeframe as bt writes it ("1m", "5m", "15m", "30m", "1h", "4h", "1d", "1w", "1M");
       NULL when unknown. */
    const char *timeframe;
} bt_bars;

/* ---------------------------------------------------------------------------------------------
 * Expressions: the rule language of `bt run --entry` (see `bt help expressions`)
 * ------------------------------------------------------------------------------------------- */

typedef struct bt_expr bt_expr;

/* Compiles `text` once. `params` holds nparams "name=value" strings giving $name (a number, or
   a word naming a function), as `bt run --param` does; params may be NULL when nparams is 0.
   Expressions that read position series (trade_return, ...) are refused: they have values only
   inside a run (give them to bt_strategy_rules instead). */
bt_status bt_expr_compile(const char *text, const char *const *params, size_t nparams, bt_expr **out);

/* 1 when the expression is a condition (its values are 1, 0 or NaN for unknown), 0 when it is a
   number, -1 for an invalid handle. */
int bt_expr_is_condition(const bt_expr *expr);

/* The expression's value at every bar, into out[bars->n]. */
bt_status bt_expr_eval(const bt_expr *expr, const bt_bars *bars, double *out);

/* The expression as a signal into out[bars->n]: 1 where its value is 1 (true), else 0 (false or
   unknown), as a strategy's rule fires. */
bt_status bt_expr_signal(const bt_expr *expr, const bt_bars *bars, uint8_t *out);

void bt_expr_free(bt_expr *expr);

/* ---------------------------------------------------------------------------------------------
 * Other series: what rules read with @ (`close@1d`, `close@SPY`, `sma(close, 200)@SPY@1d`)
 *
 * At a bar that closes at T, EXPR@KEY shows EXPR's value at the last bar of that series that
 * closed at or before T (an as-of join on close times: never a bar that has not closed). Where
 * none has, or another symbol's last one is older than its bar length (or max_stale), the value
 * is NaN and a rule reading it is false; the run's own symbol never goes stale. A timeframe
 * below the run's is refused. A run's own timeframe is its bars' `timeframe`, else inferred from
 * their times.
 *
 * A series is looked for, in this order: among the bars given with bt_other_add for its symbol
 * (at the timeframe asked, else the finest given resampled to it in UTC buckets, as the store
 * resamples), in the store `db`, then, for the run's own symbol (bars->symbol; "" when NULL),
 * the run's own bars resampled to the higher timeframe. So `close@1d` on hourly bars needs no
 * other data at all.
 *
 * Errors: an unknown symbol or timeframe after @ is BT_E_INPUT from the evaluation, its message
 * naming the expression, the reason (with a suggestion from the known keys) and a caret under
 * the key, as bt's command line prints it.
 * ------------------------------------------------------------------------------------------- */

typedef struct bt_other bt_other;

/* A set of other series: `db` (NULL: none) is a store read as bt run --db reads it (opened
   read-only; BT_E_INPUT when there is no store there); `max_stale` (NULL: none) is bt run's
   --max-stale, a whole number and a unit m, h, d or w ("36h", "3d"): how long another symbol's
   value may be carried past its bar's close beyond its bar length. */
bt_status bt_other_new(const char *db, const char *max_stale, bt_other **out);

/* Adds a copy of `bars` as the series `key`: "SPY" (its timeframe from bars->timeframe, else
   inferred from bars->time) or "SPY@1d"; symbols are upper-cased as the store keeps them, and
   bars->symbol is not read. bars->time is required, and the bars must be bars a store could
   hold, as bt_backtest checks them (no NaN rows: drop them rather than reindex to the run's
   calendar; @ carries the last closed bar itself). A series given twice is BT_E_INPUT. Add
   every series before the handle is used: a bt_other may then be shared by threads, as long as
   none adds to it. */
bt_status bt_other_add(bt_other *other, const char *key, const bt_bars *bars);

void bt_other_free(bt_other *other);

/* bt_expr_compile for an expression that may read other series with @, from `other` (NULL: the
   run's own bars only, for `close@1d`). The handle keeps `other` alive (free both in any
   order). bt_expr_eval and bt_expr_signal then align those series to each call's bars. */
bt_status bt_expr_compile_other(const char *text, const char *const *params, size_t nparams, const bt_other *other,
                                bt_expr **out);

/* ---------------------------------------------------------------------------------------------
 * Strategies: the built-ins, strategy files and rules
 * ------------------------------------------------------------------------------------------- */

typedef struct bt_strategy bt_strategy;

/* A built-in strategy by name ("ma-cross", "rsi", "macd", "bollinger", "donchian"), a strategy
   file's path, or the name of a file in `directory` (NULL: "strategies"), as `bt run STRATEGY`
   finds it. A file's [orders] and [exits] apply to its backtests unless bt_config overrides
   them. */
bt_status bt_strategy_named(const char *name, const char *directory, bt_strategy **out);

/* A strategy from rules, as `bt run --entry ... --exit ...`: entry and exit, short_entry and
   short_exit, or all four; each pair comes whole or not at all (NULL). A short-only strategy
   (entry and exit NULL) has long signals that are never true. `params` holds "name=value"
   declarations of the $names the rules read (as --param). Rules may read position series. */
bt_status bt_strategy_rules(const char *entry, const char *exit, const char *short_entry, const char *short_exit,
                            const char *const *params, size_t nparams, bt_strategy **out);

/* The strategy's signals on `bars` with "name=value" parameter assignments over its defaults,
   into arrays of bars->n bytes (1 fires, 0 not). short_entries and short_exits may be NULL; the
   int *has_short (may be NULL) is set to 1 when the strategy has short rules. Refused when a
   rule reads the position (it has values only inside a run: use bt_backtest_strategy). */
bt_status bt_strategy_signals(const bt_strategy *strategy, const char *const *params, size_t nparams,
                              const bt_bars *bars, uint8_t *entries, uint8_t *exits,
                              uint8_t *short_entries, uint8_t *short_exits, int *has_short);

/* A copy of `strategy` whose rules read their @ series from `other` (NULL: the run's own bars
   only): bt_strategy_signals, bt_backtest_strategy and bt_backtest_strategy_series on it align
   them to each call's bars, as `bt run` does with the store. A strategy written in Swift (a
   built-in) is unchanged. bt_strategy_rules and bt_strategy_named refuse nothing at @; without
   this, a rule that reads @ fails when the strategy runs. The new handle keeps `other` alive. */
bt_status bt_strategy_reading(const bt_strategy *strategy, const bt_other *other, bt_strategy **out);

/* The warnings of the strategy's signals on `bars` (as bt_strategy_signals computes them): the
   JSON array `bt run --json` has under "warnings", [{"kind": ..., "message": ...}], today the
   "no_closed_bar" of rules reading @ ("412 bars had no closed SPY@1d bar ..."); "[]" for none.
   Into buffer[capacity] as bt_result_json gives its text (buffer NULL and capacity 0: *length
   only; BT_E_LENGTH, nothing written, when the buffer is too small). Each call computes the
   signals again. */
bt_status bt_strategy_signal_warnings(const bt_strategy *strategy, const char *const *params, size_t nparams,
                                      const bt_bars *bars, char *buffer, size_t capacity, size_t *length);

/* 1 when a rule of the strategy reads another series with @ (it needs bt_strategy_reading to
   run), 0 when none does, -1 for an invalid handle. */
int bt_strategy_reads_other(const bt_strategy *strategy);

void bt_strategy_free(bt_strategy *strategy);

/* ---------------------------------------------------------------------------------------------
 * Backtests
 * ------------------------------------------------------------------------------------------- */

/* Every `bt run` execution option. Call bt_config_init first: it sets struct_size and the
   defaults bt run uses; then change what you need. Text fields are the option's text exactly as
   on bt's command line (NULL: not given); number fields use NaN (or 0 where said) for "not
   given". Order and exit settings are text because each takes either a fraction ("5%", "0.05")
   or a price-distance expression ("2 * atr(14)"), take-profits repeat with @SHARE scale-outs
   ("5%@50%, 12%"), and entry prices are expressions: the text goes through bt's own parser
   (OrderSettings), so it accepts and refuses exactly what bt run does, with its messages. */
typedef struct bt_config {
    size_t struct_size;          /* sizeof(bt_config), set by bt_config_init */
    double cash;                 /* --cash: initial cash (10000) */
    const char *fill;            /* --fill: "next-open" (NULL, the default) or "close" */
    int allow_short;             /* --short: 1 lets exits reverse into shorts (0) */
    const char *size;            /* --size: "100%" (NULL), "10u", "5000$", "risk:1%", "vol:15%" */
    double fee_bps;              /* --fee-bps (NaN: the symbol's stored one in db, else 10) */
    double fee_min;              /* --fee-min, cash per fill (0) */
    const char *sl;              /* --sl: "5%", "0.05" or "2 * atr(14)" */
    const char *tp;              /* --tp: one or more targets, "5%@50%, 12%" */
    const char *trail;           /* --trail */
    const char *breakeven;       /* --breakeven: "2%" */
    const char *exit_after;      /* --exit-after: bars, "10" */
    const char *entry_limit;     /* --entry-limit: a price expression, "close * 0.99" */
    const char *entry_stop;      /* --entry-stop */
    const char *short_entry_limit; /* --short-entry-limit */
    const char *short_entry_stop;  /* --short-entry-stop */
    const char *order_bars;      /* --order-bars: "3" */
    const char *pyramid;         /* --pyramid: "2" */
    double tick;                 /* --tick (NaN: the symbol's stored one in db, else none) */
    double lot;                  /* --lot (NaN: the symbol's stored one in db, else none) */
    double min_notional;         /* --min-notional (NaN) */
    double max_participation;    /* --max-participation: share of the bar's volume, 0 = off (0.1) */
    const char *depth;           /* --depth: "synthetic" (NULL, the default; "fixed" when
                                    slippage_bps is given), "none", "fixed", "book" */
    double slippage_bps;         /* --slippage-bps: fixed slippage (NaN) */
    double spread_bps;           /* --spread-bps: the model book's spread (NaN: estimated) */
    const char *depth_profile;   /* --depth-profile: a profile file from bt calibrate (NULL) */
    const char *bid_depth;       /* --bid-depth "A,b" (NULL) */
    const char *ask_depth;       /* --ask-depth "A,b" (NULL) */
    double refill_seconds;       /* --refill-seconds (NaN) */
    int spread_window;           /* --spread-window, bars (0: the default) */
    double impact;               /* --impact (NaN) */
    double touch_seconds;        /* --touch-seconds (NaN) */
    int impact_window;           /* --impact-window, bars (0: the default) */
    double periods_per_year;     /* --periods-per-year (NaN: inferred from the times) */
    const char *db;              /* the store holding the symbol's recorded book (depth "book"),
                                    its calibrated profile, funding rates and instrument settings
                                    (bt data instrument: the defaults of the fields left unset), as
                                    bt run --db reads them (NULL: none) */
    /* Fields added since ABI 1 (a caller built against an older bt.h gets their defaults): */
    double fee_per_unit;         /* --fee-per-unit, cash per unit filled (0) */
    double maker_bps;            /* --maker-bps: maker fills (a limit entry or take-profit filled
                                    at its level inside the bar); negative is a rebate, down to
                                    -100 (NaN: the symbol's stored one in db, else fee_bps) */
    const char *fee_max;         /* --fee-max: cap on a fill's fee as a share of its notional,
                                    "1%" (NULL: none); wins over fee_min */
    double borrow_bps;           /* --borrow-bps: annual fee on a short's notional, charged at
                                    each close a short is held for the bar's days / 365 (0) */
    double leverage;             /* --leverage: 1 to 125; N% sizing up to N x 100% of equity (NaN:
                                    the symbol's stored one in db, else 1: on spot, a cash account
                                    without margin or liquidation) */
    const char *margin;          /* --margin: "cross" (NULL, the default) or "isolated" */
    const char *instrument;      /* --instrument: "spot" (NULL: the symbol's stored kind in db, else
                                    spot), "perp" (pays the funding stored for the symbol in db),
                                    "future" or "inverse-perp" (coin-margined: cash, PnL and
                                    fees in the base coin, contracts of multiplier quote units) */
    const char *mmr;             /* --mmr: maintenance margin rate, "0.5%" (NULL: the symbol's
                                    stored one in db, else 0.5% for perp and future, 25% for spot) */
    double liq_fee_bps;          /* --liq-fee-bps: a liquidation's fee (0) */
    const char *margin_rate;     /* --margin-rate: annual interest on borrowed cash, "8%" (NULL) */
    double multiplier;           /* --multiplier: units of the underlying in a perp's or future's
                                    contract, quote units in an inverse-perp's (NaN: the symbol's
                                    stored one in db, else 1) */
    int allow_unprotected;       /* --allow-unprotected: 1 takes entries whose sl, tp or trail
                                    expression is not yet defined at the signal bar (0: they place
                                    no order) */
    const char *trail_from;      /* --trail-from: what trail follows, "high" (NULL, the default:
                                    the peak since entry) or "close" (close - the distance at each
                                    close of the position's bars) */
    const char *conventions;     /* --conventions: "backtesting.py" or "vectorbt" sets the other
                                    fields left unset to that tool's defaults and rules (NULL: bt's) */
    /* The window traded and measured, as bt run --from/--to (not execution settings: the run's
       bars). The bars before start warm up the indicators, rules and order expressions; nothing
       after end is read (signal arrays of the whole series are cut as the bars are). A window
       holding no bar is BT_E_INPUT naming start or end. */
    const char *start;           /* --from: the first bar traded, inclusive: "2010-01-04",
                                    "2010-01-04T14:30:00Z" or UTC seconds (NULL: the first bar) */
    const char *end;             /* --to: the last bar, inclusive; a bare date includes that whole
                                    day (NULL: the last bar) */
} bt_config;

/* Sets *config to bt run's defaults. */
void bt_config_init(bt_config *config);

/* bt_config described as JSON, a static string: {"fields": [...]} in the struct's order, each
   with "name" and "type" ("double", "int", "size_t" or "char*"), and, for a field that carries
   an execution setting, "setting" (its name, btcore's keyword: "short" for allow_short), "kind"
   ("number", "whole_number", "text", "repeated_text" or "flag"), "default" (the value as text,
   or null when the setting is off or its default depends on the run) and "help". Bindings build
   the struct and their keywords from it, so a new setting reaches them with its field. */
const char *bt_execution_settings(void);

/* Signals as arrays of n bytes (nonzero fires) matching the bars. short_entries and short_exits
   may be NULL: with allow_short, exits then open shorts and entries close them. */
typedef struct bt_signals {
    const uint8_t *entries;
    const uint8_t *exits;
    const uint8_t *short_entries;
    const uint8_t *short_exits;
} bt_signals;

typedef struct bt_result bt_result;
/* A series of bars owned by the library (see the candle store below). */
typedef struct bt_series bt_series;

/* Backtests the signals on the bars (which must be bars bt can store: positive finite prices,
   high >= max(open, close), low <= min(open, close), volume >= 0, times strictly increasing)
   as `bt run SYMBOL --signals FILE` does. *out receives a result to free with bt_result_free. */
bt_status bt_backtest(const bt_bars *bars, const bt_signals *signals, const bt_config *config, bt_result **out);

/* Backtests a strategy with "name=value" parameter assignments, as `bt run STRATEGY SYMBOL
   --param ...` does (rules reading position series included). */
bt_status bt_backtest_strategy(const bt_bars *bars, const bt_strategy *strategy, const char *const *params,
                               size_t nparams, const bt_config *config, bt_result **out);

/* The same two backtests on a bt_series: one read from the store (bt_store_read) or copied
   from bars once (bt_series_from_bars). bt_backtest copies and checks the caller's bars on
   every call (on a million bars that is about as long as the backtest itself); a series is
   copied and checked when it is made, so many backtests on the same bars (a parameter search)
   skip that work. A series is read-only: backtests on several threads may share it. */
bt_status bt_backtest_series(const bt_series *series, const bt_signals *signals, const bt_config *config,
                             bt_result **out);
bt_status bt_backtest_strategy_series(const bt_series *series, const bt_strategy *strategy, const char *const *params,
                                      size_t nparams, const bt_config *config, bt_result **out);

/* Bars of the result (the equity curve's length). 0 for an invalid handle. */
size_t bt_result_bars(const bt_result *result);

/* The bars the run traded among those given: *start, the index of its first bar (the warm-up
   before it: bt_config's start), and *count, how many (bt_result_bars). Without start and end in
   the config, 0 and all of them. */
bt_status bt_result_window(const bt_result *result, size_t *start, size_t *count);

/* Copies the per-bar ledger at each close into arrays of bt_result_bars() elements; any of
   the three may be NULL. position is signed units (negative when short). */
bt_status bt_result_equity(const bt_result *result, double *equity, double *cash, double *position);

/* How a trade ended. */
typedef enum bt_exit_kind {
    BT_EXIT_SIGNAL = 0, BT_EXIT_STOP = 1, BT_EXIT_STOP_GAP = 2, BT_EXIT_TARGET = 3,
    BT_EXIT_TARGET_GAP = 4, BT_EXIT_TRAIL = 5, BT_EXIT_TIME = 6, BT_EXIT_END = 7, BT_EXIT_REBALANCE = 8,
    BT_EXIT_LIQUIDATION = 9
} bt_exit_kind;

/* bt's name of an exit kind ("signal", "stop", "stop-gap", ...); NULL when out of range. */
const char *bt_exit_kind_name(int kind);

/* One round trip, as trades.csv of a bt report has it. */
typedef struct bt_trade {
    int32_t side;                /* 1 long, -1 short */
    int32_t exit_kind;           /* a bt_exit_kind */
    int64_t entry_index;         /* bar of the entry fill */
    int64_t exit_index;          /* bar of the exit fill (the last bar for an open trade) */
    int64_t entry_time;          /* UTC seconds */
    int64_t exit_time;
    double quantity;             /* units */
    double entry_price;          /* average fill prices */
    double exit_price;
    double slippage_bps;         /* average of the entry and exit fills' slippage */
    double fees;                 /* cash */
    double pnl;                  /* cash, fees included */
    double return_fraction;      /* pnl / entry notional */
    int32_t is_open;             /* 1: still open at the end, marked to the last close */
    int32_t reserved;
} bt_trade;

size_t bt_result_trade_count(const bt_result *result);
/* Copies the trades into out[capacity]; BT_E_LENGTH when capacity < bt_result_trade_count(). */
bt_status bt_result_trades(const bt_result *result, bt_trade *out, size_t capacity);
/* Each trade's account charges, in cash, in bt_result_trades' order, into arrays of capacity
   elements (any of the three may be NULL): borrow fees paid while it was short (--borrow-bps),
   interest on its borrowed cash (--margin-rate) and funding paid net of funding received (a
   perpetual's; negative when it earned funding), as trades.csv's borrow, interest and funding.
   Each is included in the trade's pnl. BT_E_LENGTH when capacity < bt_result_trade_count(). */
bt_status bt_result_trade_charges(const bt_result *result, double *borrow, double *interest, double *funding,
                                  size_t capacity);

/* One executed order (possibly partial), as fills.csv has it. */
typedef struct bt_fill {
    int64_t index;               /* fill bar */
    int64_t time;                /* UTC seconds of the fill bar */
    int32_t side;                /* 1 buy, -1 sell */
    int32_t is_partial;          /* 1 when less than asked was filled */
    double reference_price;      /* next open or this close, before depth */
    double vwap;                 /* average price paid or received */
    double slippage_bps;         /* cost of depth against the reference, positive when it hurt */
    double quantity_asked;
    double quantity_filled;
    double fee;                  /* cash */
    double spread_cost;          /* the half-spread part of the slippage, cash */
    double impact_cost;          /* the slippage beyond the half spread, cash */
    double depth_available;      /* quantity resting on the side walked (inf without a book) */
} bt_fill;

size_t bt_result_fill_count(const bt_result *result);
/* Copies the fills into out[capacity]; BT_E_LENGTH when capacity < bt_result_fill_count(). */
bt_status bt_result_fills(const bt_result *result, bt_fill *out, size_t capacity);

/* The statistic `name` (bt's machine names: "total_return", "sharpe", "max_drawdown", ...;
   bt_stat_name lists them) into *value: fractions, not percents; times as UTC seconds; NaN when
   undefined (a Sharpe ratio of a flat curve). BT_E_INPUT for an unknown name. Computes that
   statistic with the few computed alongside it (kept for the next calls), not the whole table:
   "final_equity" does not wait for the Sharpe interval's bootstrap; the values are the table's. */
bt_status bt_result_stat(const bt_result *result, const char *name, double *value);

/* The number of statistics, and the name of the i-th in bt's output order (NULL past the end). */
size_t bt_stat_count(void);
const char *bt_stat_name(size_t i);

/* The run as `bt run --json` prints it (one JSON object, UTF-8, NUL-terminated) into
   buffer[capacity]. *length (may be NULL) receives the text's length without the NUL. With
   buffer NULL and capacity 0 only the length is given (BT_OK): call once so, allocate length + 1
   bytes, call again (the text is made once per result). A buffer too small for the text and
   its NUL is BT_E_LENGTH, with nothing written. with_costs 1 adds the cost-sensitivity table (four more runs),
   0 writes "costs": null as `bt run --json --no-costs` does. */
bt_status bt_result_json(const bt_result *result, int with_costs, char *buffer, size_t capacity, size_t *length);

/* bt_result_json with with_intervals 0: "sharpe_ci_low", "sharpe_ci_high" and "psr" are null and
   the Sharpe interval's bootstrap (most of a long run's statistics time) is not run; every other
   statistic as bt_result_json has it. with_intervals 1 is bt_result_json. */
bt_status bt_result_json_with(const bt_result *result, int with_costs, int with_intervals, char *buffer, size_t capacity,
                              size_t *length);

/* The run's statistics alone, as JSON: {"strategy", "symbol", "warnings", "stats"}, "warnings"
   and "stats" as bt_result_json_with has them, without the rest of the run's JSON (no manifest,
   whose hash of every bar costs more than most statistics; no cost split or spread). With
   with_intervals 0 the Sharpe interval and PSR are null and their bootstrap is not run. The
   buffer, capacity and length as bt_result_json's (the text is made once per result and
   with_intervals); the statistics are kept for bt_result_stat. */
bt_status bt_result_stats_json(const bt_result *result, int with_intervals, char *buffer, size_t capacity, size_t *length);

/* Adds a Monte Carlo to the run's JSON (its "monte_carlo" member), report folder and page, as
   `bt run --monte-carlo RESAMPLES --seed SEED --ruin RUIN` does: each the option's text as bt
   run reads it (NULL: not given; the seed defaults to 1, the ruin to 50%). RESAMPLES NULL
   removes it (then SEED and RUIN must be NULL). Bad values are BT_E_INPUT naming "monte_carlo",
   "seed" or "ruin", with nothing changed. The texts made before are made again. */
bt_status bt_result_set_monte_carlo(bt_result *result, const char *resamples, const char *seed, const char *ruin);

/* Writes the report folder `bt run --out DIRECTORY` writes (report.md, report.html, the SVG
   charts, equity.csv, trades.csv, fills.csv, stats.csv, stats.json), staged beside it and moved
   into place, so a failure leaves nothing half-written. with_costs 1 adds the cost-sensitivity
   table (four more runs; `bt run --out` does, unless --no-costs). An existing DIRECTORY is
   BT_E_INPUT unless force is 1 (then replaced, as with --force; a folder holding files bt did
   not write is refused even so). */
bt_status bt_result_report(const bt_result *result, const char *directory, int with_costs, int force);

/* The run's report.html (the self-contained interactive page: candles, trades, equity,
   drawdown and the tables; no network fetch), UTF-8, NUL-terminated, given as bt_result_json
   gives its text: call with buffer NULL and capacity 0 for *length, then with length + 1 bytes. */
bt_status bt_result_html(const bt_result *result, int with_costs, char *buffer, size_t capacity, size_t *length);

void bt_result_free(bt_result *result);

/* ---------------------------------------------------------------------------------------------
 * Many runs: portfolios, sweeps and screens
 *
 * These calls run one of bt's jobs whole and give its result as text (JSON, as the command
 * prints it), owned by a bt_text handle. Options come as "name=value" strings named as btcore's
 * keywords (the command line's options with underscores: "max_positions=5"); an unknown name
 * is BT_E_INPUT with the closest known one.
 * ------------------------------------------------------------------------------------------- */

typedef struct bt_text bt_text;

/* The text into buffer[capacity] as bt_result_json gives its own (buffer NULL and capacity 0:
   *length only; BT_E_LENGTH, nothing written, when the buffer is too small). */
bt_status bt_text_copy(const bt_text *text, char *buffer, size_t capacity, size_t *length);
void bt_text_free(bt_text *text);

/* A portfolio of several symbols sharing one account, as `bt portfolio STRATEGY --symbols ...
   --json` prints it into *out. The series are either the caller's (series[nseries], each with
   its symbol and all at one timeframe: BT_E_INPUT naming the two that differ) or the store's
   (symbols[nsymbols] read from config->db as bt portfolio reads them; option "timeframe" picks or
   resamples the stored series). strategy is NULL only with "rotate=1". params are "name=value"
   (--param). options: max_positions, rank (an expression), weight, rebalance, rotate (1 or 0),
   timeframe, max_stale. config: every execution setting and the window (start, end), each
   symbol's execution as bt portfolio makes it; with_costs 1 adds the cost table, 0 writes
   "costs": null (--no-costs). */
bt_status bt_portfolio(const bt_bars *series, size_t nseries, const char *const *symbols, size_t nsymbols,
                       const bt_strategy *strategy, const char *const *params, size_t nparams,
                       const char *const *options, size_t noptions, const bt_config *config, int with_costs,
                       bt_text **out);

/* A parameter sweep of one series, as `bt sweep STRATEGY SYMBOL --grid ... --out directory`:
   every combination of the grid (grid[ngrid], "fast=5:50:5", "slow=20,40,80" or "k=2", as --grid
   takes them) that passes the option "where", each a backtest of the strategy with params (fixed
   "name=value") and config (its execution settings and window). The series is the caller's bars
   or `symbol` read from config->db (option "timeframe" as --timeframe). Writes the sweep's folder
   into `directory` (sweep.csv, sweep.md, report.html, ...; it must not exist, or be empty) and
   gives in *out a JSON summary: {"best": {axis: value} or null, "rank", "objectives" (the
   Pareto front's statistics, [] without), "deflated_sharpe", "pbo" (null where undefined),
   "combinations", "evaluated", "failed"}. Options: where, objective (the statistic to rank by
   and optimise, "sharpe", as --objective) or rank (its older name; both given must agree),
   objectives ("sharpe,max_drawdown", as --objectives: sweep.csv's pareto column),
   walk_forward (folds), pbo_blocks, top, timeframe, and search ("grid", the default, "random"
   or "bayes", as --search), trials and seed (a search's --trials and --seed; a range
   "fast=5:50" without a step is then an axis to draw from). A grid
   axis that is not a parameter or a setting bt sweeps, and a grid that where leaves empty, are
   BT_E_INPUT naming grid and where; a bad search, trials or seed names that option. `cancel`
   (may be NULL) is read between small chunks of combinations: set it nonzero from another
   thread (a signal handler) and the call returns BT_E_CANCELLED soon after. */
bt_status bt_sweep(const bt_bars *bars, const char *symbol, const bt_strategy *strategy, const char *const *grid,
                   size_t ngrid, const char *const *params, size_t nparams, const char *const *options, size_t noptions,
                   const bt_config *config, const char *directory, const volatile int *cancel, bt_text **out);

/* A strategy screen of the store config->db, as `bt screen STRATEGY --symbols ... --out
   directory`: the strategy (with params, "name=value") backtested on each of symbols[nsymbols]
   (nsymbols 0: every stored series at option "timeframe", --all) with config's execution and
   window, ranked; writes screen.csv, screen.md and report.html into `directory`. A symbol that
   fails or trades too little is a row with its status and error, not a failure. *out: JSON
   {"notes": [{"series", "kind" ("skipped" or "resampled"), "reason"}]}, what the store says of the
   series screened. Options: rank (the statistic, "sharpe"), min_trades, top, timeframe, and
   monte_carlo, seed and ruin (as --monte-carlo N --seed S --ruin PCT: screen.csv's mc_ columns). */
bt_status bt_screen(const char *const *symbols, size_t nsymbols, const bt_strategy *strategy, const char *const *params,
                    size_t nparams, const char *const *options, size_t noptions, const bt_config *config,
                    const char *directory, bt_text **out);

/* bt_screen of the caller's bars: series[nseries], each named by its symbol (upper-cased as the
   store keeps symbols; two series of one symbol are BT_E_INPUT), each at its own timeframe, the
   rows and files as `bt screen` gives for the same bars stored. *out: {"notes": []}. The option
   timeframe is refused (the bars are at their own); the others as bt_screen's. */
bt_status bt_screen_bars(const bt_bars *series, size_t nseries, const bt_strategy *strategy, const char *const *params,
                         size_t nparams, const char *const *options, size_t noptions, const bt_config *config,
                         const char *directory, bt_text **out);

/* A condition screen of the store config->db, as `bt screen --where condition --json`: the
   condition (and each option "show=EXPR", repeatable) on each symbol's last bar (at or before
   option "at", else config->end; config->start bounds the bars read from below). *out: JSON
   {"report": the object bt screen --json prints, "csv": screen.csv's text, "notes": as bt_screen}.
   Options: show, at, timeframe, max_stale; params define $names. */
bt_status bt_where(const char *const *symbols, size_t nsymbols, const char *condition, const char *const *params,
                   size_t nparams, const char *const *options, size_t noptions, const bt_config *config, bt_text **out);

/* ---------------------------------------------------------------------------------------------
 * The candle store (read-only)
 * ------------------------------------------------------------------------------------------- */

typedef struct bt_store bt_store;

/* Opens the bt store at `path` read-only (the file is never changed). BT_E_INPUT when there is
   no store there or the file is not a bt store, BT_E_STORE when it is damaged. */
bt_status bt_store_open(const char *path, bt_store **out);

/* One stored series. The strings belong to the store handle and stay valid until the next
   bt_store_list or bt_store_close. */
typedef struct bt_series_info {
    const char *symbol;
    const char *timeframe;
    int64_t first;               /* first and last bar times, UTC seconds */
    int64_t last;
    int64_t bars;
} bt_series_info;

/* Reads the list of stored series into the handle; *count receives how many there are. */
bt_status bt_store_list(bt_store *store, size_t *count);
/* The i-th series of the last bt_store_list (ordered by symbol, then timeframe). */
bt_status bt_store_series(const bt_store *store, size_t i, bt_series_info *out);

/* Loads `symbol` as `bt run` does: "AAPL" (its only series), "AAPL@1h", or with `timeframe`
   (NULL: none) the series stored at it or resampled from a finer one; `from` and `to` (NULL:
   unbounded) trim it to bar times within [*from, *to] (UTC seconds). An empty result is
   BT_E_INPUT. */
bt_status bt_store_read(bt_store *store, const char *symbol, const char *timeframe, const int64_t *from,
                        const int64_t *to, bt_series **out);

/* The loaded series' length, symbol and timeframe (NULL when unknown; strings owned by it). */
size_t bt_series_count(const bt_series *series);
const char *bt_series_symbol(const bt_series *series);
const char *bt_series_timeframe(const bt_series *series);

/* Copies the columns into caller arrays of bt_series_count() elements; any may be NULL. */
bt_status bt_series_copy(const bt_series *series, int64_t *time, double *open, double *high, double *low,
                         double *close, double *volume);

/* Copies bars (checked as bt_backtest checks them) into a series the library owns, for
   bt_backtest_series and bt_backtest_strategy_series. *out receives a series to free with
   bt_series_free. */
bt_status bt_series_from_bars(const bt_bars *bars, bt_series **out);

void bt_series_free(bt_series *series);
void bt_store_close(bt_store *store);

#ifdef __cplusplus
}
#endif

#endif /* BT_H */
