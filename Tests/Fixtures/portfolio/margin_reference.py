#!/usr/bin/env python3
"""Dev-only: writes `margin_goldens.json`, the goldens of a portfolio's margin account.

Not run by CI or the test suite; `PortfolioMarginGoldenTests` reads the committed JSON. Run by
hand from the repository root (Python 3 standard library only):

    python3 Tests/Fixtures/portfolio/margin_reference.py

An independent re-statement, in plain Python, of the rules docs/guide/screens-and-portfolios.md
("Margin and shorts") and docs/design/orders.md ("Margin", "Funding") give a portfolio's account,
on a hand-made order table of two perpetuals A and B (Portfolio.execute: target shares of the
portfolio's value, negative for a short), next-open fills, no book (fills at the open), a taker
fee in basis points, a liquidation fee, each symbol's own funding rows:

- a row's value V = cash + sum q * open, taken once; orders run in ascending (target value -
  current value), ties by symbol; an order on the other side first closes the position, then
  sizes from the equity after that close; an order opens or adds at most its budget (|w| V less
  what is held, fee inside) and at most leverage * (equity - sum |q| * entry / leverage), fee
  inside; a smaller target trims.
- after the row's fills, each symbol's funding rows in [its open, the next open) are paid by the
  position held: q * (mark, else the previous close) * rate (nothing without either).
- cross margin, after funding: one position is liquidated at its closed-form price (-cash / (q (1 -
  mmr)) for a long, cash / (-q (1 + mmr)) for a short), or at the open when the row opens beyond
  it; several where cash + sum (q - mmr |q|) p(lambda) = 0 with p(lambda) = open + lambda (extreme
  - open), the extreme the low of a long and the high of a short (lambda = 0: all at the open).
  A liquidation pays liq_fee_bps of its notional. Equity at or below 0 after it stops the account.
- equity at each row's close = cash + sum q * close.

Cases: a long/short book at 5x cross through a rebalance, reversals of both symbols, a close, and
a shock that liquidates both positions together (the cross rule with two positions); the same
table at 5x isolated (each position at its own price, entry * (1 -/+ 1/L) / (1 -/+ mmr)).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "margin_goldens.json")
DAY = 86_400
T0 = 1_577_836_800  # 2020-01-01


def bars(seed, shock):
    """40 daily bars from a fixed LCG walk; `shock` maps a row to its (open, high, low, close)."""
    x, price, out = seed, 100.0, []
    for k in range(40):
        x = (6364136223846793005 * x + 1442695040888963407) % 2**64
        u = (x >> 11) / 2**53
        o = price
        c = round(o * (1 + (u - 0.5) * 0.03), 4)
        h, lo = round(max(o, c) * 1.006, 4), round(min(o, c) * 0.994, 4)
        row = shock.get(k, (o, h, lo, c))
        out.append(row)
        price = row[3]
    return out


A = bars(7, {30: (101.0, 101.5, 84.0, 86.0), 31: (86.0, 88.0, 85.0, 87.0)})
B = bars(11, {30: (99.0, 116.0, 98.5, 114.0), 31: (114.0, 115.0, 112.0, 113.0)})
# Re-anchor the shocked rows on the walk: row 30 opens where row 29 closed.
A[30] = (A[29][3], A[29][3] * 1.005, A[29][3] * 0.78, A[29][3] * 0.86)
B[30] = (B[29][3], B[29][3] * 1.22, B[29][3] * 0.995, B[29][3] * 1.14)
A = [tuple(round(v, 6) for v in r) for r in A]
B = [tuple(round(v, 6) for v in r) for r in B]

FUNDING = {
    "A": [[(T0 + k * DAY + 8 * 3600) * 1000, (0.0002 if k % 3 else -0.0001), (None if k % 2 else 100.5)] for k in range(40)],
    "B": [[(T0 + k * DAY) * 1000, 0.00015, None] for k in range(40)],
}
ORDERS = [  # row, symbol, target
    [0, "A", 2.0], [0, "B", -2.0],
    [6, "A", 2.5], [6, "B", -1.0],
    [12, "A", -2.0], [12, "B", 2.0],
    [18, "A", 0.0], [18, "B", 2.5],
    [24, "A", 2.5], [24, "B", -2.5],
    [34, "A", 1.0],
]
CONFIG = {"cash": 10_000.0, "fee_bps": 5.0, "leverage": 5.0, "mmr": 0.02, "liq_fee_bps": 20.0}


def simulate(margin):
    cash = CONFIG["cash"]
    rate, lev, mmr, liq = CONFIG["fee_bps"] / 1e4, CONFIG["leverage"], CONFIG["mmr"], CONFIG["liq_fee_bps"] / 1e4
    candles = {"A": A, "B": B}
    names = ["A", "B"]
    q = {s: 0.0 for s in names}
    trip = {s: None for s in names}  # {"side", "qty", "notional", "entry_row", "flows", "funding"}
    fills, trades, equity, cashes = [], [], [], []
    funding_paid, liquidations, stopped = 0.0, 0, None

    def affordable(c):
        return max(0.0, min(c / (1 + rate), c))

    def fill(s, r, side, qty, price, fee, kind=None):
        nonlocal cash
        notional = qty * price
        cash += (-notional - fee) if side == "buy" else (notional - fee)
        signed = qty if side == "buy" else -qty
        before = q[s]
        q[s] += signed
        fills.append({"row": r, "symbol": s, "side": side, "quantity": qty, "price": price, "fee": fee})
        t = trip[s]
        opening = before == 0 or (before > 0) == (signed > 0)
        if t is None:
            t = trip[s] = {"side": "long" if signed > 0 else "short", "qty": 0.0, "notional": 0.0, "entry_row": r, "flows": 0.0, "funding": 0.0}
        t["flows"] += (-notional - fee) if side == "buy" else (notional - fee)
        if opening:
            t["qty"] += qty
            t["notional"] += notional
        if abs(q[s]) <= t["qty"] * 1e-12:
            q[s] = 0.0
            trades.append({"symbol": s, "side": t["side"], "entry_row": t["entry_row"], "exit_row": r, "exit_kind": kind,
                           "pnl": t["flows"] - t["funding"], "funding": t["funding"]})
            trip[s] = None

    def entry(s):
        return trip[s]["notional"] / trip[s]["qty"]

    for r in range(40):
        if stopped is not None:
            equity.append(cash)
            cashes.append(cash)
            continue
        opens = {s: candles[s][r][0] for s in names}
        orders = [(s, w) for (row, s, w) in ORDERS if row == r]
        if orders:
            value = cash + sum(q[s] * opens[s] for s in names)
            keyed = sorted(((w * value - q[s] * opens[s], s, w) for s, w in orders), key=lambda x: (x[0], x[1]))
            for _, s, w in keyed:
                p = opens[s]
                if w == 0:
                    if q[s] != 0:
                        qty = abs(q[s])
                        fill(s, r, "sell" if q[s] > 0 else "buy", qty, p, rate * qty * p, "signal")
                    continue
                short = w < 0
                v = value
                if q[s] != 0 and (q[s] < 0) != short:
                    qty = abs(q[s])
                    fill(s, r, "sell" if q[s] > 0 else "buy", qty, p, rate * qty * p, "signal")
                    v = cash + sum(q[k] * opens[k] for k in names)
                sign = -1.0 if short else 1.0
                held = sign * q[s]
                delta = abs(w) * v / p - held
                budget = abs(w) * v - held * p
                if abs(delta) <= 1e-12:
                    continue
                if delta > 0:
                    eq = cash + sum(q[k] * (p if k == s else opens[k]) for k in names)
                    used = sum(abs(q[k]) * entry(k) / lev for k in names if q[k] != 0)
                    free = eq - used
                    cap = affordable(lev * free) if free > 0 else 0.0
                    limit = min(affordable(budget), cap)
                    if not (limit > 0 and eq > 0):
                        continue
                    qty = min(delta, limit / p)
                    fill(s, r, "sell" if short else "buy", qty, p, rate * qty * p)
                else:
                    qty = min(-delta, abs(q[s]))
                    fill(s, r, "buy" if short else "sell", qty, p, rate * qty * p, "rebalance")
        # Funding on the position after the open's fills.
        start, end = (T0 + r * DAY) * 1000, (T0 + (r + 1) * DAY) * 1000
        for s in names:
            if q[s] == 0:
                continue
            for t, fr, mark in FUNDING[s]:
                if start <= t < end:
                    if mark is None and r == 0:
                        continue  # no mark and no close before: nothing is paid
                    amount = q[s] * (mark if mark is not None else candles[s][r - 1][3]) * fr
                    cash -= amount
                    funding_paid += amount
                    trip[s]["funding"] += amount
        # Liquidation.
        held = [s for s in names if q[s] != 0]
        to_close = {}
        if margin == "isolated":
            for s in held:
                o, h, lo, _ = candles[s][r]
                e = entry(s)
                if q[s] > 0:
                    price = e * (1 - 1 / lev) / (1 - mmr)
                    hit = o if o < price else (price if lo < price else None)
                else:
                    price = e * (1 + 1 / lev) / (1 + mmr)
                    hit = o if o > price else (price if h > price else None)
                if hit is not None:
                    to_close[s] = hit
        elif len(held) == 1:
            s = held[0]
            o, h, lo, _ = candles[s][r]
            if q[s] > 0:
                price = -cash / (q[s] * (1 - mmr))
                hit = None if price <= 0 else (o if o < price else (price if lo < price else None))
            else:
                price = cash / (-q[s] * (1 + mmr))
                hit = o if o > price else (price if h > price else None)
            if hit is not None:
                to_close[s] = hit
        elif held:
            def path(s):
                o, h, lo, _ = candles[s][r]
                return o, (lo if q[s] > 0 else h)
            a = {s: q[s] - mmr * abs(q[s]) for s in held}
            f0 = cash + sum(a[s] * path(s)[0] for s in held)
            f1 = cash + sum(a[s] * path(s)[1] for s in held)
            lam = 0.0 if f0 < 0 else (f0 / (f0 - f1) if f1 < 0 else None)
            if lam is not None:
                for s in held:
                    o, x = path(s)
                    to_close[s] = o + lam * (x - o)
        for s, price in to_close.items():
            qty = abs(q[s])
            fill(s, r, "sell" if q[s] > 0 else "buy", qty, price, liq * qty * price, "liquidation")
            liquidations += 1
        if to_close:
            left = cash + sum(q[s] * candles[s][r][0] for s in names)
            if left <= 0:
                for s in names:
                    if q[s] != 0:
                        qty = abs(q[s])
                        p = candles[s][r][0]
                        fill(s, r, "sell" if q[s] > 0 else "buy", qty, p, liq * qty * p, "liquidation")
                        liquidations += 1
                stopped = r
        cashes.append(cash)
        equity.append(cash + sum(q[s] * candles[s][r][3] for s in names))
    for s in names:
        if trip[s] is not None:
            t = trip[s]
            trades.append({"symbol": s, "side": t["side"], "entry_row": t["entry_row"], "exit_row": 39, "exit_kind": "end",
                           "pnl": t["flows"] + q[s] * candles[s][39][3] - t["funding"], "funding": t["funding"]})
    return {"margin": margin, "equity": equity, "cash": cashes, "fills": fills, "trades": trades,
            "funding_paid": funding_paid, "liquidations": liquidations, "stopped_at": stopped}


def main():
    cases = [simulate("cross"), simulate("isolated")]
    for c in cases:
        kinds = [t["exit_kind"] for t in c["trades"]]
        sides = {t["side"] for t in c["trades"]}
        assert "liquidation" in kinds and sides == {"long", "short"}, (c["margin"], kinds)
    cross = cases[0]
    assert sum(1 for t in cross["trades"] if t["exit_kind"] == "liquidation" and t["exit_row"] == 30) == 2, cross["trades"]
    doc = {"generator": "Tests/Fixtures/portfolio/margin_reference.py", "time0": T0, "day": DAY,
           "bars": {"A": A, "B": B}, "funding": FUNDING, "orders": ORDERS, "config": CONFIG, "cases": cases}
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    for c in cases:
        print(c["margin"], "final equity", c["equity"][-1], "liquidations", c["liquidations"], "stopped", c["stopped_at"],
              [(t["symbol"], t["side"], t["exit_row"], t["exit_kind"]) for t in c["trades"]])


if __name__ == "__main__":
    main()
