#!/usr/bin/env python3
"""Dev-only: writes the goldens of entry orders, attached exits, position-aware rules, and risk
and volatility sizing to `Tests/Fixtures/orders/goldens.json`.

Not run by CI or the test suite; the Swift tests read the committed `goldens.json`. Run by hand
from the repository root (a few minutes, most of it numba compiling vectorbt):

    python3 -m venv .venv-goldens && echo '*' > .venv-goldens/.gitignore
    .venv-goldens/bin/pip install vectorbt==1.2.0 backtesting==0.6.6 TA-Lib==0.8.2 numpy pandas
    .venv-goldens/bin/pip install freqtrade==2026.9      # optional: the liquidation-price check
    python3 -m venv /tmp/nt-venv && /tmp/nt-venv/bin/pip install nautilus-trader   # optional: I2
    BT_NAUTILUS_PYTHON=/tmp/nt-venv/bin/python .venv-goldens/bin/python Tests/Fixtures/orders/make_goldens.py

(versions used for the committed file: vectorbt 1.2.0, backtesting 0.6.6, TA-Lib 0.8.2,
numpy 2.4.6, pandas 3.1.1, numba 0.68.1, freqtrade 2026.9, nautilus-trader 1.221.0, Python 3.11.) It also writes the
funding rows of the funding cases as `funding_<case>.csv` beside this file.

Every case is simulated by `reference_sim.py` (beside this file: orders.md restated as Python),
and, where the conventions coincide, also by vectorbt and/or backtesting.py; the script stops
(AssertionError) when a reference disagrees by more than 1e-9 relative on any trade (entry and
exit bar, quantity, entry and exit price, fees, PnL), on the final equity or on the equity of
any bar. `checked_by` in each case lists who agreed.

How the references are driven, and where their conventions differ from orders.md
=================================================================================

vectorbt 1.2.0, `Portfolio.from_signals(close, entries, exits, price=, open=, high=, low=,
sl_stop=, sl_trail=, tp_stop=, stop_entry_price="fillprice", size=, size_type="percent",
fees=0.001, init_cash=10000)` (read in vectorbt/portfolio/nb.py, simulate_from_signal_func_nb):

V1. vectorbt checks stops only from the bar after the entry order's bar (the stop is set after
    the fill, the check of that bar already ran), and its trailing peak never takes the entry
    bar's high. orders.md checks a next-open fill's own bar and lets its high raise the peak.
    HANDLED (next-open runs): each bar k that follows a signal bar is given to vectorbt as two
    rows: an "open row" (open = close = open_k, the signal's order fills there at price open_k)
    and then the bar itself. The open row has no range for the stops (high 0 for a long run,
    low 1e300 for a short: vectorbt only tests its open against the levels, the gap rule, and
    its trailing peak cannot move), so on it vectorbt does what orders.md's step 1 does (a
    signal exit at the open, a stop or target the open is through); the full row that follows
    is checked from its open as orders.md checks the fill bar and every later bar. Results are
    mapped back to bars.
    `fill close` runs need nothing: vectorbt's own convention (fill at the close, stops from the
    next bar, the peak from the fill price) is orders.md's.
V2. vectorbt tests the stop-loss before the take-profit on the whole bar, so a bar that opens
    beyond the target and later falls through the stop exits at the stop; orders.md takes the
    target at the open (step 1 before step 2). HANDLED: asserted not to arise in the cases
    checked by vectorbt (the simulator reports `target_gap_with_stop_in_range`); on an open row
    (V1) both conventions agree.
V3. A stop exit takes the bar's only order in vectorbt, so an entry signal at the close of a
    bar whose position stopped out inside it is dropped; orders.md enters (at the next open, or
    at that close with `fill close`). HANDLED: with the open rows of V1 the next-open entry has
    a row of its own; for `fill close` runs the script asserts the case does not arise
    (`entry_after_exit_same_bar`).
V4. Both take the stop when the stop and a target lie inside one bar (the ambiguous bar): same.
V5. vectorbt has one stop-loss, trailing or not, measured as a fraction; no tick rounding, no
    expression distances, no several targets, no break-even, no time exit, no stop or limit
    entries, no position-aware rules. HANDLED: such cases are checked by the simulator (and
    backtesting.py where it can), not vectorbt.
V6. Sizing: vectorbt's `percent` size is a share of cash, bt's `N%` a share of equity; they are
    the same while flat (no pyramiding), so `100%` is percent 1.0, `risk:R%` with `--sl PCT`
    is percent R (1 + fee) / PCT (capped at 1) and `vol:V%` is percent min(1, V / (sigma sqrt P))
    at the signal bar (sigma: pandas rolling std(ddof=0) of pct_change, computed here, not by the
    simulator). Pyramiding (N% of equity on a held position) is not checked by vectorbt.
V7. Short-only runs: `short_entries`/`short_exits`, percent 1.0: vectorbt sells
    free cash / (price (1 + fee)), as bt's 100% short does.

backtesting.py 0.6.6, `Backtest(df, Strategy, cash=10000, commission=fee, trade_on_close=False,
exclusive_orders=False, hedging=False)` (read in backtesting/backtesting.py, _Broker):

B1. Stop, limit and stop-limit entries are `self.buy(size=N, limit=, stop=)` placed in `next()`
    at the signal bar; the strategy cancels its order after N bars (`order_bars`), cancels and
    replaces it on a new entry signal, and cancels it on an exit signal while flat; an exit
    signal in a position is `position.close()` (fills at the next open). Same as orders.md.
B2. backtesting.py fills a limit at min(open, limit) once the low reaches it and a stop at
    max(open, stop) once the high reaches it: orders.md's rule.
B3. Stop-limit: backtesting.py fills a stop-limit triggered at the open at min(stop, limit)
    (a price that may lie outside the bar) and, when the limit is at or below the stop, never on
    the trigger bar; orders.md fills one triggered at the open at the open (or the limit), and
    one triggered inside the bar at the stop when limit >= stop. They agree when the trigger is
    inside the bar and limit != stop. HANDLED: asserted for the stop-limit case
    (`stop_triggered_at_open`, `stop_limit_at_stop_price` never reported).
B4. Stop-loss and take-profit of a limit/stop entry: set in `next()` of the fill bar from
    `trade.entry_price` (the fill price) as absolute prices, so backtesting.py checks them from
    the next bar. orders.md checks the fill bar when the fill was at the open; backtesting.py
    also re-checks a stop entry's take-profit on its fill bar when the high reaches it (the
    "not ambiguous" special case). HANDLED: asserted that no level lies inside any limit/stop
    entry's fill bar, so neither convention exits there.
B5. backtesting.py processes a trade's stop-loss order first, its take-profit next and a
    `position.close()` order last on the bar, so a bar whose open fills a signal exit (or a
    time or rule exit) but whose range reaches a level would exit at the level; orders.md exits
    at the open. HANDLED: the strategy removes the trade's stop-loss and take-profit
    (`trade.sl = trade.tp = None`) when it sends `position.close()`, which is orders.md's order
    of step 1 (a level the open is already through would fill at that same open).
B6. Whole units only (`Nu` sizing); the order is cancelled without cash: asserted not to happen
    (every warning is an error).
B7. Market entries with stops (the exits-only cases sized in units) are `self.buy(size=N,
    sl=, tp=)` with the levels computed from the next open (the known fill price); for market
    orders backtesting.py checks them on the fill bar, as orders.md does.
B8. Trailing stops (fraction or distance array), break-even, time exits and position-aware
    rules have no backtesting.py equivalent: the strategy computes them in `next()` at each
    close (the peak from the fill price and the highs of the bars from the fill bar, the level
    ratcheting, the break-even move, `trade.sl = max(levels)`; `position.close()` on the bar
    before the time exit or when the rule holds) and backtesting.py fills them: so these cases
    confirm the fills (gaps at the open, the stop's priority, the timing of a level set at a
    close), not the arithmetic of the levels, which this script then restates a second time.
    The time exit and a rule exit are a `position.close()` order, handled as in B5.

freqtrade 2026.9 (optional: run when it imports, else the margin cases are written with
`checked_by` ["reference_sim"] alone), `freqtrade.exchange.binance.Binance.dry_run_liquidation_price`
(read in freqtrade/exchange/binance.py), Binance USD-M futures' formula
P = (wallet + cum - side x amount x entry) / (amount x mmr - side x amount):

F1. The class is made bare (`Binance.__new__`, no markets, no network), futures trading mode, the
    case's margin mode, and `get_maintenance_ratio_and_amt` returns (mmr, 0): one maintenance
    tier, maintenance amount (cum) 0, no other open trades, no liquidation buffer (the buffer is
    applied by `get_liquidation_price`, not called). With cum = 0 the formula is orders.md's:
    isolated, wallet = the position's margin |q| x entry / L gives entry (1 - 1/L) / (1 - mmr)
    (long) and entry (1 + 1/L) / (1 + mmr) (short).
F2. Cross: Binance's wallet balance is the cash before the position's notional moved it (bt's
    cash is spot-like: a buy pays its notional out of cash), so wallet = cash + side x q x entry
    gives orders.md's -cash / (q (1 - mmr)) and cash / (q (1 + mmr)); this checks the signs and
    the cash the simulator uses (after fees and funding), not a different algebra.
    Checked: P* at each position's first check and at each liquidation, within 1e-9; a
    liquidation inside the bar fills at freqtrade's P*, one at the open at an open beyond it.
    Confirms goog_perp_cross_10x_liq_range, goog_perp_cross_10x_liq_gap (cross),
    goog_perp_isolated_short_5x, goog_perp_isolated_long_liq_fee (isolated) and
    goog_perp_liq_stops_trading (cross), and the six contract cases with q x M (contracts x
    multiplier) as freqtrade's amount, its position size being in the underlying's units. Not
    checked by any reference: interest, funding, the margin cap of sizing, the account stopping
    (the simulator alone).

Inverse perpetuals (`cases_inverse`, `instrument="inverse-perp"`): the simulator keeps the
account as an exchange does (a wallet balance plus the unrealised PnL, realised PnL
side x q x M x (1/avg entry - 1/exit) at each exit, the Binance COIN-M liquidation formula),
a different algebra from bt's (which holds the contracts as the coin's short of their quote
units). Two more checks:

I1. The liquidation identity (`check_inverse_liquidation`): at each position's first check and
    at each liquidation, the backing equity at the simulator's P* (from Binance's formula)
    equals the maintenance margin mmr x |q| x M / P* (cross: wallet + unrealised PnL at P*;
    isolated: |q| x M / (entry x L) + unrealised PnL), within 1e-9; a liquidation inside the
    bar fills at P*, one at the open at an open beyond it. Confirms every inverse case with a
    liquidation (goog_inverse_cross_10x_liq_gap, goog_inverse_cross_10x_liq_range,
    goog_inverse_isolated_short_6x).
I2. nautilus_trader 1.221.0 (`check_nautilus_funding`, optional: run when the interpreter in
    $BT_NAUTILUS_PYTHON imports nautilus_trader, e.g. a venv made with `pip install
    nautilus-trader`; its own venv, as its numpy pins may differ from vectorbt's): nautilus 1.221
    does not settle funding in a backtest (FundingRateUpdate is data delivered to actors; the
    backtest's simulation modules are FXRolloverInterestModule alone; no funding in its
    accounting or portfolio), so the timing of settlements cannot be checked against it. What it
    confirms is each settlement's amount: for every row the simulator settled, the signed
    position's `CryptoPerpetual.notional_value(|q|, mark)` (is_inverse=True, multiplier M: the
    coins of |q| contracts, in BTC, rounded by nautilus to 1e-8) x rate x side equals the amount
    within 1e-8 coins. Confirms eurusd_inverse_funding_long and eurusd_inverse_funding_short.
    The linear funding cases are not given to it (their goldens stay as committed).

nautilus-trader's funding settlement is otherwise not a cross-check (see I2). Instead each
funding case's amounts are restated a second way here
(`funding_by_interval`): a trade pays the rows with a time in [the time it was filled, the time
it was closed), a fill at an open being at that bar's time and every other fill at the bar's end
(the next bar's time), orders.md's last sentence of "Funding", not the per-bar loop of the
simulator; every trade's funding and the run's total must agree within 1e-9.

Cases
=====

The contract cases (`cases_contracts`) set `multiplier` M: every notional is q x M x P.

GOOG for most (ma-cross 10/30 signals with TA-Lib SMA as the other generators, RSI 14
crossings of 30/70, and a few hand-placed signals for edge cases), EURUSD for two and for the
four funding cases (rows [0, 600), hourly, used as a perpetual's candles). A case that
names a bar range uses rows [start, end) of the file: every index and array in it counts from
`start`, and every indicator is computed on those rows only.
"""
import json
import math
import os
import sys
import warnings

