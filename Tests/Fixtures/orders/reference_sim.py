#!/usr/bin/env python3
"""Reference simulator of bt's order conventions (docs/design/orders.md), one symbol.

Dev-only, used by `make_goldens.py` in this folder; needs numpy only. It is the executable form
of orders.md and is written from that note alone (not from bt's Swift code and not from
vectorbt or backtesting.py): every rule below cites the section of orders.md it implements,
as `[Timing]`, `[Entries]`, `[Exits]`, `[Bar 1 open]`, `[Bar 2 range]`, `[Bar 3 close]`,
`[Series]`, `[Sizing]`, `[Fees]`, `[Borrow]`, `[Margin]`, `[Funding]`.

Scope (what bt's `--depth none --max-participation 0`, no `--lot` does):

- fills at the next open (`fill="next-open"`) or at the signal bar's close (`fill="close"`);
- a long-only run (`entries`/`exits`) or a short-only run (`short=True`: the same arrays are
  the short entries and short exits; no reversal);
- market, limit, stop and stop-limit entries, `order_bars` time in force, replacement and
  cancellation;
- stop-loss, take-profit targets with shares (scale-outs), trailing stop, break-even, time exit,
  each distance a fraction of the entry price or a per-bar distance array;
- a position-aware exit rule: a Python callable `rule(bar, state)` called at each close while in
  a position, `state` holding the series of orders.md's table;
- sizing `N%`, `Nu`, `risk:R%`, `vol:V%`; `pyramid`; no slippage;
- fees as brokers charge them [Fees]: a rate on the notional (the taker's, or the maker's for a
  fill of an order that rested), a fee per unit, a minimum per fill and a cap as a share of the
  notional (`fee_min` here is bt's `--fee-min`);
- borrow [Borrow]: a short held at a bar's close pays the annual `borrow` rate on its notional
  at that close for the bar's calendar time (ACT/365), from the bar times `times`;
- a margin account [Margin] (`leverage` above 1, or `instrument` "perp"/"future"): sizing capped
  by leverage x the free margin, cross or isolated liquidation at the open or at the liquidation
  price inside the bar with the liquidation fee, the account stopping when a liquidation leaves
  equity at 0 or below, and interest on negative cash at the closes (`margin_rate`, spot);
- funding [Funding] on a perpetual: the rows (time, rate, mark or None) of each bar settled on
  the position held after the bar's open fills, before the liquidation check;
- contracts [Margin: Contracts] on a perpetual or future: `multiplier` M, a unit of quantity a
  contract on M units of the underlying, every notional q x M x P (fills' cash and fees, equity,
  sizing, the margin cap, the initial margin, liquidation, funding); prices stay the
  underlying's.
- inverse perpetuals [Inverse] (`instrument` "inverse-perp"): a contract is M units of the quote
  currency and the account is kept in the base coin, as an exchange keeps it: the wallet
  balance (`cash` here) pays fees and funding and receives each exit's realised PnL,
  side x q x M x (1/avg entry - 1/exit price) coins, the average entry the contracts' harmonic
  mean price; equity = wallet + the open position's unrealised PnL at the close; every notional
  (fees, sizing, the margin cap, maintenance, leverage) is q x M / P coins; funding
  q x M / mark x rate coins; the liquidation price is Binance COIN-M's formula (its FAQ "How to
  Calculate Liquidation Price of COIN-M Futures Contracts", one-way mode, one maintenance tier,
  maintenance amount 0): LP = (|q| M mmr + side |q| M) / (WB + side |q| M / EP), WB the wallet
  balance (cross) or the position's initial margin |q| M / (EP L) (isolated). This is a second
  algebra beside bt's (which holds inverse contracts as the coin's short of the quote units:
  cash moves by their coins at each fill, equity = cash - q M / close).

Conventions this file has to pick where orders.md leaves a choice are marked `READING:`.
Anything outside the scope raises `Unsupported` rather than guessing.
"""
import math
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence

import numpy as np

NAN = float("nan")


class Unsupported(Exception):
    """A combination orders.md does not settle (or this simulator does not cover)."""


# ---------------------------------------------------------------------------------------------
# Inputs and outputs
# ---------------------------------------------------------------------------------------------

@dataclass
class Target:
    """One take-profit: `distance` a fraction of the entry price (float) or a per-bar array of
    price distances (read at the entry's signal bar); `share` of the quantity bought, or None for
    "the rest" [Exits: Take-profit]."""
    distance: object
    share: Optional[float] = None


@dataclass
class Config:
    fill: str = "next-open"              # "next-open" | "close"            [Timing]
    size: str = "100%"                   # "N%" | "Nu" | "risk:R%" | "vol:V%" [Sizing]
    fee: float = 0.001                   # fraction of notional (bt --fee-bps 10): takers [Fees]
    maker_fee: Optional[float] = None    # fraction of notional for makers (--maker-bps); None: fee
    fee_per_unit: float = 0.0            # cash per unit filled (--fee-per-unit)
    fee_min: float = 0.0                 # cash, the least a charged fill pays (--fee-min)
    fee_max: Optional[float] = None      # fraction of notional, the most a fill pays (--fee-max)
    cash: float = 10_000.0
    short: bool = False                  # short-only run
    sl: object = None                    # fraction or per-bar distance array [Exits: Stop-loss]
    tp: Sequence[Target] = ()            # targets, nearest first or not: sorted here
    trail: object = None                 # fraction or per-bar distance array [Exits: Trailing]
    breakeven: Optional[float] = None    # fraction                          [Exits: Break-even]
    exit_after: Optional[int] = None     # bars                              [Exits: Time exit]
    entry_limit: Optional[np.ndarray] = None   # per-bar price                [Entries]
    entry_stop: Optional[np.ndarray] = None    # per-bar price                [Entries]
    order_bars: int = 1                  # time in force of limit/stop orders [Entries]
    pyramid: int = 1                     # entries per position              [Sizing]
    tick: Optional[float] = None         # stop/target rounding              [Exits]
    periods_per_year: Optional[float] = None   # for vol sizing
    exit_rule: Optional[Callable] = None       # rule(bar, State) -> bool     [Series]
    borrow: float = 0.0                  # annual fraction on a short's notional (--borrow-bps / 1e4) [Borrow]
    times: Optional[np.ndarray] = None   # bar open times, epoch seconds (borrow, interest, funding)
    leverage: float = 1.0                # L, 1 to 125                        [Margin]
    margin: str = "cross"                # "cross" | "isolated"               [Margin]
    instrument: str = "spot"             # "spot" | "perp" | "future" | "inverse-perp" [Margin] [Inverse]
    mmr: Optional[float] = None          # maintenance margin rate; None: 0.5% perp/future, 25% spot
    liq_fee: float = 0.0                 # fraction of notional on a liquidation fill (liq_fee_bps / 1e4)
    margin_rate: float = 0.0             # annual fraction on negative cash (spot margin) [Margin: Interest]
    funding: Sequence = ()               # rows (time seconds, rate, mark or None), perp [Funding]
    multiplier: float = 1.0              # M: underlying units per contract, perp/future [Margin: Contracts]
    allow_unprotected: bool = False      # take entries whose exit distances are undefined [Exits: Undefined]