import numpy as np
import pandas as pd
import talib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
OUT = os.path.join(HERE, "goldens.json")
sys.path.insert(0, HERE)

from reference_sim import Config, Target, simulate  # noqa: E402

REL = 1e-9
CASH = 10_000.0


# ---------------------------------------------------------------------------------------------
# Data and signals
# ---------------------------------------------------------------------------------------------

class Data:
    def __init__(self, name, start=None, end=None):
        df = pd.read_csv(os.path.join(ROOT, "data", f"{name}.csv"), index_col=0)
        n = len(df)
        self.name = name
        self.range = None if start is None else [start, end if end is not None else n]
        if start is not None:
            df = df.iloc[start:end]
        self.df = df
        self.o, self.h, self.l, self.c = (df[k].to_numpy(dtype=float) for k in ["Open", "High", "Low", "Close"])
        # Bar open times in epoch seconds (UTC), as bt reads the file's first column: for borrow.
        self.t = (pd.to_datetime(df.index, utc=True) - pd.Timestamp(0, tz="UTC")) // pd.Timedelta(seconds=1)
        self.t = np.asarray(self.t, dtype=np.int64)
        self.n = len(df)


def cross_above(a, b):
    a, b = pd.Series(a), pd.Series(b)
    return ((a > b) & (a.shift(1) <= b.shift(1))).fillna(False).to_numpy(dtype=bool)


def cross_below(a, b):
    a, b = pd.Series(a), pd.Series(b)
    return ((a < b) & (a.shift(1) >= b.shift(1))).fillna(False).to_numpy(dtype=bool)


def ma_cross(d, fast=10, slow=30):
    f, s = talib.SMA(d.c, fast), talib.SMA(d.c, slow)
    return cross_above(f, s), cross_below(f, s)


def rsi_signals(d, lower=30, upper=70):
    r = talib.RSI(d.c, 14)
    return cross_below(r, np.full(d.n, float(lower))), cross_above(r, np.full(d.n, float(upper)))


def atr(d, p):
    return talib.ATR(d.h, d.l, d.c, p)


def mask(n, idx):
    m = np.zeros(n, dtype=bool)
    m[list(idx)] = True
    return m


def idx(m):
    return [int(i) for i in np.flatnonzero(m)]


# ---------------------------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------------------------

def close(a, b, what):
    if a == b:
        return
    if not (math.isfinite(a) and math.isfinite(b)) or abs(a - b) > REL * max(abs(a), abs(b), 1e-300):
        raise AssertionError(f"{what}: {a!r} != {b!r}")


def same_trades(name, ref, sim_trades, fields=("quantity", "entry_price", "exit_price", "fees", "pnl")):
    """ref: list of dicts with entry_index, exit_index and the fields."""
    if len(ref) != len(sim_trades):
        for k in range(max(len(ref), len(sim_trades))):
            a = ref[k] if k < len(ref) else None
            b = sim_trades[k] if k < len(sim_trades) else None
            print("  ref", a and {x: a[x] for x in ("entry_index", "exit_index", "exit_price")},
                  "sim", b and (b.entry_index, b.exit_index, b.exit_price, b.kind))
        raise AssertionError(f"{name}: {len(ref)} trades against the simulator's {len(sim_trades)}")
    for k, (a, b) in enumerate(zip(ref, sim_trades)):
        if (a["entry_index"], a["exit_index"]) != (b.entry_index, b.exit_index):
            raise AssertionError(f"{name} trade {k}: bars {a['entry_index']}-{a['exit_index']} "
                                 f"against the simulator's {b.entry_index}-{b.exit_index} ({b.kind})")
        for f in fields:
            close(a[f], getattr(b, f), f"{name} trade {k} {f}")


def no_event(name, res, *kinds):
    found = [e for e in res.events if e[0] in kinds]
    assert not found, f"{name}: {found[:5]} (a convention difference with the reference would show)"


# ---------------------------------------------------------------------------------------------
# vectorbt
# ---------------------------------------------------------------------------------------------

def check_vectorbt(case, d, res):
    import vectorbt as vbt
    opt = case["_py"]
    cfg = opt["cfg"]
    assert cfg.tick is None and cfg.breakeven is None and cfg.exit_after is None and cfg.exit_rule is None
    assert cfg.entry_limit is None and cfg.entry_stop is None and cfg.pyramid == 1
    assert not (cfg.sl is not None and cfg.trail is not None), "vectorbt has one stop-loss"
    assert len(cfg.tp) <= 1 and all(t.share is None for t in cfg.tp)
    assert all(not isinstance(x, np.ndarray) for x in (cfg.sl, cfg.trail) + tuple(t.distance for t in cfg.tp))
    no_event(case["name"], res, "target_gap_with_stop_in_range")
    en, ex = opt["entries"], opt["exits"]
    short = cfg.short
    n = d.n
    frac = vbt_fraction(cfg, d)          # per signal bar
    if cfg.fill == "close":
        no_event(case["name"], res, "entry_after_exit_same_bar")
        rows = list(range(n))
        O, H, L, C = d.o.copy(), d.h.copy(), d.l.copy(), d.c.copy()
        E, X, S = en.copy(), ex.copy(), frac.copy()
        P = C.copy()
        bar_of_row = np.arange(n)
        full_row = np.arange(n)
    else:
        # V1: an open row before every bar that follows a signal bar.
        sig = en | ex
        O, H, L, C, E, X, S, bar_of_row = [], [], [], [], [], [], [], []
        full_row = np.empty(n, dtype=int)
        for k in range(n):
            if k > 0 and sig[k - 1]:
                O.append(d.o[k]); C.append(d.o[k])
                H.append(0.0 if not short else d.o[k]); L.append(d.o[k] if not short else 1e300)
                E.append(en[k - 1]); X.append(ex[k - 1]); S.append(frac[k - 1]); bar_of_row.append(k)
            O.append(d.o[k]); H.append(d.h[k]); L.append(d.l[k]); C.append(d.c[k])
            E.append(False); X.append(False); S.append(np.nan); bar_of_row.append(k)
            full_row[k] = len(C) - 1
        O, H, L, C, S = (np.array(a, dtype=float) for a in (O, H, L, C, S))
        E, X = np.array(E, dtype=bool), np.array(X, dtype=bool)
        P = C.copy()
        bar_of_row = np.array(bar_of_row)
    kw = dict(price=P, open=O, high=H, low=L, size=S, size_type="percent", fees=cfg.fee,
              init_cash=cfg.cash, stop_entry_price="fillprice", freq="1D")
    if cfg.sl is not None:
        kw.update(sl_stop=float(cfg.sl))
    if cfg.trail is not None:
        kw.update(sl_stop=float(cfg.trail), sl_trail=True)
    if cfg.tp:
        kw.update(tp_stop=float(cfg.tp[0].distance))
    if short:
        pf = vbt.Portfolio.from_signals(C, entries=np.zeros_like(E), exits=np.zeros_like(X),
                                        short_entries=E, short_exits=X, **kw)
    else:
        pf = vbt.Portfolio.from_signals(C, entries=E, exits=X, direction="longonly", **kw)
    rec = pf.trades.values
    ref = []
    for r in rec:
        ref.append(dict(entry_index=int(bar_of_row[r["entry_idx"]]),
                        exit_index=int(bar_of_row[r["exit_idx"]]),
                        quantity=float(r["size"]), entry_price=float(r["entry_price"]),
                        exit_price=float(r["exit_price"]),
                        fees=float(r["entry_fees"] + r["exit_fees"]), pnl=float(r["pnl"])))
    same_trades(case["name"] + " (vectorbt)", ref, res.trades)
    value = pf.value().to_numpy()
    for k in range(n):
        close(float(value[full_row[k]]), float(res.equity[k]), f"{case['name']} (vectorbt) equity at bar {k}")
    close(float(pf.final_value()), res.final_equity, f"{case['name']} (vectorbt) final equity")
    return "vectorbt"


def vbt_fraction(cfg, d):
    """V6: the percent of cash vectorbt spends, per signal bar."""
    n = d.n
    s = cfg.size.strip()
    if s.endswith("%") and ":" not in s:
        return np.full(n, float(s[:-1]) / 100)
    if s.startswith("risk:"):
        r = float(s[5:-1]) / 100
        return np.full(n, min(1.0, r * (1 + cfg.fee) / float(cfg.sl)))
    if s.startswith("vol:"):
        v = float(s[4:-1]) / 100
        sigma = pd.Series(d.c).pct_change().rolling(20).std(ddof=0).to_numpy()
        with np.errstate(divide="ignore", invalid="ignore"):
            f = np.minimum(1.0, v / (sigma * math.sqrt(cfg.periods_per_year)))
        return f              # NaN while sigma is undefined: vectorbt ignores the order
    raise AssertionError(f"vectorbt sizing for {cfg.size}")


# ---------------------------------------------------------------------------------------------
# backtesting.py
# ---------------------------------------------------------------------------------------------

def check_backtesting(case, d, res):
    from backtesting import Strategy
    opt = case["_py"]
    cfg = opt["cfg"]
    name = case["name"]
    assert cfg.size.endswith("u") and not cfg.short and cfg.fill == "next-open" and cfg.pyramid == 1
    assert cfg.tick is None and len(cfg.tp) <= 1
    units = float(cfg.size[:-1])
    assert units == int(units)
    en, ex = opt["entries"], opt["exits"]
    sl = None if cfg.sl is None else float(cfg.sl)
    tpf = float(cfg.tp[0].distance) if cfg.tp else None
    lim_arr, stp_arr = cfg.entry_limit, cfg.entry_stop
    has_order_prices = lim_arr is not None or stp_arr is not None
    trail, be, after, rule = cfg.trail, cfg.breakeven, cfg.exit_after, cfg.exit_rule
    managed = trail is not None or be is not None or after is not None or rule is not None
    assert not (managed and has_order_prices)
    # B3, B4, B5: the differences must not arise in this run.
    no_event(name, res, "target_gap_with_stop_in_range")
    if lim_arr is not None and stp_arr is not None:
        no_event(name, res, "stop_triggered_at_open", "stop_limit_at_stop_price")
    for t in res.trades:
        e = t.entry_price
        lv_sl = e * (1 - sl) if sl is not None else -math.inf
        lv_tp = e * (1 + tpf) if tpf is not None else math.inf
        k = t.entry_index
        if has_order_prices:
            assert not (d.l[k] <= lv_sl or d.h[k] >= lv_tp), f"{name}: a level inside the fill bar {k} (B4)"
    o_next = np.append(d.o[1:], np.nan)

    def trail_dist(peak, bar):
        return float(trail[bar]) if isinstance(trail, np.ndarray) else peak * float(trail)

    class Orders(Strategy):
        def init(self):
            self.working = None
            self.last = -1
            self.book = {}      # entry bar -> dict(signal, sl level, trail level, peak, trough)

        def manage(self, i):
            """B8: trailing, break-even, time exit and position-aware rules of a market entry,
            computed here at each close from the trade's fill price and the bars since its fill
            bar (a market fill at the open: its own bar counts); backtesting.py fills them."""
            if not self.trades:
                return False
            tr = self.trades[0]
            b = self.book[tr.entry_bar]
            e = tr.entry_price
            b["peak"] = max(b["peak"], float(d.h[i]))
            b["trough"] = min(b["trough"], float(d.l[i]))
            if trail is not None:
                b["trail"] = max(b["trail"], b["peak"] - trail_dist(b["peak"], i))
            if be is not None and b["peak"] >= e * (1 + be):
                b["sl"] = e if b["sl"] is None else max(b["sl"], e)
            levels = [x for x in (b["sl"], b.get("trail")) if x is not None]
            if levels:
                tr.sl = max(levels)
            if after is not None and i == tr.entry_bar + after - 1:
                return True
            if rule is not None:
                from reference_sim import State
                st = State(1, e, i - tr.entry_bar, d.c[i] / e - 1, b["peak"], b["trough"])
                if rule(i, st):
                    return True
            return False

        def next(self):
            i = len(self.data) - 1
            # B4: levels of a limit/stop entry from its fill price, from the next bar on
            for tr in self.trades:
                if has_order_prices and tr.sl is None and tr.tp is None and (sl or tpf):
                    if sl is not None:
                        tr.sl = tr.entry_price * (1 - sl)
                    if tpf is not None:
                        tr.tp = tr.entry_price * (1 + tpf)
            rule_exit = self.manage(i) if managed else False
            if self.working is not None and (self.working not in self.orders or i >= self.last):
                if self.working in self.orders:
                    self.working.cancel()            # worked its N bars
                self.working = None
            want_entry, want_exit = bool(en[i]), bool(ex[i]) or rule_exit
            if want_entry and want_exit:
                return
            if self.position:
                if want_exit:
                    for tr in self.trades:      # B5: the signal exit at the open comes first
                        tr.sl = None
                        tr.tp = None
                    self.position.close()
                return
            if want_exit and self.working is not None:
                self.working.cancel()
                self.working = None
            if not want_entry:
                return
            if self.working is not None:
                self.working.cancel()
                self.working = None
            if has_order_prices:
                lim = None if lim_arr is None else float(lim_arr[i])
                stp = None if stp_arr is None else float(stp_arr[i])
                self.working = self.buy(size=int(units), limit=lim, stop=stp)
                self.last = i + cfg.order_bars
            elif i + 1 < len(en):
                # B7: a market order; its levels from the known next open (its fill price)
                p = float(o_next[i])
                lv = p * (1 - sl) if sl is not None else None
                tl = None if trail is None else p - (float(trail[i]) if isinstance(trail, np.ndarray) else p * float(trail))
                self.book[i + 1] = dict(sl=lv, trail=tl, peak=p, trough=p)
                stops = [x for x in (lv, tl) if x is not None]
                self.buy(size=int(units), sl=max(stops) if stops else None,
                         tp=p * (1 + tpf) if tpf is not None else None)

    from backtesting import Backtest
    df = d.df.copy()
    df.index = pd.to_datetime(df.index)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        warnings.filterwarnings("ignore", category=FutureWarning)
        warnings.filterwarnings("ignore", message=".*still open.*")
        warnings.filterwarnings("ignore", message=".*some trades remain open.*")
        bt = Backtest(df, Orders, cash=cfg.cash, commission=cfg.fee, trade_on_close=False,
                      exclusive_orders=False, hedging=False, finalize_trades=False)
        st = bt.run()
    tr = st._trades
    ref = [dict(entry_index=int(r.EntryBar), exit_index=int(r.ExitBar), quantity=float(r.Size),
                entry_price=float(r.EntryPrice), exit_price=float(r.ExitPrice),
                fees=float(r.Commission), pnl=float(r.PnL)) for r in tr.itertuples()]
    closed = [t for t in res.trades if t.kind != "end"]
    same_trades(name + " (backtesting.py)", ref, closed)
    eq = st._equity_curve["Equity"].to_numpy()
    for k in range(d.n):
        close(float(eq[k]), float(res.equity[k]), f"{name} (backtesting.py) equity at bar {k}")
    return "backtesting.py"


# ---------------------------------------------------------------------------------------------
# freqtrade (optional): Binance futures liquidation price
# ---------------------------------------------------------------------------------------------

def freqtrade_binance(mmr, isolated):
    """F1: freqtrade's `Binance` exchange class, bare (no markets, no network): its
    `dry_run_liquidation_price` needs only the trading and margin modes, the run mode and
    `get_maintenance_ratio_and_amt`, replaced by (mmr, 0): one maintenance tier with maintenance
    amount 0."""
    from freqtrade.enums import MarginMode, TradingMode
    from freqtrade.exchange.binance import Binance
    b = Binance.__new__(Binance)
    b._exchange_ws = None                  # read by Exchange.__del__
    b.trading_mode = TradingMode.FUTURES
    b.margin_mode = MarginMode.ISOLATED if isolated else MarginMode.CROSS
    b._config = {"runmode": "backtest"}
    b.get_maintenance_ratio_and_amt = lambda pair, notional: (mmr, 0.0)
    return b


def check_freqtrade(case, d, res):
    """F1-F2: the simulator's liquidation price P* at each position's first check and at each
    liquidation equals freqtrade's `Binance.dry_run_liquidation_price` for the same entry,
    quantity, leverage and mmr (maintenance amount 0); a liquidation inside the bar fills at it,
    one at the open fills at an open beyond it. Returns None when freqtrade does not import."""
    try:
        import freqtrade  # noqa: F401
        from freqtrade.exchange.binance import Binance  # noqa: F401
    except ImportError:
        print(f"  {case['name']}: freqtrade not installed, its cross-check skipped")
        return None
    cfg = case["_py"]["cfg"]
    isolated = cfg.margin == "isolated"
    mmr = cfg.mmr if cfg.mmr is not None else (0.25 if cfg.instrument == "spot" else 0.005)
    L = float(cfg.leverage)
    M = float(cfg.multiplier)
    b = freqtrade_binance(mmr, isolated)
    short = cfg.short
    side = -1 if short else 1
    checked = 0
    for e in res.events:
        if e[0] not in ("p_star_first", "liquidation"):
            continue
        bar, p_star, cash, qty, entry = e[1:]
        qty = qty * M                # contracts x M: freqtrade's amount in the underlying's units
        stake = qty * entry / L
        # F2: isolated, the wallet is the position's margin; cross, Binance's wallet balance is
        # the cash before the position's notional moved it (cash + side x qty x entry).
        wallet = stake if isolated else cash + side * qty * entry
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = b.dry_run_liquidation_price("X/USDT:USDT", entry, short, qty, stake, L, wallet, [])
        close(float(ref), p_star, f"{case['name']} (freqtrade) P* at bar {bar}")
        checked += 1
        if e[0] == "liquidation":
            t = next(t for t in res.trades if t.exit_index == bar and t.kind == "liquidation")
            beyond = (lambda x: x < ref) if not short else (lambda x: x > ref)
            if beyond(d.o[bar]):
                close(t.exit_price, float(d.o[bar]), f"{case['name']} liquidation at the open of bar {bar}")
            else:
                assert beyond(d.l[bar] if not short else d.h[bar]), f"{case['name']} bar {bar}: P* not in the range"
                close(t.exit_price, float(ref), f"{case['name']} (freqtrade) liquidation price at bar {bar}")
    assert checked, f"{case['name']}: no liquidation price to check"
    print(f"  {case['name']}: {checked} liquidation prices agree with freqtrade's Binance formula")
    return "freqtrade"


# ---------------------------------------------------------------------------------------------
# Cases: options in bt's terms, turned into the simulator's Config
# ---------------------------------------------------------------------------------------------

def pct(text):
    assert text.endswith("%")
    return float(text[:-1]) / 100


def none_nan(a):
    return [None if not math.isfinite(float(x)) else float(x) for x in a]


class Expr:
    """An expression option: bt's text and its values per bar (computed here)."""

    def __init__(self, text, values):
        self.text = text
        self.values = np.asarray(values, dtype=float)


def distance(spec):
    """bt's "5%" -> 0.05 (a fraction of the entry price); an Expr -> its values (a price distance)."""
    return spec.values if isinstance(spec, Expr) else pct(spec)