@dataclass
class State:
    """The position-aware series at a bar's close [Series]; NaN (and position 0) when flat."""
    position: int
    entry_price: float
    bars_in_trade: float
    trade_return: float
    highest_since_entry: float
    lowest_since_entry: float


@dataclass
class Trade:
    entry_index: int
    exit_index: int
    side: str
    quantity: float
    entry_price: float
    exit_price: float
    fees: float
    pnl: float
    kind: str
    borrow: float = 0.0             # [Borrow] paid while short; pnl = gross - fees - borrow
    interest: float = 0.0           # [Margin: Interest] on negative cash at the closes
    funding: float = 0.0            # [Funding] paid (negative: received)
    # pnl = gross - fees - borrow - interest - funding


@dataclass
class Result:
    trades: List[Trade]
    equity: np.ndarray
    final_equity: float
    ambiguous_exit_bars: int
    fills: list                     # (bar, "buy"/"sell", quantity, price, fee, kind)
    skipped_orders: int             # entry signals that placed no order (NaN/<=0 price, no sigma,
                                    #   an exit distance undefined at the signal bar)
    events: list = field(default_factory=list)   # diagnostics for the cross-checks
    # [Margin] what the run reports in a margin account
    liquidations: int = 0
    interest_paid: float = 0.0
    funding_paid: float = 0.0
    max_leverage: float = 0.0
    min_margin_ratio: float = NAN
    stopped_at: Optional[int] = None     # the bar of the liquidation that stopped the account


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

def _is_array(x):
    return isinstance(x, (np.ndarray, list, tuple))


def parse_size(size):
    """`N%` -> ("pct", N/100); `Nu` -> ("units", N); `risk:R%`; `vol:V%` [Sizing]."""
    s = size.strip()
    if s.startswith("risk:") and s.endswith("%"):
        return "risk", float(s[5:-1]) / 100
    if s.startswith("vol:") and s.endswith("%"):
        return "vol", float(s[4:-1]) / 100
    if s.endswith("%"):
        return "pct", float(s[:-1]) / 100
    if s.endswith("u"):
        return "units", float(s[:-1])
    raise Unsupported(f"size {size!r}")


def sigma20(close, t):
    """[Sizing] vol: population standard deviation of the last 20 one-bar simple returns at the
    signal bar t (returns close[k] / close[k-1] - 1 for k = t-19 ... t); NaN before that."""
    if t < 20:
        return NAN
    r = close[t - 19:t + 1] / close[t - 20:t] - 1.0
    if not np.all(np.isfinite(r)):
        return NAN
    return float(np.std(r))          # ddof=0: population


# ---------------------------------------------------------------------------------------------
# The simulator
# ---------------------------------------------------------------------------------------------

class _Position:
    """The open position and its round trip."""

    def __init__(self, side, entry_bar, checks_from, fill_price):
        self.side = side                  # +1 long, -1 short
        self.entry_bar = entry_bar        # first entry fill bar (time exit, bars_in_trade)
        self.checks_from = checks_from    # first bar whose open/range is checked [Bar]
        self.qty = 0.0                    # quantity held now
        self.bought = 0.0                 # quantity bought in the trade (target shares)
        self.entry_notional = 0.0
        self.entry_fees = 0.0
        self.exit_qty = 0.0
        self.exit_notional = 0.0
        self.exit_fees = 0.0
        self.borrow = 0.0                 # [Borrow] charged at the closes the short was held
        self.interest = 0.0               # [Margin: Interest] charged at the closes
        self.funding = 0.0                # [Funding] settled on the bars held
        self.entry_coins = 0.0            # [Inverse] sum of q / P of the entries
        self.exit_coins = 0.0             # [Inverse] sum of q / P of the exits
        self.realized = 0.0               # [Inverse] realised PnL of the exits, coins (fees apart)
        self.entries = 0
        self.peak = fill_price            # highest: fill price, then highs of the position's bars
        self.trough = fill_price          # lowest, likewise with lows
        self.sl = None                    # stop-loss level (after break-even)
        self.trail = None                 # trailing level
        self.targets = []                 # [level, quantity or None (= the rest), filled?]
        self.be_done = False
        self.kind = None

    @property
    def avg_entry(self):
        if self.entry_coins:
            return self.bought / self.entry_coins     # [Inverse] the harmonic mean price
        return self.entry_notional / self.bought