def build(name, covers, d, signals, entries, exits, refs, fill="next-open", size="100%", fee_bps=10,
          short=False, sl=None, tp=(), trail=None, breakeven=None, exit_after=None, order_bars=1,
          pyramid=1, tick=None, entry_limit=None, entry_stop=None, exit_rule=None, exit_rule_fn=None,
          periods_per_year=None, equity_full=False, expect=(), maker_bps=None, fee_per_unit=0.0,
          fee_min=0.0, fee_max=None, borrow_bps=0.0, leverage=1, margin="cross", instrument="spot",
          mmr=None, liq_fee_bps=0.0, margin_rate=0.0, funding=None, funding_file=None, multiplier=1, cash=CASH):
    # The margin and funding cases (and only they) write the margin settings and results.
    margin_case = leverage != 1 or instrument != "spot" or funding is not None
    cfg = Config(fill=fill, size=size, fee=fee_bps / 10_000, cash=cash, short=short,
                 maker_fee=None if maker_bps is None else maker_bps / 10_000, fee_per_unit=fee_per_unit,
                 fee_min=fee_min, fee_max=None if fee_max is None else pct(fee_max),
                 sl=None if sl is None else distance(sl),
                 tp=[Target(distance(dd), None if sh is None else pct(sh)) for dd, sh in tp],
                 trail=None if trail is None else distance(trail),
                 breakeven=None if breakeven is None else pct(breakeven), exit_after=exit_after,
                 entry_limit=None if entry_limit is None else entry_limit.values,
                 entry_stop=None if entry_stop is None else entry_stop.values,
                 order_bars=order_bars, pyramid=pyramid, tick=tick,
                 periods_per_year=periods_per_year, exit_rule=exit_rule_fn,
                 borrow=borrow_bps / 10_000, times=d.t if (borrow_bps or margin_case) else None,
                 leverage=leverage, margin=margin, instrument=instrument, mmr=mmr,
                 liq_fee=liq_fee_bps / 10_000, margin_rate=margin_rate, funding=funding or (),
                 multiplier=multiplier)
    entries, exits = np.asarray(entries, dtype=bool), np.asarray(exits, dtype=bool)
    res = simulate(d.o, d.h, d.l, d.c, entries, exits, cfg)
    case = dict(name=name, covers=covers)
    case["_py"] = dict(cfg=cfg, entries=entries, exits=exits, expect=expect)
    checked = ["reference_sim"]
    for ref in refs:
        checked.append({"vectorbt": check_vectorbt, "backtesting.py": check_backtesting,
                        "freqtrade": check_freqtrade, "liquidation_identity": check_inverse_liquidation,
                        "nautilus_trader": check_nautilus_funding}[ref](case, d, res))
    checked = [x for x in checked if x]          # an optional reference that did not import

    def opt_text(spec):
        return None if spec is None else (spec.text if isinstance(spec, Expr) else spec)

    options = dict(fill=fill, size=size, fee_bps=fee_bps, cash=cash, short=short,
                   sl=opt_text(sl), tp=[], trail=opt_text(trail), breakeven=breakeven,
                   exit_after=exit_after, order_bars=order_bars, pyramid=pyramid, tick=tick,
                   entry_limit=opt_text(entry_limit), entry_stop=opt_text(entry_stop),
                   exit_rule=exit_rule, periods_per_year=periods_per_year)
    # The fee settings of the fee cases only: the options of the cases before them stay as written.
    for key, v, off in (("maker_bps", maker_bps, None), ("fee_per_unit", fee_per_unit, 0.0), ("fee_min", fee_min, 0.0),
                        ("fee_max", fee_max, None), ("borrow_bps", borrow_bps, 0.0)):
        if v != off:
            options[key] = v
    if margin_case:
        options.update(leverage=leverage, margin=margin, instrument=instrument, mmr=mmr,
                       liq_fee_bps=liq_fee_bps, margin_rate=margin_rate)
        if funding is not None:
            options["funding"] = [[int(t), r, m] for t, r, m in funding]
            options["funding_file"] = funding_file
        if multiplier != 1:
            options["multiplier"] = multiplier     # the contract cases only
    for dd, sh in tp:
        t = dict(distance=opt_text(dd), share=sh)
        if isinstance(dd, Expr):
            t["values"] = none_nan(dd.values)
        options["tp"].append(t)
    for key, spec in (("sl", sl), ("trail", trail), ("entry_limit", entry_limit), ("entry_stop", entry_stop)):
        if isinstance(spec, Expr):
            options[key + "_values"] = none_nan(spec.values)
    sig = dict(entries=[], exits=[], short_entries=[], short_exits=[])
    if short:
        sig["short_entries"], sig["short_exits"] = idx(entries), idx(exits)
    else:
        sig["entries"], sig["exits"] = idx(entries), idx(exits)
    n = d.n
    marks = sorted(set([0, n - 1] + [int(round(k * (n - 1) / 10)) for k in range(1, 10)]))
    expected = dict(
        trades=[dict(entry_index=t.entry_index, exit_index=t.exit_index, side=t.side, quantity=t.quantity,
                     entry_price=t.entry_price, exit_price=t.exit_price, fees=t.fees, pnl=t.pnl, kind=t.kind)
                for t in res.trades],
        fills=[dict(index=f[0], side=f[1], quantity=f[2], price=f[3], fee=f[4], kind=f[5]) for f in res.fills],
        final_equity=res.final_equity,
        equity_at=[[k, float(res.equity[k])] for k in marks],
        ambiguous_exit_bars=res.ambiguous_exit_bars,
        skipped_orders=res.skipped_orders,
    )
    if borrow_bps:
        # The borrow cases only: each trade's borrow paid (the cases before them stay as written).
        for t, e in zip(res.trades, expected["trades"]):
            e["borrow"] = t.borrow
    if margin_case:
        # The margin cases only: each trade's interest and funding, and the run's margin report.
        for t, e in zip(res.trades, expected["trades"]):
            e["interest"] = t.interest
            e["funding"] = t.funding
        expected.update(liquidations=res.liquidations, funding_paid=res.funding_paid,
                        interest_paid=res.interest_paid, max_leverage=res.max_leverage,
                        min_margin_ratio=res.min_margin_ratio if math.isfinite(res.min_margin_ratio) else None,
                        trading_stopped=res.stopped_at)
    if equity_full:
        expected["equity"] = [float(x) for x in res.equity]
    case.update(data=dict(file=d.name, range=d.range, bars=n), signals=signals, **sig,
                options=options, expected=expected, checked_by=checked)
    # What the case is meant to show must be in it.
    kinds = {t.kind for t in res.trades}
    events = {e[0] for e in res.events}
    if margin_case:
        # READING-dependent orders (reference_sim.py): no golden depends on them
        expect = list(expect) + ["no_event:liquidation_with_exit_level", "no_event:gap_exit_after_funding"]
    for want in expect:
        if want == "ambiguous":
            ok = res.ambiguous_exit_bars > 0
        elif want.startswith("event:"):
            ok = want[6:] in events
        elif want.startswith("skipped"):
            ok = res.skipped_orders > 0
        elif want.startswith("fee:liquidation"):
            # a fill's notional is quantity x M x price [Margin: Contracts]
            ok = any(f[5] == "liquidation" and f[4] > 0
                     and (abs(f[4] - cfg.liq_fee * f[2] * cfg.multiplier / f[3]) <= 1e-12 * f[4]
                          if cfg.instrument == "inverse-perp"
                          else f[4] == cfg.liq_fee * f[2] * f[3] if cfg.multiplier == 1
                          else abs(f[4] - cfg.liq_fee * f[2] * cfg.multiplier * f[3]) <= 1e-12 * f[4])
                     for f in res.fills)
        elif want.startswith("fee:"):
            ok = any(fee_binds(want[4:], f, cfg) for f in res.fills)
        elif want.startswith("no_event:"):
            ok = want[9:] not in events
        elif want.startswith("no:"):
            ok = want[3:] not in kinds
        elif want == "stopped":
            ok = res.stopped_at is not None
        else:
            ok = want in kinds
        assert ok, f"{name}: expected {want!r} in the run (kinds {sorted(kinds)}, events {sorted(events)})"
    print(f"case {name:34s} trades {len(res.trades):3d} final {res.final_equity:14.6f} "
          f"ambiguous {res.ambiguous_exit_bars} kinds {sorted(kinds)} checked by {checked[1:]}")
    return case


def fee_binds(part, f, cfg):
    """Whether fill `f` (bar, side, quantity, price, fee, kind) paid by `part` of the fee
    schedule: `min` (the minimum), `max` (the cap), `rate` (rate and per-unit fee), `rebate`."""
    notional = f[2] * cfg.multiplier * f[3]      # [Margin: Contracts]; M is 1 but in the contract cases
    if cfg.instrument == "inverse-perp":
        notional = f[2] * cfg.multiplier / f[3]  # [Inverse] coins
    if part == "min":
        return f[4] == cfg.fee_min and cfg.fee_min > 0
    if part == "max":
        return cfg.fee_max is not None and f[4] == cfg.fee_max * notional
    if part == "rebate":
        return f[4] < 0
    if part == "max_over_min":
        return cfg.fee_max is not None and f[4] == cfg.fee_max * notional and f[4] < cfg.fee_min
    return f[4] > cfg.fee_min and (cfg.fee_max is None or f[4] < cfg.fee_max * notional)


# ---------------------------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------------------------

MA = "ma-cross 10/30: cross_above / cross_below of TA-Lib SMA(close, 10) and SMA(close, 30)"
MA5 = "ma-cross 5/20: cross_above / cross_below of TA-Lib SMA(close, 5) and SMA(close, 20)"
RSI = "rsi: TA-Lib RSI(close, 14) crosses below 30 (entry) / above 70 (exit)"


def cases_exits(goog):
    en, ex = ma_cross(goog)
    en5, ex5 = ma_cross(goog, 5, 20)
    none = np.zeros(goog.n, dtype=bool)
    out = [
        build("goog_sl", "stop-loss 5% from the entry fill price; stop and stop-gap exits",
              goog, MA, en, ex, ["vectorbt"], sl="5%", expect=["stop", "signal"]),
        build("goog_tp", "take-profit 10%; target and target-gap exits",
              goog, MA, en, ex, ["vectorbt"], tp=[("10%", None)], expect=["target", "target-gap"]),
        build("goog_sl_tp_ambiguous", "stop-loss and take-profit 1.5%: bars where both lie inside the range take the stop",
              goog, MA5, en5, ex5, ["vectorbt"], sl="1.5%", tp=[("1.5%", None)],
              expect=["ambiguous", "stop", "target", "stop-gap", "target-gap"]),
        build("goog_sl_tp_ma", "stop-loss 2%, take-profit 2% on the 10/30 signals: one ambiguous bar, gaps both ways",
              goog, MA, en, ex, ["vectorbt"], sl="2%", tp=[("2%", None)], equity_full=True,
              expect=["ambiguous", "stop-gap", "target-gap"]),
    ]
    # Gaps: hand-placed entries a few bars before GOOG's largest overnight gaps, no signal exits.
    gap_entries = mask(goog.n, [362, 730, 858, 981, 1050, 1865, 41, 111, 293, 918, 1547, 1735])
    out.append(build("goog_gaps", "hand-placed entries before GOOG's largest gaps: stop-gap (down) and target-gap (up) at the open",
                     goog, "hand-placed entries (bars before large overnight gaps), no exit signals",
                     gap_entries, none, ["vectorbt"], sl="4%", tp=[("6%", None)],
                     expect=["stop-gap", "target-gap"]))
    out += [
        build("goog_trail", "trailing stop 8% of the peak (entry fill price, then the highs of the position's bars)",
              goog, MA, en, ex, ["vectorbt"], trail="8%", equity_full=True, expect=["trail", "signal"]),
        build("goog_trail_fill_close", "trailing stop 8% with --fill close (checks from the bar after the fill)",
              goog, MA, en, ex, ["vectorbt"], fill="close", trail="8%", expect=["trail"]),
        build("goog_sl_tp_fill_close", "--fill close with stop-loss 4% and take-profit 8%",
              goog, MA, en, ex, ["vectorbt"], fill="close", sl="4%", tp=[("8%", None)],
              expect=["stop", "target", "signal"]),
        build("goog_risk", "risk:1% sizing with a 5% stop-loss: quantity = 1% of equity / (price x 5%)",
              goog, MA, en, ex, ["vectorbt"], size="risk:1%", sl="5%", expect=["stop"]),
        build("goog_vol", "vol:15% sizing: min(1, 15% / (sigma20 sqrt 252)) of equity",
              goog, MA, en, ex, ["vectorbt"], size="vol:15%", periods_per_year=252, expect=["signal"]),
        build("goog_short_trail_tp", "short-only: short entries at the 10/30 down-crossings, trailing 6% and target 10%",
              goog, MA + " (short entries = cross_below, short exits = cross_above)", ex, en, ["vectorbt"],
              short=True, trail="6%", tp=[("10%", None)], expect=["trail", "target"]),
        build("goog_short_sl_tp", "short-only with stop-loss 5% and take-profit 8%",
              goog, MA + " (short entries = cross_below, short exits = cross_above)", ex, en, ["vectorbt"],
              short=True, sl="5%", tp=[("8%", None)], expect=["stop", "target"]),
    ]
    return out


def without_open_triggers(d, entries, exits, **kw):
    """B3: drops the entry signals whose stop-limit order would trigger at an open (where
    backtesting.py's fill price differs from orders.md's), one at a time, latest signal first."""
    entries = entries.copy()
    while True:
        cfg = Config(**kw)
        r = simulate(d.o, d.h, d.l, d.c, entries, exits, cfg)
        bad = [e[1] for e in r.events if e[0] in ("stop_triggered_at_open", "stop_limit_at_stop_price")]
        if not bad:
            return entries
        k = max(j for j in idx(entries) if j < bad[0])
        entries[k] = False


def cases_entries(goog):
    en, ex = ma_cross(goog)
    # Extra hand-placed signals: a second entry the bar after every 4th crossing (replaces a
    # working order, or is ignored in a position) and an exit the bar after every 7th from the
    # 3rd (cancels a working order while flat, or closes the position).
    en2, ex2 = en.copy(), ex.copy()
    for k in idx(en)[::4]:
        en2[k + 1] = True
    for k in idx(en)[2::7]:
        ex2[k + 1] = True
    hand = MA + "; plus an entry the bar after every 4th entry and an exit the bar after every 7th entry from the 3rd"
    out = [
        build("goog_limit", "limit entries at close x 0.98 working 3 bars: fills at the open and at the limit, expiry, replacement by a new signal, cancellation by an exit while flat",
              goog, hand, en2, ex2, ["backtesting.py"], size="10u",
              entry_limit=Expr("close * 0.98", goog.c * 0.98), order_bars=3, sl="5%", tp=[("10%", None)],
              equity_full=True,
              expect=["event:entry_at_open", "event:entry_inside_bar", "event:working_expired",
                      "event:working_replaced", "event:working_cancelled_by_exit", "stop", "target"]),
        build("goog_stop_entry", "stop entries at the signal bar's high working 2 bars: fills at the open (gap above the stop) and at the stop",
              goog, MA, en, ex, ["backtesting.py"], size="10u",
              entry_stop=Expr("high", goog.h.copy()), order_bars=2, sl="4%",
              expect=["event:entry_at_open", "event:entry_inside_bar", "event:working_expired", "stop", "signal"]),
    ]
    kw = dict(size="10u", fee=0.0, entry_stop=goog.h.copy(), order_bars=3, sl=0.04)
    en_a = without_open_triggers(goog, en, ex, entry_limit=goog.h * 1.01, **kw)
    kw.pop("sl")
    en_b = without_open_triggers(goog, en, ex, entry_limit=goog.c.copy(), **kw)
    note = MA + "; the entries whose order would trigger at an open removed (B3)"
    out += [
        build("goog_stop_limit_above", "stop-limit, stop at the signal bar's high, limit 1% above it: triggered inside the bar, fills at the stop",
              goog, note, en_a, ex, ["backtesting.py"], size="10u", fee_bps=0,
              entry_stop=Expr("high", goog.h.copy()), entry_limit=Expr("high * 1.01", goog.h * 1.01),
              order_bars=3, sl="4%", expect=["event:entry_inside_bar", "stop"]),
        build("goog_stop_limit_below", "stop-limit, stop at the signal bar's high, limit at its close: no fill on the trigger bar, a limit from the next bar",
              goog, note, en_b, ex, ["backtesting.py"], size="10u", fee_bps=0,
              entry_stop=Expr("high", goog.h.copy()), entry_limit=Expr("close", goog.c.copy()),
              order_bars=3,
              expect=["event:stop_limit_no_fill_on_trigger", "event:entry_at_open", "event:entry_inside_bar",
                      "event:working_expired"]),
    ]
    return out


def cases_more(goog):
    en, ex = ma_cross(goog)
    none = np.zeros(goog.n, dtype=bool)
    atr14, atr22 = atr(goog, 14), atr(goog, 22)
    c = goog.c
    # Pyramid: the crossing plus two more entries 3 and 6 bars later (ignored once 3 are in)
    en_p = en.copy()
    for k in idx(en):
        for j in (3, 6, 9):
            if k + j < goog.n:
                en_p[k + j] = True
    out = [
        build("goog_trail_atr", "trailing stop 3 x atr(22) (a chandelier exit): the distance re-read at each close, the level ratcheting",
              goog, MA, en, ex, ["backtesting.py"], size="10u",
              trail=Expr("3 * atr(22)", 3 * atr22), equity_full=True, expect=["trail", "signal"]),
        build("goog_breakeven", "stop-loss 5% moved to the entry price once the peak reached entry x 1.04",
              goog, MA, en, ex, ["backtesting.py"], size="10u", sl="5%", breakeven="4%",
              expect=["event:breakeven", "stop", "signal"]),
        build("goog_exit_after", "time exit 10 bars after the entry fill bar, at that bar's open",
              goog, MA, en, ex, ["backtesting.py"], size="10u", exit_after=10, expect=["time"]),
        build("goog_scale_out", "two take-profits: 5% sells 50% of the quantity bought, 10% the rest; stop-loss 5%",
              goog, MA, en, ex, [], sl="5%", tp=[("5%", "50%"), ("10%", None)],
              expect=["target", "stop", "signal"]),
        build("goog_pyramid", "--pyramid 3 with --size 30%: up to three entries per position (the crossing, then entries 3, 6 and 9 bars later), stop-loss 8% from the average entry price",
              goog, MA + "; plus hand-placed entries 3, 6 and 9 bars after each crossing", en_p, ex, [],
              size="30%", pyramid=3, sl="8%", expect=["signal", "event:entry_ignored_in_position"]),
        build("goog_short_sl_tp_trail", "short-only with stop-loss 4%, trailing 7% and take-profit 10%: the tighter of stop and trailing level exits",
              goog, MA + " (short entries = cross_below, short exits = cross_above)", ex, en, [],
              short=True, sl="4%", trail="7%", tp=[("10%", None)], expect=["stop", "trail", "target"]),
        build("goog_sl_tp_tick", "stop-loss 3% and take-profit 6% rounded down to --tick 0.01 (a long's levels)",
              goog, MA, en, ex, [], sl="3%", tp=[("6%", None)], tick=0.01, expect=["stop", "target"]),
        build("goog_sl_atr_risk", "risk:1% sizing with an expression stop-loss 2 x atr(14) (the distance at the signal bar)",
              goog, MA, en, ex, [], size="risk:1%", sl=Expr("2 * atr(14)", 2 * atr14), expect=["stop", "signal"]),
        build("goog_tp_atr_short_fill_close", "short-only, --fill close, take-profit 4 x atr(14) and trailing 5%",
              goog, MA + " (short entries = cross_below, short exits = cross_above)", ex, en, [],
              short=True, fill="close", tp=[(Expr("4 * atr(14)", 4 * atr14), None)], trail="5%",
              expect=["target", "trail"]),
    ]
    # Position-aware exit rules, entries at the 10/30 crossings; the rule is the whole exit rule
    # (the exits list, when given, is OR-ed with it).
    rules = [
        ("goog_rule_return_or_bars", "trade_return > 0.04 or bars_in_trade >= 7",
         lambda i, st: st.trade_return > 0.04 or st.bars_in_trade >= 7, none),
        ("goog_rule_off_high", "close < highest_since_entry * 0.95",
         lambda i, st: c[i] < st.highest_since_entry * 0.95, ex),
        ("goog_rule_atr_stop", "close < entry_price - 2 * atr(14)",
         lambda i, st: c[i] < st.entry_price - 2 * atr14[i], ex),
        ("goog_rule_dip_recovered", "lowest_since_entry < entry_price * 0.97 and trade_return > 0.01",
         lambda i, st: st.lowest_since_entry < st.entry_price * 0.97 and st.trade_return > 0.01, none),
    ]
    for name, text, fn, exits in rules:
        out.append(build(name, f"position-aware exit rule: {text}" + (" (or the 10/30 down-crossing)" if exits is ex else ""),
                         goog, MA + ("" if exits is ex else " (entries only; exits come from the rule)"),
                         en, exits, ["backtesting.py"], size="10u", exit_rule=text, exit_rule_fn=fn,
                         expect=["signal"]))
    return out