def simulate(o, h, l, c, entries, exits, cfg: Config) -> Result:
    o, h, l, c = (np.asarray(a, dtype=float) for a in (o, h, l, c))
    n = len(c)
    entries = np.asarray(entries, dtype=bool)
    exits = np.asarray(exits, dtype=bool)
    side = -1 if cfg.short else 1
    fee = cfg.fee
    size_kind, size_val = parse_size(cfg.size)
    if size_kind == "risk" and cfg.sl is None:
        raise Unsupported("risk sizing needs --sl")                  # [Sizing]
    if size_kind == "vol" and not cfg.periods_per_year:
        raise Unsupported("vol sizing needs the periods per year")
    if cfg.pyramid > 1 and (cfg.tp or cfg.trail is not None or cfg.breakeven is not None):
        # READING: orders.md says levels are measured from the new average entry price, but not
        # how target shares count added quantity, nor whether the trailing peak restarts.
        raise Unsupported("pyramid with targets, trailing or break-even")
    if cfg.pyramid > 1 and (cfg.entry_limit is not None or cfg.entry_stop is not None):
        raise Unsupported("pyramid with limit/stop entries")
    if cfg.fill == "close" and (cfg.entry_limit is not None or cfg.entry_stop is not None):
        raise Unsupported("limit/stop entries with fill close")
    if cfg.fill == "close" and cfg.exit_rule is not None:
        raise Unsupported("position-aware rules with fill close")
    if cfg.borrow and (cfg.times is None or len(cfg.times) != n or n < 2):
        raise Unsupported("borrow needs the bar times (and two bars at least)")
    # [Margin] a margin account: leverage above 1, or a perpetual or future
    if cfg.instrument not in ("spot", "perp", "future", "inverse-perp") or cfg.margin not in ("cross", "isolated"):
        raise Unsupported(f"instrument {cfg.instrument!r} / margin {cfg.margin!r}")
    L = float(cfg.leverage)
    if not 1 <= L <= 125:
        raise Unsupported("leverage outside 1 to 125")
    margin_acct = L > 1 or cfg.instrument != "spot"
    mmr = cfg.mmr if cfg.mmr is not None else (0.25 if cfg.instrument == "spot" else 0.005)
    if margin_acct:
        if not 0 <= mmr < 1 / L:
            raise Unsupported("mmr must be below 1 / leverage")
        if cfg.instrument != "spot" and (cfg.borrow or cfg.margin_rate):
            raise Unsupported("borrow and margin_rate are refused with perpetuals and futures")
        if cfg.pyramid > 1:
            # READING: not covered: the order of an add-on at the open, the liquidation check
            # and the attached exits at that open.
            raise Unsupported("pyramid in a margin account")
        if cfg.entry_limit is not None or cfg.entry_stop is not None:
            # READING: not covered: whether a limit/stop entry filled at the open is settled by
            # that bar's funding and checked for liquidation on that bar.
            raise Unsupported("limit/stop entries in a margin account")
    elif cfg.liq_fee or cfg.margin_rate or cfg.margin != "cross" or cfg.mmr is not None:
        raise Unsupported("margin settings in a cash account")
    INV = cfg.instrument == "inverse-perp"                       # [Inverse]
    if INV and (cfg.fee_per_unit or np.any(np.asarray(l, dtype=float) <= 0)):
        raise Unsupported("inverse: a per-unit fee, or prices at or below 0")
    if cfg.funding and cfg.instrument not in ("perp", "inverse-perp"):
        raise Unsupported("funding rows on a non-perpetual")
    if (cfg.margin_rate or cfg.funding) and (cfg.times is None or len(cfg.times) != n or n < 2):
        raise Unsupported("interest and funding need the bar times (and two bars at least)")
    # [Margin: Contracts] M: perpetuals and futures only (spot's unit is the asset itself)
    M = float(cfg.multiplier)
    if not (math.isfinite(M) and M > 0):
        raise Unsupported("multiplier must be positive and finite")
    if M != 1 and cfg.instrument not in ("perp", "future", "inverse-perp"):
        raise Unsupported("multiplier on a spot instrument")
    funding_rows = sorted((int(r[0]), float(r[1]), None if r[2] is None else float(r[2]))
                          for r in cfg.funding)
    for t in cfg.tp:
        if t.share is not None and not 0 < t.share <= 1:
            raise Unsupported("target share")
    if sum(t.share or 0 for t in cfg.tp) > 1 + 1e-12:
        raise Unsupported("target shares add up to more than 100%")    # [Exits: Take-profit]

    cash = cfg.cash
    pos: Optional[_Position] = None
    trades: List[Trade] = []
    fills = []
    events = []
    equity = np.empty(n)
    ambiguous = 0
    skipped = 0
    pending_entry = None     # market order: (signal bar) fills at next open        [Timing]
    pending_exit = False     # signal exit due at the next open                      [Timing]
    working = None           # limit/stop order: dict(signal, limit, stop, triggered, last)
    pyramid_pending = False  # the pending market entry is an add-on to the open position
    stopped_at = None        # [Margin] the bar of a liquidation that left equity <= 0
    liquidations = 0
    interest_paid = 0.0
    funding_paid = 0.0
    max_leverage = 0.0
    min_margin_ratio = NAN
    p_star_logged = set()

    # -- prices -----------------------------------------------------------------------------

    def rnd(price):
        """[Exits] Stop and target prices are rounded to --tick against the position (a long's
        down, a short's up): (price / tick) rounded, times tick.
        READING: applied to every stop-like level (stop-loss, trailing, break-even) and target."""
        if cfg.tick is None:
            return price
        q = price / cfg.tick
        return (math.floor(q) if side > 0 else math.ceil(q)) * cfg.tick

    def dist(spec, entry, t):
        """A distance in price: a fraction of the entry price, or the array's value at bar t."""
        if _is_array(spec):
            return float(spec[t])
        return entry * spec

    def away(entry, d):
        """entry moved by d in the position's favour (a long's target side)."""
        return entry + side * d

    def level(spec, base, t, direction):
        """[Exits] a level from `base`, in the position's favour (`direction` +1: a target) or
        against it (-1: a stop): base x (1 + PCT) / base x (1 - PCT) for a fraction, as orders.md
        writes it, or base + D / base - D for a distance array read at bar t. (base + base x PCT
        can differ from base x (1 + PCT) in the last bit, and rounding to the tick turns that
        bit into a whole tick at a level that lies on the tick grid.)"""
        if _is_array(spec):
            return away(base, direction * float(spec[t]))
        return base * (1 + direction * side * spec)

    def upnl(price):
        """[Inverse] the open position's unrealised PnL at `price`, in coins."""
        return side * pos.qty * M * (1 / pos.avg_entry - 1 / price)

    # -- fees --------------------------------------------------------------------------------

    only_rate = (cfg.maker_fee is None and cfg.fee_per_unit == 0 and cfg.fee_min == 0
                 and cfg.fee_max is None)

    def fee_of(notional, qty, maker):
        """[Fees] A fill's fee: notional x rate (the maker's for a maker fill) + qty x fee per
        unit ([Margin: Contracts] notional = qty x M x price, the per-unit fee per contract); a charge (>= 0) is at least the minimum, a rebate (< 0) is paid as it is; then at
        most fee_max x notional: the cap wins over the minimum."""
        rate = cfg.maker_fee if (maker and cfg.maker_fee is not None) else fee
        x = notional * rate + qty * cfg.fee_per_unit
        if x >= 0:
            x = max(x, cfg.fee_min)
        if cfg.fee_max is not None:
            x = min(x, cfg.fee_max * notional)
        return x

    def affordable_qty(budget, price, maker):
        """[Sizing] [Fees] the most units (contracts) whose notional (q x M x price) plus fee
        stays within `budget`; a rebate is not spent before it is received (a negative rate
        counts as 0 here).
        READING: found by bisection on the quantity (the cost is nondecreasing in it), not by a
        formula, so this does not share bt's algebra."""
        unit = M / price if INV else M * price               # [Margin: Contracts] one contract's notional [Inverse]
        if only_rate:
            return budget / (1 + fee) / unit                 # the proportional fee alone
        if not budget > 0:
            return 0.0
        rate = cfg.maker_fee if (maker and cfg.maker_fee is not None) else fee

        def cost(q):
            n = q * unit
            x = n * max(rate, 0.0) + q * cfg.fee_per_unit
            x = max(x, cfg.fee_min)
            if cfg.fee_max is not None:
                x = min(x, cfg.fee_max * n)
            return n + x

        lo, hi = 0.0, budget / unit
        if cost(lo) > budget:
            return 0.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if mid <= lo or mid >= hi:
                break
            if cost(mid) <= budget:
                lo = mid
            else:
                hi = mid
        return lo

    # -- fills --------------------------------------------------------------------------------

    def entry_quantity(price, signal_bar, maker):
        """[Sizing] quantity for an entry filling at `price` (the order's reference price)."""
        held = pos.qty * pos.side if pos is not None else 0.0
        if INV:
            eq = cash + (upnl(price) if pos is not None else 0.0)       # [Inverse] wallet + unrealised
        else:
            eq = cash + held * M * price                         # [Margin: Contracts]
        if margin_acct:
            # [Margin: Sizing] every opening order, long or short: notional + fee at most
            # L x free margin, free margin = equity at the reference price - the initial
            # margin |q| x M x avg entry / L of the position held; none while it is not positive.
            if INV:
                free = eq - (pos.qty * M / pos.avg_entry / L if pos is not None else 0.0)   # [Inverse]
            else:
                free = eq - (pos.qty * M * pos.avg_entry / L if pos is not None else 0.0)
            if not free > 0:
                events.append(("insufficient_margin", signal_bar))
                return 0.0
            cap = affordable_qty(L * free, price, maker)
        else:
            cap = affordable_qty(cash, price, maker) if side > 0 else math.inf   # longs: cash, fee on top
        if size_kind == "pct":
            q = affordable_qty(size_val * eq, price, maker)
        elif size_kind == "units":
            q = size_val                                         # contracts; shrinks to what cash affords
        elif size_kind == "risk":
            d = dist(cfg.sl, price, signal_bar)                  # reference price x sl, or D
            if INV:
                # [Inverse] a contract loses M x |1/price - 1/stop| coins at the stop
                stop = price - side * d
                if not stop > 0:
                    raise Unsupported("inverse risk sizing with a stop at or below 0")
                q = size_val * eq / (M * abs(1 / price - 1 / stop))
            else:
                q = size_val * eq / (M * d)                      # [Margin: Contracts] R x equity / (M x distance)
        else:  # vol: min(1, V / (sigma sqrt P)) of equity, as N% does
            s = sigma20(c, signal_bar)
            share = min(1.0, size_val / (s * math.sqrt(cfg.periods_per_year))) if s > 0 else 1.0
            q = affordable_qty(share * eq, price, maker)
        if margin_acct:
            # READING: `N%` in a margin account keeps the cash account's rule, the notional
            # plus its fee within N% of equity ([Fees]: "Sizing (N%, ...) takes the most
            # notional whose notional plus fee fits the budget"), N up to 100 x L.
            events.append(("margin_capped" if q > cap else "margin_not_capped", signal_bar))
        return min(q, cap)

    def set_levels(p, signal_bar):
        """[Exits] levels from the (average) entry fill price; expression distances at the
        entry's signal bar."""
        e = p.avg_entry
        if cfg.sl is not None:
            p.sl = rnd(level(cfg.sl, e, signal_bar, -1))
            if p.be_done:
                p.sl = max(p.sl, rnd(e)) if side > 0 else min(p.sl, rnd(e))
        if cfg.tp and not p.targets:
            levels = []
            for t in cfg.tp:
                levels.append([rnd(level(t.distance, e, signal_bar, +1)), t.share])
            levels.sort(key=lambda x: side * x[0])               # nearest first
            # [Exits] "a target without @SHARE sells what is left": a target with a share sells
            # that share of the quantity bought, once, whether or not it is the last; what the
            # shares leave stays in the position until another exit.
            p.targets = [[lv, sh, False] for lv, sh in levels]
            if any(sh is None for _, sh, _ in p.targets[:-1]):
                raise Unsupported("a target without a share before the last one")
        if cfg.trail is not None and p.trail is None and p.entries == 1:
            # READING: the initial trailing level, before any completed bar: peak (= entry fill
            # price) minus D at the signal bar; none while D is NaN (set at the first close
            # where it is defined).
            lv = rnd(level(cfg.trail, p.peak, signal_bar, -1))
            p.trail = lv if math.isfinite(lv) else None

    def open_fill(bar, price, signal_bar, checks_from, maker=False):
        """An entry fill: a new position or a pyramid add-on [Sizing]; `maker`: a limit that
        rested, filled at its price inside the bar [Fees]."""
        nonlocal cash, pos
        q = entry_quantity(price, signal_bar, maker)
        if not q > 0:
            events.append(("rejected", bar))
            return
        notional = q * M / price if INV else q * M * price       # cash: [Margin: Contracts] [Inverse]
        paid = fee_of(notional, q, maker)
        events.append(("maker_fill" if maker else "taker_fill", bar))
        if INV:
            cash -= paid                                         # [Inverse] the wallet pays the fee only
        elif side > 0:
            cash -= notional + paid
        else:
            cash += notional - paid
        if pos is None:
            pos = _Position(side, bar, checks_from, price)
        pos.qty += q
        pos.bought += q
        pos.entry_notional += q * price                          # in the underlying's price units
        if INV:
            pos.entry_coins += q / price                         # [Inverse]
        pos.entry_fees += paid
        pos.entries += 1
        fills.append((bar, "buy" if side > 0 else "sell", q, price, paid, "entry"))
        set_levels(pos, signal_bar)

    def exit_fill(bar, qty, price, kind):
        """A sell of a long (buy of a short): notional - fee received (paid). [Fees] a target
        filled at its level inside the bar rested there: a maker's fill; every other exit (at the
        open, a stop, a signal, a time exit) is a taker's. [Margin] a liquidation pays
        liq_fee x notional instead of the trading fee (no minimum, per-unit fee or cap)."""
        nonlocal cash, pos
        qty = min(qty, pos.qty)
        notional = qty * M / price if INV else qty * M * price   # cash: [Margin: Contracts] [Inverse]
        if kind == "liquidation":
            paid = cfg.liq_fee * notional
            events.append(("liquidation_fill", bar))
        else:
            maker = kind == "target"
            paid = fee_of(notional, qty, maker)
            events.append(("maker_fill" if maker else "taker_fill", bar))
        if INV:
            realized = side * qty * M * (1 / pos.avg_entry - 1 / price)     # [Inverse] coins
            cash += realized - paid
            pos.realized += realized
            pos.exit_coins += qty / price
        elif side > 0:
            cash += notional - paid
        else:
            cash -= notional + paid
        pos.qty -= qty
        pos.exit_qty += qty
        pos.exit_notional += qty * price                         # in the underlying's price units
        pos.exit_fees += paid
        fills.append((bar, "sell" if side > 0 else "buy", qty, price, paid, kind))
        if pos.qty <= pos.bought * 1e-12:
            finish(bar, kind, None)

    def finish(bar, kind, mark):
        """Closes the round trip; `mark` = the last close for a trade still open at the end."""
        nonlocal pos
        p = pos
        xq, xn = p.exit_qty, p.exit_notional
        if mark is not None:
            xq += p.qty
            xn += p.qty * mark
        fees = p.entry_fees + p.exit_fees
        # [Margin: Contracts] the notionals are kept in price units: cash is M x them
        gross = ((xn - p.entry_notional) if side > 0 else (p.entry_notional - xn)) * M
        exit_price = xn / xq
        if INV:
            # [Inverse] the realised PnL of the exits, the rest marked at `mark`; prices are the
            # contracts' harmonic means
            gross = p.realized
            xc = p.exit_coins
            if mark is not None:
                gross += side * p.qty * M * (1 / p.avg_entry - 1 / mark)
                xc += p.qty / mark
            exit_price = xq / xc
        pnl = gross - fees if p.borrow == 0 else gross - fees - p.borrow
        if p.interest != 0:
            pnl -= p.interest                                    # [Margin: Interest]
        if p.funding != 0:
            pnl -= p.funding                                     # [Funding]
        trades.append(Trade(p.entry_bar, bar, "long" if side > 0 else "short", p.bought,
                            p.avg_entry, exit_price, fees, pnl, kind, p.borrow,
                            p.interest, p.funding))
        pos = None

    def exit_all(bar, price, kind):
        exit_fill(bar, pos.qty, price, kind)

    def target_qty(t):
        return pos.qty if t[1] is None else min(pos.qty, t[1] * pos.bought)

    def stop_level():
        """[Bar 2] the effective stop: max(stop-loss, trailing) for a long (min for a short),
        and its kind: `trail` when the trailing level is the strictly tighter one."""
        s, tr = pos.sl, pos.trail
        if s is None and tr is None:
            return None, None
        if tr is None:
            return s, "stop"
        if s is None:
            return tr, "trail"
        tighter = tr > s if side > 0 else tr < s
        return (tr, "trail") if tighter else (s, "stop")

    def through_stop(price, level):      # price at or beyond the stop, against the position
        return price <= level if side > 0 else price >= level

    def through_target(price, level):    # price at or beyond the target, in favour
        return price >= level if side > 0 else price <= level

    def bar_reaches_stop(bar, level):
        return l[bar] <= level if side > 0 else h[bar] >= level

    def bar_reaches_target(bar, level):
        return h[bar] >= level if side > 0 else l[bar] <= level

    # -- entry orders ---------------------------------------------------------------------------

    def place_order(t):
        """[Entries] an entry decided at bar t's close. Returns nothing; sets the order."""
        nonlocal pending_entry, working, skipped
        if size_kind == "vol" and not math.isfinite(sigma20(c, t)):
            skipped += 1                                         # [Sizing] no sigma, no order
            return
        if not cfg.allow_unprotected and any(
                _is_array(d) and not (math.isfinite(float(d[t])) and float(d[t]) > 0)
                for d in [cfg.sl, cfg.trail] + [tg.distance for tg in cfg.tp]):
            skipped += 1                                         # [Exits: Undefined at the entry]
            return
        lim = stp = None
        if cfg.entry_limit is not None:
            lim = float(cfg.entry_limit[t])
        if cfg.entry_stop is not None:
            stp = float(cfg.entry_stop[t])
        if any(x is not None and not (x > 0) for x in (lim, stp)):
            skipped += 1                                         # NaN or <= 0: no order
            if working is not None:
                # READING: orders.md does not say whether such a signal still cancels the
                # working order; not covered.
                raise Unsupported(f"bar {t}: a signal without a valid price while an order works")
            return
        if lim is None and stp is None:
            if cfg.fill == "close":
                open_fill(t, c[t], t, t + 1)                     # [Timing] at this close
            else:
                pending_entry = t                                # [Timing] at the next open
            return
        # [Entries] a new signal replaces the working order; it works on t+1 ... t+N.
        if working is not None:
            events.append(("working_replaced", t))
        working = dict(signal=t, limit=lim, stop=stp, triggered=False, last=t + cfg.order_bars)

    def try_working_open(i):
        """[Entries] the working order at bar i's open. True when it filled there."""
        nonlocal working
        w = working
        lim, stp = w["limit"], w["stop"]
        px = o[i]
        fill = None
        if stp is not None and not w["triggered"]:
            if px >= stp if side > 0 else px <= stp:         # the open is at or beyond the stop
                w["triggered"] = True
                events.append(("stop_triggered_at_open", i))
                if lim is None:
                    fill = px                                    # stop: at the open
        if fill is None and lim is not None and (stp is None or w["triggered"]):
            if px <= lim if side > 0 else px >= lim:         # limit: the open is within it
                fill = px
        if fill is not None:
            working = None
            open_fill(i, fill, w["signal"], i)                   # at the open: checks from i
            events.append(("entry_at_open", i))
            events.append(("limit_or_stop_fill", i))
            return True
        return False

    def try_working_range(i):
        """[Entries] the working order inside bar i's range. True when it filled there."""
        nonlocal working
        w = working
        lim, stp = w["limit"], w["stop"]
        fill = None
        maker = False
        if stp is not None and not w["triggered"]:
            if h[i] >= stp if side > 0 else l[i] <= stp:     # the high reaches the stop
                w["triggered"] = True
                if lim is not None and lim == stp:
                    events.append(("stop_limit_at_stop_price", i))
                if lim is None or (lim >= stp if side > 0 else lim <= stp):
                    fill = stp                                   # stop, or stop-limit: at the stop
                    maker = False                                # [Fees] triggered: takes
                else:
                    # stop-limit with the limit beyond the stop: the path inside the bar is
                    # unknown, no fill on the trigger bar; a limit from the next bar on
                    events.append(("stop_limit_no_fill_on_trigger", i))
                    return False
        elif lim is not None and (stp is None or w["triggered"]):
            # a limit (or a stop-limit triggered at this open or earlier): the low reaches it
            if l[i] <= lim if side > 0 else h[i] >= lim:
                fill = lim
                maker = True                                     # [Fees] the limit rested
        if fill is not None:
            working = None
            open_fill(i, fill, w["signal"], i + 1, maker)        # inside the bar: checks from i+1
            events.append(("entry_inside_bar", i))
            events.append(("limit_or_stop_fill", i))
            return True
        return False

    # -- margin and funding --------------------------------------------------------------------

    def bar_seconds(i):
        """[Borrow] bar i's calendar duration: to the next bar's open time; the last bar takes
        the previous bar's.
        READING: the bar's duration is the calendar time to the next bar's open time (gaps
        included); the last bar, which has no next, takes the previous bar's."""
        return (cfg.times[i + 1] - cfg.times[i]) if i + 1 < n else (cfg.times[i] - cfg.times[i - 1])

    def settle_funding(i):
        """[Funding] the rows with a time in [time[i], time[i] + the bar's duration), settled on
        the position held after bar i's open fills: cash pays q x mark x rate (q signed). The
        mark: the row's when positive and finite, else the close of bar i - 1 (the last bar
        ended at or before the row's time: a bar ends at the next bar's time)."""
        nonlocal cash, funding_paid
        lo = int(cfg.times[i])
        hi = lo + int(bar_seconds(i))
        rows = [r for r in funding_rows if lo <= r[0] < hi]
        if not rows:
            return
        at_open = any(r[0] == lo for r in rows)
        if at_open:
            # who is and is not charged for a row at this bar's open time
            if pos is not None and pos.entry_bar == i and pos.checks_from == i:
                events.append(("funding_entry_at_row_time", i))      # filled at this open: pays
            if pos is not None and pos.entry_bar == i - 1 and pos.checks_from == i:
                events.append(("funding_entry_at_close_before_row", i))   # --fill close: pays
            if pos is None and trades and trades[-1].exit_index == i:
                events.append(("funding_exit_at_row_time", i))       # closed at this open: not charged
            if pos is None and trades and trades[-1].exit_index == i - 1 and cfg.fill == "close" \
                    and trades[-1].kind in ("signal", "time"):
                events.append(("funding_exit_at_close_before_row", i))   # closed at the close before
        if pos is None:
            return
        q = pos.qty * pos.side
        for tr, rate, mark in rows:
            if mark is not None and math.isfinite(mark) and mark > 0:
                m = mark
                events.append(("funding_mark_row", i))
            else:
                if i == 0:
                    raise Unsupported("a funding row without a mark on the first bar")
                m = float(c[i - 1])
                events.append(("funding_mark_close", i))
            amount = q * M / m * rate if INV else q * M * m * rate   # [Margin: Contracts] [Inverse]
            if i == n - 1:
                events.append(("funding_last_bar", i))
            cash -= amount
            pos.funding += amount
            funding_paid += amount
            events.append(("funding_amount", i, q, m, rate, amount))    # for the cross-checks
            events.append(("funding", i))
            events.append(("funding_row_at_open" if tr == lo else "funding_row_inside_bar", i))
            if amount < 0:
                events.append(("funding_received", i))

    def liquidation_price():
        """[Margin: Liquidation] P*, where the backing equity equals mmr x |q| x M x P
        ([Margin: Contracts] q x M in place of q; isolated, M cancels)."""
        q, e = pos.qty * M, pos.avg_entry
        if INV:
            # [Inverse] Binance COIN-M: LP = (|q| M mmr + side |q| M) / (WB + side |q| M / EP)
            wb = cash if cfg.margin == "cross" else q / (e * L)
            den = wb + side * q / e
            return (q * mmr + side * q) / den if den != 0 else NAN
        if cfg.margin == "cross":
            return -cash / (q * (1 - mmr)) if side > 0 else cash / (q * (1 + mmr))
        return e * (1 - 1 / L) / (1 - mmr) if side > 0 else e * (1 + 1 / L) / (1 + mmr)

    def check_liquidation(i):
        """[Margin: Liquidation] a long is liquidated when the open is below P* (at the open),
        else when the low is below P* (at P*); a short likewise above. The whole position, no
        book, the liquidation fee. Equity after it at 0 or below stops the account."""
        nonlocal liquidations, stopped_at
        p_star = liquidation_price()
        if pos.entry_bar not in p_star_logged:
            # for the cross-checks: P* at the position's first check, with what it came from
            p_star_logged.add(pos.entry_bar)
            events.append(("p_star_first", i, p_star, cash, pos.qty, pos.avg_entry))
        if side > 0 and not p_star > 0:
            return                                               # a long with P* <= 0: never
        if INV and side < 0 and not p_star > 0:
            return                                               # [Inverse] a short with P* <= 0: never
        beyond = (lambda x: x < p_star) if side > 0 else (lambda x: x > p_star)
        if beyond(o[i]):
            price = float(o[i])
            events.append(("liquidation_at_open", i))
        elif beyond(l[i] if side > 0 else h[i]):
            price = p_star
            events.append(("liquidation_in_range", i))
        else:
            return
        # READING: orders.md puts the liquidation check before the attached exits; a stop (or
        # target) the bar would also have reached is reported so cases can avoid depending on it.
        lvl, _ = stop_level()
        if (lvl is not None and bar_reaches_stop(i, lvl)) or \
                any(not t[2] and bar_reaches_target(i, t[0]) for t in pos.targets):
            events.append(("liquidation_with_exit_level", i))
        events.append(("liquidation", i, p_star, cash, pos.qty, pos.avg_entry))
        liquidations += 1
        exit_all(i, price, "liquidation")
        if cash <= 0:
            stopped_at = i                                       # the account stops trading
            events.append(("trading_stopped", i))

    def gap_exits(i):
        """[Bar 1] a stop or trailing level the open is through, else the targets it is through."""
        lvl, kind = stop_level()
        if lvl is not None and through_stop(o[i], lvl):
            exit_all(i, o[i], "stop-gap" if kind == "stop" else "trail")
        else:
            if any(not t[2] and through_target(o[i], t[0]) for t in pos.targets) \
                    and lvl is not None and bar_reaches_stop(i, lvl):
                events.append(("target_gap_with_stop_in_range", i))
            for t in pos.targets:
                if not t[2] and through_target(o[i], t[0]):
                    t[2] = True
                    exit_fill(i, target_qty(t), o[i], "target-gap")
                    if pos is None:
                        break
                    events.append(("target_gap_partial", i))

    # -- the bars ------------------------------------------------------------------------------

    for i in range(n):
        # ---- 1. the open [Bar 1] ----------------------------------------------------------
        if pos is not None and pos.checks_from <= i and pos.entry_bar < i:
            time_due = cfg.fill == "next-open" and cfg.exit_after is not None and i == pos.entry_bar + cfg.exit_after
            if pending_exit or time_due:
                lvl, _ = stop_level()
                if (lvl is not None and bar_reaches_stop(i, lvl) and not through_stop(o[i], lvl)) or \
                        any(not t[2] and bar_reaches_target(i, t[0]) for t in pos.targets):
                    events.append(("exit_at_open_with_level_in_range", i))
            if pending_exit:
                exit_all(i, o[i], "signal")                      # a signal exit due now
            elif time_due:
                exit_all(i, o[i], "time")                        # a time exit due now
            elif not margin_acct:
                gap_exits(i)
            # [Margin] in a margin account the stop-gap and target-gap exits come after the
            # funding and the liquidation check below.
        pending_exit = False

        if pending_entry is not None:
            t = pending_entry
            pending_entry = None
            if pos is None and pyramid_pending:
                # READING: an add-on whose position closed at this open (stop-gap, ...) before
                # it filled: orders.md does not say; not covered.
                raise Unsupported(f"bar {i}: pyramid add-on after the position closed at the open")
            open_fill(i, o[i], t, i)                             # market: at the open
        pyramid_pending = False
        if working is not None and pos is None:
            try_working_open(i)

        if margin_acct:
            # [Funding] after the open fills, then [Margin: Liquidation], then the attached exits
            funded = False
            if funding_rows and pos is not None:
                before = pos.funding
                settle_funding(i)
                funded = pos is not None and pos.funding != before
            elif funding_rows:
                settle_funding(i)                                # events only: nothing held
            if pos is not None and pos.checks_from <= i:
                check_liquidation(i)
            if pos is not None and pos.checks_from <= i and pos.entry_bar < i:
                # READING: orders.md's Margin section puts the liquidation check, and so the
                # funding before it, before "the attached exits", a stop-gap or target-gap at
                # the open included; its Funding section says a position closed at an open does
                # not pay that bar's rows. Here the order is the first (funding, liquidation,
                # then the gap exits); a gap exit of a position this bar's rows were charged to
                # is reported so cases can avoid depending on it.
                k = len(fills)
                gap_exits(i)
                if funded and len(fills) > k:
                    events.append(("gap_exit_after_funding", i))

        # ---- 2. the range [Bar 2] ---------------------------------------------------------
        if pos is not None and pos.checks_from <= i:
            lvl, kind = stop_level()
            if lvl is not None and bar_reaches_stop(i, lvl):
                if not (l[i] <= lvl <= h[i]):
                    raise Unsupported(f"bar {i}: stop level {lvl} outside the bar")
                if any(not t[2] and bar_reaches_target(i, t[0]) for t in pos.targets):
                    ambiguous += 1                               # order of touches unknown
                    events.append(("ambiguous", i))
                exit_all(i, lvl, kind)
            else:
                for t in pos.targets:                            # nearest first
                    if not t[2] and bar_reaches_target(i, t[0]):
                        t[2] = True
                        exit_fill(i, target_qty(t), t[0], "target")
                        if pos is None:
                            break
        if working is not None and pos is None and i <= working["last"]:
            try_working_range(i)

        # ---- 3. the close [Bar 3] ---------------------------------------------------------
        if pos is not None and pos.checks_from <= i:
            pos.peak = max(pos.peak, h[i])
            pos.trough = min(pos.trough, l[i])
            fav = pos.peak if side > 0 else pos.trough
            if cfg.trail is not None:
                # the level only moves in the position's favour; an array D is re-read here
                new = rnd(level(cfg.trail, fav, i, -1))
                if math.isfinite(new):
                    if pos.trail is None:
                        pos.trail = new
                    else:
                        pos.trail = max(pos.trail, new) if side > 0 else min(pos.trail, new)
            if cfg.breakeven is not None and not pos.be_done:
                e = pos.avg_entry
                if (fav >= e * (1 + cfg.breakeven)) if side > 0 else (fav <= e * (1 - cfg.breakeven)):
                    pos.be_done = True
                    be = rnd(e)
                    pos.sl = be if pos.sl is None else (max(pos.sl, be) if side > 0 else min(pos.sl, be))
                    events.append(("breakeven", i))

        # [Series] the position-aware series after this bar's fills
        if pos is not None:
            e = pos.avg_entry
            if INV:
                ret = 1 - e / c[i] if side > 0 else e / c[i] - 1     # [Inverse] in the coin
            else:
                ret = c[i] / e - 1 if side > 0 else 1 - c[i] / e
            st = State(side, e, i - pos.entry_bar, ret, pos.peak, pos.trough)
        else:
            st = State(0, NAN, NAN, NAN, NAN, NAN)

        want_exit = bool(exits[i]) or (pos is not None and cfg.exit_rule is not None
                                       and bool(cfg.exit_rule(i, st)))
        want_entry = bool(entries[i])
        if stopped_at is not None and want_entry:
            want_entry = False                                   # [Margin] no order after it
            events.append(("entry_ignored_stopped", i))
        if want_exit and want_entry:
            want_exit = want_entry = False                       # [Timing] they cancel
            events.append(("cancelled_pair", i))

        if cfg.fill == "close":
            # [Timing] fill close: decisions fill at this close
            if pos is not None and pos.entry_bar < i:
                if want_exit:
                    exit_all(i, c[i], "signal")
                elif cfg.exit_after is not None and i == pos.entry_bar + cfg.exit_after:
                    exit_all(i, c[i], "time")
            if want_entry:
                if pos is None:
                    if trades and trades[-1].exit_index == i:
                        events.append(("entry_after_exit_same_bar", i))
                    place_order(i)
                elif pos.entries < cfg.pyramid:
                    place_order(i)
                else:
                    events.append(("entry_ignored_in_position", i))
        else:
            if pos is not None:
                if want_exit:
                    pending_exit = True
                elif want_entry and pos.entries < cfg.pyramid:
                    place_order(i)
                    pyramid_pending = pending_entry is not None
                elif want_entry:
                    events.append(("entry_ignored_in_position", i))
            else:
                if want_exit and working is not None:
                    working = None                               # exit while flat: cancel
                    events.append(("working_cancelled_by_exit", i))
                if want_entry:
                    if trades and trades[-1].exit_index == i:
                        events.append(("entry_after_exit_same_bar", i))
                    place_order(i)
        if working is not None and i >= working["last"]:
            working = None                                       # worked its N bars: expired
            events.append(("working_expired", i))

        # ---- [Borrow] a short held at this close, after every fill of the bar ------------------
        if cfg.borrow and pos is not None and side < 0:
            seconds = bar_seconds(i)
            years = float(seconds) / (365 * 86400)
            charge = cfg.borrow * pos.qty * M * c[i] * years     # M is 1: spot only
            cash -= charge
            pos.borrow += charge
            events.append(("borrow", i))

        # ---- [Margin: Interest] negative cash at this close, after the borrow -----------------
        if margin_acct and cash < 0:
            events.append(("cash_below_zero", i))
            if cfg.margin_rate:
                if pos is None:
                    # READING: interest goes into the round trip; a flat account with negative
                    # cash (only after a liquidation that stopped it) has none: not covered.
                    raise Unsupported(f"bar {i}: negative cash while flat with margin_rate")
                years = float(bar_seconds(i)) / (365 * 86400)
                charge = cfg.margin_rate * (-cash) * years
                cash -= charge
                pos.interest += charge
                interest_paid += charge
                events.append(("interest", i))

        held = pos.qty * pos.side if pos is not None else 0.0
        if INV:
            equity[i] = cash + (upnl(c[i]) if pos is not None else 0.0)   # [Inverse]
        else:
            equity[i] = cash + held * M * c[i]                 # [Margin: Contracts]

        if margin_acct:
            # [Margin: What the run reports] at each close
            if equity[i] > 0:
                # READING: "|q| x close" of the report is a notional, so |q| x M x close
                # ([Margin: Contracts]: "wherever a notional appears it is q x M x P").
                value = abs(held) * M / c[i] if INV else abs(held) * M * c[i]   # [Inverse] coins
                max_leverage = max(max_leverage, value / equity[i])
            if pos is not None and mmr > 0:
                if cfg.margin == "cross":
                    backing = equity[i]
                elif INV:
                    backing = pos.qty * M / (pos.avg_entry * L) + upnl(c[i])  # [Inverse]
                else:
                    backing = pos.qty * M * pos.avg_entry / L + held * M * (c[i] - pos.avg_entry)
                ratio = backing / (mmr * pos.qty * M / c[i] if INV else mmr * pos.qty * M * c[i])
                min_margin_ratio = ratio if not math.isfinite(min_margin_ratio) else min(min_margin_ratio, ratio)

    if pos is not None:
        finish(n - 1, "end", c[n - 1])                           # marked to the last close
    return Result(trades, equity, float(equity[-1]), ambiguous, fills, skipped, events,
                  liquidations, float(interest_paid), float(funding_paid), float(max_leverage),
                  float(min_margin_ratio), stopped_at)