def cases_fees(goog):
    """Fees as brokers charge them: a fee per unit, a minimum, a cap, maker and taker rates
    (README: "Fees"). Not cross-checked (vectorbt and backtesting.py have no maker/taker split)."""
    en, ex = ma_cross(goog)
    limit = Expr("close * 0.98", goog.c * 0.98)
    return [
        build("goog_fee_per_unit_min", "fee 5 bps + 0.02 per unit with a 4.00 minimum per fill, 20 units: the minimum binds on the cheap fills, rate and per-unit on the others",
              goog, MA, en, ex, [], size="20u", fee_bps=5, fee_per_unit=0.02, fee_min=4.0, sl="5%",
              expect=["fee:min", "fee:rate", "signal", "stop"]),
        build("goog_fee_max_over_min", "100% sizing, fee 10 bps + 0.02 per unit, minimum 20.00, cap 0.15% of notional: small fills pay the cap (it wins over the minimum), middling ones the minimum, large ones rate and per-unit",
              goog, MA, en, ex, [], size="100%", fee_bps=10, fee_per_unit=0.02, fee_min=20.0, fee_max="0.15%",
              expect=["fee:max_over_min", "fee:min", "fee:rate", "signal"]),
        build("goog_maker_limit_tp", "limit entries at close x 0.98 (3 bars) with maker 2 bps, taker 10 bps: limits filled inside the bar and targets at their level are makers; fills at the open, stops and signals takers",
              goog, MA, en, ex, [], size="100%", fee_bps=10, maker_bps=2, entry_limit=limit, order_bars=3,
              sl="5%", tp=[("6%", None)],
              expect=["event:maker_fill", "event:taker_fill", "event:entry_at_open", "event:entry_inside_bar", "target", "stop"]),
        build("goog_maker_rebate_min", "maker rebate -2.5 bps with a 1.00 minimum (a floor on charges only) and 0.01 per unit; take-profits 4%@50% and 8% at their levels",
              goog, MA, en, ex, [], size="100%", fee_bps=8, maker_bps=-2.5, fee_per_unit=0.01, fee_min=1.0,
              entry_limit=limit, order_bars=3, tp=[("4%", "50%"), ("8%", None)], sl="6%",
              expect=["fee:rebate", "event:maker_fill", "target"]),
        build("goog_short_maker_fee_max", "short-only with limit entries at close x 1.02, maker 0 bps, taker 15 bps + 0.03 per unit, cap 0.1%: makers pay the per-unit fee, takers up to the cap",
              goog, MA + " (short entries = cross_below, short exits = cross_above)", ex, en, [], short=True,
              size="100%", fee_bps=15, maker_bps=0, fee_per_unit=0.03, fee_max="0.1%",
              entry_limit=Expr("close * 1.02", goog.c * 1.02), order_bars=3, sl="4%", tp=[("8%", None)],
              expect=["event:maker_fill", "fee:max", "target", "stop"]),
    ]


def cases_borrow(goog):
    """Borrow on shorts (README: "Borrow"), checked by `reference_sim.py` alone: vectorbt 1.2.0
    and backtesting.py 0.6.6 charge nothing for holding a short."""
    en, ex = ma_cross(goog)
    short_signals = MA + " (short entries = cross_below, short exits = cross_above)"
    # A short entered 8 bars before the end and held to it (no short exit after it).
    se, sx = ex.copy(), en.copy()
    se[goog.n - 8] = True
    sx[goog.n - 8:] = False
    return [
        build("goog_short_borrow", "short-only, 100% sizing, borrow 300 bps a year: each close a short is held pays 3%/365 a day of its notional at that close for the calendar days to the next bar (a weekend: 3 days); the short open at the end pays on the last bar for the previous bar's duration",
              goog, short_signals + "; plus a short entry 8 bars before the end, held to the end", se, sx, [], short=True,
              size="100%", borrow_bps=300, equity_full=True,
              expect=["event:borrow", "signal", "end"]),
        build("goog_short_borrow_fill_close_sl_tp", "short-only, --fill close, borrow 2500 bps a year, stop-loss 4% and take-profit 8%: the short filled at a close pays from that close; one closed at a close, or stopped inside a bar, not for that bar",
              goog, short_signals, ex, en, [], short=True, fill="close", size="100%", borrow_bps=2500,
              sl="4%", tp=[("8%", None)], equity_full=True, expect=["event:borrow", "stop", "target"]),
    ]


def cases_margin(goog):
    """Margin accounts (README: "Margin"): leverage, cross and isolated liquidation, the
    liquidation fee, the account stopping, interest, sizing capped by the free margin. Checked by
    `reference_sim.py`, and the liquidation prices by freqtrade's Binance formula (F1-F2) where
    freqtrade imports; vectorbt and backtesting.py have no liquidation."""
    en, ex = ma_cross(goog)
    n = goog.n
    short_signals = MA + " (short entries = cross_below, short exits = cross_above)"
    # GOOG's largest overnight gaps down (open / previous close - 1: bar 366 -10.1%, 734 -6.7%,
    # 1054 -7.3%, 1869 -7.7%) and up (45 +14.2%, 115 +12.3%, 297 +14.1%, 922 +19.1%,
    # 1551 +10.8%, 1739 +13.0%)
    down = [366, 734, 1054, 1869]
    up = [45, 115, 297, 922, 1551, 1739]
    # The account that stops: one entry two bars before the 366 gap, then the 10/30 signals
    # after it (ignored: the account has stopped).
    e_stop, x_stop = en.copy(), ex.copy()
    e_stop[:367] = False
    x_stop[:367] = False
    e_stop[364] = True
    return [
        build("goog_margin_spot_cross_3x", "spot margin account, leverage 3 cross, --size 300%: each entry buys 3 x equity (notional plus fee), cash goes below 0 and pays margin_rate 8% a year on it at every close (calendar days / 365); stop-loss 8% keeps every trade above the liquidation price (mmr 25%, the spot default)",
              goog, MA, en, ex, [], size="300%", sl="8%", leverage=3, margin_rate=0.08, equity_full=True,
              expect=["no:liquidation", "event:cash_below_zero", "event:interest", "signal", "stop"]),
        build("goog_perp_cross_10x_liq_range", "perpetual, leverage 10 cross, --size 1000% (no funding rows): two positions liquidated inside a bar at P* = -cash / (q (1 - mmr)) (mmr 0.5%, the perpetual default); the account goes on trading",
              goog, MA, en, ex, ["freqtrade"], size="1000%", leverage=10, instrument="perp", equity_full=True,
              expect=["liquidation", "event:liquidation_in_range", "no_event:liquidation_at_open", "signal",
                      "no_event:trading_stopped"]),
        build("goog_perp_cross_10x_liq_gap", "perpetual, leverage 10 cross, --size 800%, mmr 5%: hand-placed entries two bars before GOOG's largest gaps down; bars that open below P* liquidate at the open, others at P* inside the bar",
              goog, "hand-placed entries two bars before the gaps down at bars 366, 734, 1054, 1869; exits 3 bars after each gap",
              mask(n, [k - 2 for k in down]), mask(n, [k + 3 for k in down]), ["freqtrade"],
              size="800%", leverage=10, instrument="perp", mmr=0.05, equity_full=True,
              expect=["liquidation", "event:liquidation_at_open", "event:liquidation_in_range"]),
        build("goog_perp_isolated_short_5x", "perpetual short, leverage 5 isolated, --size 200%: P* = entry x (1 + 1/5) / (1 + mmr), whatever the cash (cross would be far higher); hand-placed shorts before GOOG's largest gaps up: one high above P* (liquidated at P*), one open above it (at the open), the others survive",
              goog, "hand-placed short entries three bars before the gaps up at bars 45, 115, 297, 922, 1551, 1739; short exits 3 bars after each",
              mask(n, [k - 3 for k in up]), mask(n, [k + 3 for k in up]), ["freqtrade"], short=True,
              size="200%", leverage=5, margin="isolated", instrument="perp", equity_full=True,
              expect=["liquidation", "event:liquidation_in_range", "event:liquidation_at_open", "signal"]),
        build("goog_perp_isolated_long_liq_fee", "perpetual long, leverage 10 isolated, mmr 1%, liq_fee_bps 50, --size 100%: P* = entry x (1 - 1/10) / (1 - mmr) although the notional is only 1 x equity (cross would never liquidate); the liquidation fills pay 0.5% of notional instead of the 10 bps trading fee",
              goog, MA, en, ex, ["freqtrade"], size="100%", leverage=10, margin="isolated", instrument="perp",
              mmr=0.01, liq_fee_bps=50,
              expect=["liquidation", "event:liquidation_in_range", "fee:liquidation", "signal"]),
        build("goog_perp_liq_stops_trading", "perpetual, leverage 20 cross, --size 2000%, liq_fee_bps 100: one entry before the 10% gap down at bar 366, which opens far below P*; the liquidation at that open leaves equity below 0, so the account stops: the later entry signals place no order",
              goog, "one hand-placed entry at bar 364; then the " + MA + " signals after bar 366",
              e_stop, x_stop, ["freqtrade"], size="2000%", leverage=20, instrument="perp", liq_fee_bps=100,
              equity_full=True,
              expect=["liquidation", "event:liquidation_at_open", "stopped", "event:entry_ignored_stopped",
                      "fee:liquidation"]),
        build("goog_margin_units_capped", "spot margin account, leverage 2 cross, --size 150u: an order of 150 units is cut to what 2 x the free margin buys (notional plus fee) when the price has outgrown equity, and fills whole before",
              goog, MA, en, ex, [], size="150u", leverage=2,
              expect=["event:margin_capped", "event:margin_not_capped", "no:liquidation", "signal"]),
    ]


FUNDING_RATES = [0.0001, 0.00025, -0.00015, 0.0004, -0.0003, 0.00005, 0.0002]


def funding_rows(d):
    """Funding rows for the bars of `d`: every 00:00, 08:00 and 16:00 UTC (bar open times on
    hourly data, the common case; over a weekend they fall inside Friday's last bar) and every
    04:30 (inside a bar), from the day before the first bar to the day after the last, plus one
    30 minutes into the last bar; every third row carries a mark price (the open of the bar it
    falls in, x 1.0002, to 5 decimals), the others none (the close before is the mark)."""
    day = 86400
    first = int(d.t[0]) // day * day - day
    last = int(d.t[-1]) // day * day + 2 * day
    times = set()
    for t0 in range(first, last, day):
        times.update([t0, t0 + 8 * 3600, t0 + 16 * 3600, t0 + 4 * 3600 + 1800])
    times.add(int(d.t[-1]) + 1800)
    rows = []
    for k, t in enumerate(sorted(times)):
        rate = FUNDING_RATES[k % len(FUNDING_RATES)]
        mark = None
        if k % 3 == 1:
            j = max(0, int(np.searchsorted(d.t, t, side="right")) - 1)
            mark = round(float(d.o[j]) * 1.0002, 5)
        rows.append((t, rate, mark))
    return rows


def write_funding_csv(name, rows):
    """The rows as `bt data import FILE --format funding --symbol S` reads them (docs/guide/data.md,
    "Funding rates"): time (ISO-8601 UTC), rate (a fraction per period), mark_price (empty: none)."""
    path = os.path.join(HERE, name)
    with open(path, "w", newline="") as fh:
        fh.write("time,rate,mark_price\n")
        for t, r, m in rows:
            stamp = pd.Timestamp(t, unit="s", tz="UTC").strftime("%Y-%m-%dT%H:%M:%SZ")
            # positional decimals (0.00005, not 5e-05), each reading back to the same double
            mark = "" if m is None else np.format_float_positional(m)
            fh.write(f"{stamp},{np.format_float_positional(r)},{mark}\n")
    back = pd.read_csv(path, dtype={"mark_price": float})
    got = [(int(pd.Timestamp(a).timestamp()), float(b), None if not math.isfinite(c) else float(c))
           for a, b, c in zip(back["time"], back["rate"], back["mark_price"])]
    assert got == [(int(t), float(r), m) for t, r, m in rows], f"{name} does not read back to its rows"
    return name


def funding_by_interval(case, d, res):
    """The funding of each trade of `res` restated by interval (see the docstring)."""
    cfg = case["_py"]["cfg"]
    t = d.t
    end_of_last = int(t[-1]) + int(t[-1] - t[-2])

    def bar_end(i):
        return int(t[i + 1]) if i + 1 < d.n else end_of_last

    def mark(tr, m):
        if m is not None:
            return m
        b = int(np.searchsorted(t, tr, side="right")) - 1      # the bar the row falls in
        return float(d.c[b - 1])                               # the last bar ended before it

    total = 0.0
    for tr in res.trades:
        start = int(t[tr.entry_index]) if cfg.fill == "next-open" else bar_end(tr.entry_index)
        at_open = tr.kind in ("signal", "time", "stop-gap", "target-gap") and cfg.fill == "next-open"
        stop = end_of_last if tr.kind == "end" else (int(t[tr.exit_index]) if at_open else bar_end(tr.exit_index))
        q = tr.quantity if tr.side == "long" else -tr.quantity
        if cfg.instrument == "inverse-perp":       # [Inverse] q x M / mark x rate coins
            f = sum(q * cfg.multiplier / mark(r[0], r[2]) * r[1] for r in cfg.funding if start <= r[0] < stop)
        else:
            f = sum(q * cfg.multiplier * mark(r[0], r[2]) * r[1] for r in cfg.funding if start <= r[0] < stop)
        close(f, tr.funding, f"{case['name']} funding of the trade at bar {tr.entry_index} (by interval)")
        total += f
    close(total, res.funding_paid, f"{case['name']} funding paid (by interval)")


def funding_setup():
    """The funding cases' data, signals and rows (also the contract case with funding): EURUSD
    rows [0, 600), entries, exits, the signals' note, the rows and their CSV file's name."""
    part = Data("EURUSD", 0, 600)
    n = part.n
    en, ex = (m.copy() for m in ma_cross(part))
    hours = (part.t // 3600) % 24
    # Hand-placed: an entry whose fill bar opens at a row time (08:00) and an exit whose fill
    # bar opens at one (16:00), the MA signals around them removed; and an entry 20 bars before
    # the end, held to the end (the row inside the last bar is charged).
    j = next(k for k in range(150, n) if hours[k + 1] == 8)
    k = next(m for m in range(j + 5, n) if hours[m + 1] == 16)
    for m in (en, ex):
        m[j - 40:k + 10] = False
        m[n - 60:] = False
    en[j] = ex[k] = en[n - 20] = True
    note = (MA + f" (on the rows of the range); plus an entry at bar {j} (its fill bar opens at 08:00, a row time), "
            f"an exit at bar {k} (its fill bar opens at 16:00), the signals from bar {j - 40} to {k + 9} removed, "
            f"and an entry at bar {n - 20} held to the end (signals from bar {n - 60} removed)")
    rows = funding_rows(part)
    csv = write_funding_csv("funding_eurusd_perp_funding_long.csv", rows)
    return part, en, ex, note, rows, csv


def check_funding_by_interval(out, part):
    for case in out:
        py = case["_py"]
        res = simulate(part.o, part.h, part.l, part.c, py["entries"], py["exits"], py["cfg"])
        funding_by_interval(case, part, res)


def cases_funding():
    """Perpetual funding (README: "Funding") on EURUSD hourly rows [0, 600) (used as a
    perpetual's candles), checked by `reference_sim.py` alone."""
    part, en, ex, note, rows, csv = funding_setup()
    common = dict(instrument="perp", funding=rows, funding_file=csv, equity_full=True)
    out = [
        build("eurusd_perp_funding_long", "perpetual long, leverage 5 cross, --size 300%, funding rows at 00:00/08:00/16:00 (bar open times) and 04:30 (inside a bar), with and without a mark price: each bar settles its rows on the position held after its open fills, at the row's mark or the close before; a position filled at the open of a row's bar pays that row, one closed at that open does not; the row inside the last bar is charged, rows outside the bars are not",
              part, note, en, ex, [], size="300%", leverage=5, **common,
              expect=["event:funding", "event:funding_row_at_open", "event:funding_row_inside_bar",
                      "event:funding_mark_row", "event:funding_mark_close", "event:funding_received",
                      "event:funding_entry_at_row_time", "event:funding_exit_at_row_time",
                      "event:funding_last_bar", "signal", "end"]),
        build("eurusd_perp_funding_short", "perpetual short, the same rows and signals (short entries = the long run's entries): a short receives a positive rate and pays a negative one",
              part, note + " (used as short entries / short exits)", en, ex, [], short=True, size="300%", leverage=5,
              **common,
              expect=["event:funding", "event:funding_received", "event:funding_entry_at_row_time",
                      "event:funding_exit_at_row_time", "event:funding_last_bar", "signal", "end"]),
        build("eurusd_perp_funding_fill_close", "perpetual long with --fill close, the same rows and signals: a position filled at the close before a row's bar pays that row (held at the row's time), one closed at that close does not",
              part, note, en, ex, [], fill="close", size="300%", leverage=5, **common,
              expect=["event:funding", "event:funding_entry_at_close_before_row",
                      "event:funding_exit_at_close_before_row", "signal", "end"]),
        build("eurusd_perp_funding_sl_tp", "perpetual long, leverage 10 cross, --size 500%, stop-loss 0.3% and take-profit 0.6% with the same funding rows: funding is settled on the bars of positions the stop or the target closes (after the open, before the range)",
              part, note, en, ex, [], size="500%", leverage=10, sl="0.3%", tp=[("0.6%", None)], **common,
              expect=["event:funding", "stop", "target", "no:liquidation"]),
    ]
    check_funding_by_interval(out, part)
    return out


def cases_contracts(goog):
    """Contracts (README: "Contracts"): `multiplier` M on futures and perpetuals, every notional
    q x M x P. Checked by `reference_sim.py`, the liquidation prices by freqtrade (F1-F2 with
    q x M as the position's amount) and the funding by interval."""
    en, ex = ma_cross(goog)
    n = goog.n
    up = [45, 115, 297, 922, 1551, 1739]           # GOOG's largest gaps up (cases_margin)
    fees = dict(fee_bps=1, fee_per_unit=2.0)
    out = [
        build("goog_future_multiplier_50", "future, multiplier 50 (a contract on 50 shares), leverage 5 cross, --size 400%, fee 1 bps + 2.0 per contract, stop-loss 5%: 400% of equity buys equity x 4 / (50 x price) contracts (fractional, no lot) net of the fee; fills' cash, fees and equity are contracts x 50 x price, prices stay per share",
              goog, MA, en, ex, ["freqtrade"], size="400%", leverage=5, instrument="future", multiplier=50,
              sl="5%", equity_full=True, **fees,
              expect=["stop", "signal", "no:liquidation", "event:margin_not_capped"]),
        build("goog_future_multiplier_50_liq", "future, multiplier 50, leverage 20 cross, --size 1000%, fee 1 bps + 2.0 per contract: two positions liquidated inside a bar at P* = -cash / (q x 50 x (1 - mmr)) (maintenance and equity on q x 50), the liquidation fills' cash q x 50 x P*; the account goes on trading",
              goog, MA, en, ex, ["freqtrade"], size="1000%", leverage=20, instrument="future", multiplier=50,
              equity_full=True, **fees,
              expect=["liquidation", "event:liquidation_in_range", "signal", "no_event:trading_stopped"]),
        build("goog_future_multiplier_50_risk", "future, multiplier 50, leverage 5 cross, --size risk:1%, stop-loss 5%: each entry buys 1% x equity / (50 x 5% x price) contracts, so a stop loses about 1% of equity",
              goog, MA, en, ex, ["freqtrade"], size="risk:1%", leverage=5, instrument="future", multiplier=50,
              sl="5%", **fees,
              expect=["stop", "signal", "no:liquidation"]),
        build("goog_perp_multiplier_10_isolated_short", "perpetual short, multiplier 10, leverage 5 isolated, --size 200%, liq_fee_bps 20: hand-placed shorts before GOOG's largest gaps up; P* = entry x (1 + 1/5) / (1 + mmr) (M cancels), liquidated inside a bar and at an open, the liquidation fee 0.2% of q x 10 x price",
              goog, "hand-placed short entries three bars before the gaps up at bars 45, 115, 297, 922, 1551, 1739; short exits 3 bars after each",
              mask(n, [k - 3 for k in up]), mask(n, [k + 3 for k in up]), ["freqtrade"], short=True,
              size="200%", leverage=5, margin="isolated", instrument="perp", multiplier=10, liq_fee_bps=20,
              equity_full=True,
              expect=["liquidation", "event:liquidation_in_range", "event:liquidation_at_open", "signal",
                      "fee:liquidation"]),
    ]
    part, en, ex, note, rows, csv = funding_setup()
    fund = [
        build("eurusd_perp_multiplier_funding", "perpetual, multiplier 1000 (a 1000 EUR contract), leverage 5 cross, --size 3u: 3 contracts each entry (notional 3 x 1000 x price), funding q x 1000 x mark x rate on the rows of the funding cases",
              part, note, en, ex, ["freqtrade"], size="3u", leverage=5, instrument="perp", multiplier=1000,
              funding=rows, funding_file=csv, equity_full=True,
              expect=["event:funding", "event:funding_received", "event:margin_not_capped", "signal", "end"]),
        build("eurusd_perp_multiplier_units_capped", "perpetual, multiplier 1000, leverage 5 cross, --size 50u, the same rows and signals: 50 contracts (50 x 1000 x price, above 5 x equity) are cut to what 5 x the free margin buys, notional q x 1000 x price plus fee",
              part, note, en, ex, ["freqtrade"], size="50u", leverage=5, instrument="perp", multiplier=1000,
              funding=rows, funding_file=csv,
              expect=["event:funding", "event:margin_capped", "signal", "end", "no:liquidation"]),
    ]
    check_funding_by_interval(fund, part)
    return out + fund


def check_inverse_liquidation(case, d, res):
    """I1: at each P* the simulator computed (Binance COIN-M's formula), the backing equity
    equals the maintenance margin; a liquidation fills at P* or at an open beyond it."""
    cfg = case["_py"]["cfg"]
    M, L = float(cfg.multiplier), float(cfg.leverage)
    mmr = cfg.mmr if cfg.mmr is not None else 0.005
    side = -1 if cfg.short else 1
    checked = 0
    for e in res.events:
        if e[0] not in ("p_star_first", "liquidation"):
            continue
        bar, p_star, wallet, qty, entry = e[1:]
        if not (p_star > 0 and math.isfinite(p_star)):
            continue
        upnl = side * qty * M * (1 / entry - 1 / p_star)
        backing = (wallet if cfg.margin == "cross" else qty * M / (entry * L)) + upnl
        close(backing, mmr * qty * M / p_star, f"{case['name']} backing at P* (bar {bar})")
        checked += 1
        if e[0] == "liquidation":
            t = next(t for t in res.trades if t.exit_index == bar and t.kind == "liquidation")
            beyond = (lambda x: x < p_star) if side > 0 else (lambda x: x > p_star)
            close(t.exit_price, float(d.o[bar]) if beyond(d.o[bar]) else p_star, f"{case['name']} liquidation fill at bar {bar}")
    assert checked, f"{case['name']}: no liquidation price to check"
    print(f"  {case['name']}: {checked} liquidation prices hold the maintenance identity")
    return "liquidation_identity"


NAUTILUS_SCRIPT = r"""
import json, sys
from decimal import Decimal
from nautilus_trader.model.currencies import BTC, USD
from nautilus_trader.model.identifiers import InstrumentId, Symbol
from nautilus_trader.model.instruments import CryptoPerpetual
from nautilus_trader.model.objects import Money, Price, Quantity
rows, M = json.load(sys.stdin)
inst = CryptoPerpetual(instrument_id=InstrumentId.from_str("BTCUSD-PERP.SIM"), raw_symbol=Symbol("BTCUSD"),
    base_currency=BTC, quote_currency=USD, settlement_currency=BTC, is_inverse=True,
    price_precision=9, size_precision=9, price_increment=Price(1e-9, 9), size_increment=Quantity(1e-9, 9),
    ts_event=0, ts_init=0, multiplier=Quantity(M, 0))
out = []
for q, mark, rate in rows:
    coins = inst.notional_value(Quantity(abs(q), 9), Price(mark, 9)).as_double()
    out.append((1 if q > 0 else -1) * coins * rate)
print(json.dumps(out))
"""


def check_nautilus_funding(case, d, res):
    """I2: each settled funding row's amount against nautilus_trader's inverse notional value.
    Returns None when $BT_NAUTILUS_PYTHON is unset or does not import nautilus_trader."""
    import subprocess
    py = os.environ.get("BT_NAUTILUS_PYTHON")
    if not py:
        print(f"  {case['name']}: BT_NAUTILUS_PYTHON not set, the nautilus_trader cross-check skipped")
        return None
    cfg = case["_py"]["cfg"]
    rows = [e for e in res.events if e[0] == "funding_amount"]
    assert rows, f"{case['name']}: no funding settled"
    done = subprocess.run([py, "-c", NAUTILUS_SCRIPT], input=json.dumps([[[e[2], e[3], e[4]] for e in rows],
                                                                         float(cfg.multiplier)]),
                          capture_output=True, text=True)
    if done.returncode != 0:
        print(f"  {case['name']}: nautilus_trader did not run ({done.stderr.strip().splitlines()[-1:]}), skipped")
        return None
    for e, amount in zip(rows, json.loads(done.stdout)):
        assert abs(amount - e[5]) <= 1e-8, f"{case['name']} bar {e[1]}: nautilus {amount} vs {e[5]}"
    print(f"  {case['name']}: {len(rows)} funding amounts agree with nautilus_trader's inverse notional x rate")
    return "nautilus_trader"


def cases_inverse(goog):
    """Inverse perpetuals (README: "Inverse perpetuals"): contracts of M quote units, the account
    in the coin. Checked by `reference_sim.py` (a wallet-balance algebra and Binance COIN-M's
    liquidation formula), the liquidation identity (I1), nautilus_trader's inverse notional for
    the funding amounts (I2) and the funding by interval. GOOG stands for a coin priced in
    dollars; the cash is in that coin."""
    en, ex = ma_cross(goog)
    n = goog.n
    down = [366, 734, 1054, 1869]                  # GOOG's largest gaps down (cases_margin)
    up = [45, 115, 297, 922, 1551, 1739]           # and up
    inv = dict(instrument="inverse-perp", multiplier=100, cash=100.0)
    out = [
        build("goog_inverse_long_cross_3x", "inverse perpetual long, multiplier 100 (a $100 contract), leverage 3 cross, --cash 100 (coins), --size 300%, stop-loss 8%: each entry buys 3 x equity x price / 100 contracts net of the fee (bps of the coin notional q x 100 / price); PnL q x 100 x (1/entry - 1/exit) coins, equity in the coin",
              goog, MA, en, ex, ["liquidation_identity"], size="300%", leverage=3, sl="8%", equity_full=True, **inv,
              expect=["signal", "stop", "no:liquidation", "event:margin_not_capped"]),
        build("goog_inverse_short_fees_risk", "inverse perpetual short, multiplier 100, leverage 5 cross, --size risk:2%, stop-loss 5%, take-profit 10%, fee 5 bps, maker -1 bps (a rebate on the targets), fee-min 0.001 coins: contracts sized so a stop loses 2% of equity in coins, q = 2% x equity / (100 x |1/p - 1/stop|)",
              goog, MA + " (short entries = cross_below, short exits = cross_above)", ex, en, [], short=True,
              size="risk:2%", leverage=5, sl="5%", tp=[("10%", None)], fee_bps=5, maker_bps=-1, fee_min=0.001,
              equity_full=True, **inv,
              expect=["stop", "target", "signal", "no:liquidation", "fee:rebate"]),
        build("goog_inverse_cross_10x_liq_gap", "inverse perpetual long, leverage 10 cross, --size 800%, mmr 5%, liq_fee_bps 30: hand-placed entries two bars before GOOG's largest gaps down; P* = q x 100 x (1 + mmr) / cash (Binance COIN-M, cash = wallet + the contracts' coins); bars that open below P* liquidate at the open, others at P* inside the bar",
              goog, "hand-placed entries two bars before the gaps down at bars 366, 734, 1054, 1869; exits 3 bars after each gap",
              mask(n, [k - 2 for k in down]), mask(n, [k + 3 for k in down]), ["liquidation_identity"],
              size="800%", leverage=10, mmr=0.05, liq_fee_bps=30, equity_full=True, **inv,
              expect=["liquidation", "event:liquidation_at_open", "fee:liquidation"]),
        build("goog_inverse_cross_10x_liq_range", "inverse perpetual long, leverage 10 cross, --size 1000% (mmr 0.5%, the default): P* = q x 100 x (1 + mmr) / cash, about 8.6% below the entry; positions liquidated inside a bar at P*; the account goes on trading",
              goog, MA, en, ex, ["liquidation_identity"], size="1000%", leverage=10, equity_full=True, **inv,
              expect=["liquidation", "event:liquidation_in_range", "signal", "no_event:trading_stopped"]),
        build("goog_inverse_isolated_short_6x", "inverse perpetual short, leverage 6 isolated, --size 200%: P* = entry x (1 - mmr) / (1 - 1/6), whatever the cash; hand-placed shorts before GOOG's largest gaps up: liquidated inside a bar and at an open, the others survive",
              goog, "hand-placed short entries three bars before the gaps up at bars 45, 115, 297, 922, 1551, 1739; short exits 3 bars after each",
              mask(n, [k - 3 for k in up]), mask(n, [k + 3 for k in up]), ["liquidation_identity"], short=True,
              size="200%", leverage=6, margin="isolated", equity_full=True, **inv,
              expect=["liquidation", "event:liquidation_in_range", "event:liquidation_at_open", "signal"]),
    ]
    part, en, ex, note, rows, csv = funding_setup()
    common = dict(funding=rows, funding_file=csv, equity_full=True, leverage=5, size="300%", **inv)
    fund = [
        build("eurusd_inverse_funding_long", "inverse perpetual long (EURUSD hourly as a coin in dollars), multiplier 100, leverage 5 cross, --size 300%, the funding cases' rows: each row pays q x 100 / mark x rate coins (the row's mark, else the close before)",
              part, note, en, ex, ["nautilus_trader"], **common,
              expect=["event:funding", "event:funding_received", "event:funding_mark_row", "event:funding_mark_close",
                      "signal", "end"]),
        build("eurusd_inverse_funding_short", "inverse perpetual short, the same rows and signals (short entries = the long run's entries): a short receives a positive rate and pays a negative one, in coins",
              part, note + " (used as short entries / short exits)", en, ex, ["nautilus_trader"], short=True, **common,
              expect=["event:funding", "event:funding_received", "signal", "end"]),
    ]
    check_funding_by_interval(fund, part)
    return out + fund


def cases_eurusd():
    eur = Data("EURUSD")
    en, ex = ma_cross(eur)
    part = Data("EURUSD", 0, 2500)
    pen, pex = ma_cross(part)
    return [
        build("eurusd_sl_tp", "EURUSD hourly: stop-loss 0.3%, take-profit 0.6%",
              eur, MA, en, ex, ["vectorbt"], sl="0.3%", tp=[("0.6%", None)],
              expect=["stop", "target", "signal"]),
        build("eurusd_trail_fill_close_range", "EURUSD rows [0, 2500): --fill close, trailing 0.4%",
              part, MA + " (computed on the rows of the range)", pen, pex, ["vectorbt"], fill="close",
              trail="0.4%", equity_full=True, expect=["trail"]),
    ]


def main():
    goog = Data("GOOG")
    cases = (cases_entries(goog) + cases_exits(goog) + cases_more(goog) + cases_eurusd() + cases_fees(goog)
             + cases_borrow(goog) + cases_margin(goog) + cases_funding() + cases_contracts(goog)
             + cases_inverse(goog))
    for c in cases:
        del c["_py"]
    import vectorbt as vbt
    import backtesting
    goldens = dict(
        about="goldens of entry orders, attached exits, position-aware rules and risk sizing (docs/design/orders.md); see Tests/Fixtures/orders/README.md",
        versions=dict(vectorbt=vbt.__version__, backtesting=backtesting.__version__,
                      talib=talib.__version__, numpy=np.__version__, pandas=pd.__version__),
        cases=cases)
    with open(OUT, "w") as fh:
        fh.write(dumps(goldens) + "\n")
    print(f"wrote {os.path.relpath(OUT, ROOT)} ({os.path.getsize(OUT)} bytes, {len(cases)} cases)")


def dumps(x, indent=0):
    """JSON with objects indented and lists of numbers (or short objects) on one line each."""
    pad = " " * indent
    if isinstance(x, dict):
        if not x:
            return "{}"
        if indent >= 4 and all(not isinstance(v, (dict, list)) for v in x.values()):
            return json.dumps(x, separators=(",", ":"), allow_nan=False)
        items = [f'{pad} {json.dumps(k)}: {dumps(v, indent + 1)}' for k, v in x.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(x, list):
        if all(not isinstance(v, (dict, list)) for v in x):
            return json.dumps(x, separators=(",", ":"), allow_nan=False)
        items = [pad + " " + dumps(v, indent + 1) for v in x]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(x, allow_nan=False)


if __name__ == "__main__":
    main()
