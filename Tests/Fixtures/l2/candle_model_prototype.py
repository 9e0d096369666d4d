#!/usr/bin/env python3
"""Dev-only prototype of bt's candle-only cost model (no L2), and of today's synthetic model.

Usage: candle_model_prototype.py OUT_DIR GOOG_CSV [EURUSD_CSV] [--explore]
  OUT_DIR is what convert_ob_analytics.py wrote (candles.csv, truth.csv); GOOG_CSV is data/GOOG.csv.

Everything for a fill at bar t's open uses bars before t only (t-W .. t-1).

Spread estimators over the W bars before t (pairs (k-1, k) with both bars in the window):
  cs_clip_each  Corwin-Schultz (2012) per pair, each pair clipped at 0, then averaged (bt today,
                except that bt today also uses the fill bar itself)
  cs_clip_once  Corwin-Schultz per pair, signed average, clipped at 0 once
  cs_adj_clip_once  the same after Corwin-Schultz's overnight (open gap) adjustment of each pair
  ar            Abdi-Ranaldo (2017): S = sqrt(max(0, mean of 4 (c[k-1] - eta[k-1]) (c[k-1] - eta[k]))),
                c the log close, eta = (log H + log L) / 2
A tick floor (when a tick is known) makes the spread at least tick / open.

Cost of a market order of Q units at bar t (bps, positive = cost), see default_cost:
  q_touch = V * touch_seconds / bar_seconds; cost = s / 2 for Q <= q_touch, else
  cost = s / 2 + Y * sigma * (Q - q_touch)^1.5 / (Q * sqrt(V)) * 1e4  (-> s/2 + Y sigma sqrt(Q/V))
  sigma: standard deviation (n - 1) of the log close-to-close returns of the Wsig bars before t,
  V: mean volume of the Wv bars before t.
"""

import csv
import math
import sys

from l2lib import LADDER, quantile, read_candles, read_truth

K = 3 - 2 * math.sqrt(2)


def cs_pair(h0, l0, h1, l1):
    b = math.log(h0 / l0) ** 2 + math.log(h1 / l1) ** 2
    g = math.log(max(h0, h1) / min(l0, l1)) ** 2
    a = (math.sqrt(2 * b) - math.sqrt(b)) / K - math.sqrt(g / K)
    e = math.exp(a)
    return 2 * (e - 1) / (1 + e)


def cs_pair_adjusted(H, L, C, k):
    """Corwin-Schultz for the pair (k-1, k) after their overnight adjustment: when bar k's low is
    above bar k-1's close, bar k's high and low move down by the gap; when its high is below
    that close, they move up by the gap (Corwin and Schultz 2012, section 'overnight returns')."""
    h1, l1, c0 = H[k], L[k], C[k - 1]
    if l1 > c0:
        h1, l1 = h1 - (l1 - c0), c0
    elif h1 < c0:
        h1, l1 = c0, l1 + (c0 - h1)
    return cs_pair(H[k - 1], L[k - 1], h1, l1)


_MEMO = {}


def spread_estimate(method, H, L, C, t, w):
    """Spread fraction for a fill at bar t from bars max(0, t-w) .. t-1 (None with < 2 bars)."""
    key = (method, id(H), len(H), t, w)
    if key not in _MEMO:
        _MEMO[key] = _spread_estimate(method, H, L, C, t, w)
    return _MEMO[key]


def _spread_estimate(method, H, L, C, t, w):
    lo = max(0, t - w)
    if t - lo < 2:
        return None
    pairs = range(lo + 1, t)
    if method == "cs_clip_each":
        return sum(max(0.0, cs_pair(H[k - 1], L[k - 1], H[k], L[k])) for k in pairs) / len(pairs)
    if method == "cs_clip_once":
        return max(0.0, sum(cs_pair(H[k - 1], L[k - 1], H[k], L[k]) for k in pairs) / len(pairs))
    if method == "cs_adj_clip_once":
        return max(0.0, sum(cs_pair_adjusted(H, L, C, k) for k in pairs) / len(pairs))
    if method == "ar":
        acc = 0.0
        for k in pairs:
            c = math.log(C[k - 1])
            e0 = (math.log(H[k - 1]) + math.log(L[k - 1])) / 2
            e1 = (math.log(H[k]) + math.log(L[k])) / 2
            acc += 4 * (c - e0) * (c - e1)
        return math.sqrt(max(0.0, acc / len(pairs)))
    raise ValueError(method)


def sigma_volume(C, V, t, wsig, wv):
    lo = max(1, t - wsig)
    r = [math.log(C[k] / C[k - 1]) for k in range(lo, t)]
    if len(r) < 2:
        return None, None
    m = sum(r) / len(r)
    sig = math.sqrt(sum((x - m) ** 2 for x in r) / (len(r) - 1))
    vs = V[max(0, t - wv):t]
    return sig, (sum(vs) / len(vs) if vs else None)


def model_cost(q, half_bps, sig, vol, y):
    if vol is None or vol <= 0:
        return half_bps
    return half_bps + y * sig * math.sqrt(q / vol) * 1e4


def current_bt_cost(q, O, H, L, V, t, tick=None, side="buy"):
    """Today's bt synthetic book (SyntheticDepth.swift) for a market order of q at bar t's open:
    CS clipped per pair over the 20 pairs ending at t (bar t included), clamped to [1, 100] bps;
    20 levels one tick apart (1 bp of P without a tick); D = 0.2 V_t / (1 + range/0.01) per side,
    level k holding D * 2(k+1)/420. Returns (cost vs P in bps, filled share)."""
    p = O[t]
    sacc, pairs, k = 0.0, 0, t
    while k >= 1 and pairs < 20:
        s = cs_pair(H[k - 1], L[k - 1], H[k], L[k])
        if math.isfinite(s):
            sacc += max(0.0, s)
        pairs += 1
        k -= 1
    s = sacc / pairs if pairs else 0.0
    s = min(max(s, 1e-4), 1e-2)
    rng = (H[t] - L[t]) / p
    depth = 0.2 * V[t] / (1 + rng / 0.01)
    unit = depth * 2 / (20 * 21)
    levels = []
    for j in range(20):
        if tick:
            ask0 = max(math.ceil(p * (1 + s / 2) / tick - 1e-9), math.floor(p / tick + 1e-9) + 1)
            bid0 = min(math.floor(p * (1 - s / 2) / tick + 1e-9), math.ceil(p / tick - 1e-9) - 1)
            price = (ask0 + j) * tick if side == "buy" else (bid0 - j) * tick
        else:
            price = p * (1 + s / 2) + j * p * 1e-4 if side == "buy" else p * (1 - s / 2) - j * p * 1e-4
        levels.append((price, unit * (j + 1)))
    left, notional = q, 0.0
    for price, qty in levels:
        take = min(left, qty)
        notional += take * price
        left -= take
        if left <= 0:
            break
    filled = q - max(left, 0.0)
    if filled <= 0:
        return float("nan"), 0.0
    vwap = notional / filled
    cost = (vwap / p - 1) * 1e4 if side == "buy" else (1 - vwap / p) * 1e4
    return cost, filled / q


def load_goog(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return ([r[""] for r in rows], [float(r["Open"]) for r in rows], [float(r["High"]) for r in rows],
            [float(r["Low"]) for r in rows], [float(r["Close"]) for r in rows], [float(r["Volume"]) for r in rows])


def summarize(vals):
    v = [x for x in vals if x is not None and math.isfinite(x)]
    return "mean %.2f median %.2f p10 %.2f p90 %.2f (n %d)" % (
        sum(v) / len(v), quantile(v, 0.5), quantile(v, 0.1), quantile(v, 0.9), len(v))


DEFAULT = {"spread": "cs_adj_clip_once", "w_spread": 250, "w_sigma": 20, "w_volume": 20, "y": 0.3,
           "touch_seconds": 60.0}


def default_cost(q, t, O, H, L, C, V, tick, bar_seconds, p=DEFAULT):
    """The recommended candle-only cost (bps) of a market order of q units at bar t's open.

    s: spread estimate from bars before t, floored at tick / open when a tick is known.
    Touch: the first q_touch = V * touch_seconds / bar_seconds units fill at the half spread.
    Beyond it the book follows the square-root law: cost = s/2 + Y sigma (q - q_touch)^1.5 / (q sqrt V),
    which tends to s/2 + Y sigma sqrt(q / V) for q >> q_touch. Zero volume turns impact off."""
    s = spread_estimate(p["spread"], H, L, C, t, p["w_spread"]) if t >= 2 else 0.0
    s = s or 0.0
    if tick:
        s = max(s, tick / O[t])
    half = s / 2 * 1e4
    sig, vol = sigma_volume(C, V, t, p["w_sigma"], p["w_volume"])
    if sig is None or not vol or vol <= 0:
        return half
    q_touch = vol * p["touch_seconds"] / bar_seconds
    if q <= q_touch:
        return half
    return half + p["y"] * sig * (q - q_touch) ** 1.5 / (q * math.sqrt(vol)) * 1e4


def l2_ratios(candles, truth, p=DEFAULT, tick=1.0, min_bars=3):
    """Predicted / true cost per size and side on the bars with truth and >= min_bars bars before."""
    T = [c[0] for c in candles]
    O, H, L, C, V = ([c[i] for c in candles] for i in range(1, 6))
    out = {(s, sd): [] for s in LADDER for sd in ("buy", "sell")}
    preds = {s: [] for s in LADDER}
    for t in range(min_bars, len(candles)):
        if (T[t], "buy", LADDER[0]) not in truth:
            continue
        for size in LADDER:
            pred = default_cost(size, t, O, H, L, C, V, tick, 60, p)
            preds[size].append(pred)
            for sd in ("buy", "sell"):
                out[(size, sd)].append(pred / truth[(T[t], sd, size)])
    return out, preds


def goog_costs(goog, p=DEFAULT, tick=0.01, notional=10000.0):
    dates, O, H, L, C, V = goog
    return [default_cost(notional / O[t], t, O, H, L, C, V, tick, 86400, p) for t in range(1, len(C))]


def check_targets(candles, truth, goog, p):
    """(L2 worst median ratio max(r, 1/r) over sizes and sides, GOOG mean $10k cost, median, p90)."""
    ratios, _ = l2_ratios(candles, truth, p)
    worst = max(max(quantile(v, 0.5), 1 / quantile(v, 0.5)) for v in ratios.values())
    g = goog_costs(goog, p)
    return worst, sum(g) / len(g), quantile(g, 0.5), quantile(g, 0.9)


def main(argv):
    out, goog = argv[1], argv[2]
    explore = "--explore" in argv
    candles = read_candles(out + "/candles.csv")
    truth = read_truth(out + "/truth.csv")
    dates, O, H, L, C, V = load_goog(goog)
    n = len(C)

    print("## Spread estimators on GOOG daily (bps; fill at t uses bars before t)")
    for w in (20, 60, 250):
        for m in ("cs_clip_each", "cs_clip_once", "cs_adj_clip_once", "ar"):
            est = [spread_estimate(m, H, L, C, t, w) for t in range(w, n)]
            print("W=%3d %-13s %s" % (w, m, summarize([e * 1e4 for e in est])))
    whole = {m: spread_estimate(m, H, L, C, n, n) * 1e4 for m in ("cs_clip_each", "cs_clip_once", "cs_adj_clip_once", "ar")}
    print("whole sample: " + ", ".join("%s %.2f" % kv for kv in whole.items()))
    # today's bt spread on GOOG (includes the fill bar, clamp [1, 100] bps)
    bt_now = []
    for t in range(20, n):
        acc = sum(max(0.0, cs_pair(H[k - 1], L[k - 1], H[k], L[k])) for k in range(t - 19, t + 1)) / 20
        bt_now.append(min(max(acc, 1e-4), 1e-2) * 1e4)
    print("bt today (20 pairs ending at the fill bar, clamp [1,100]): %s" % summarize(bt_now))
    print("  slippage of a $10,000 buy at the open today (half spread + walk): %s" % summarize(
        [current_bt_cost(10000 / O[t], O, H, L, V, t, tick=0.01)[0] for t in range(20, n)]))

    print("\n## Spread estimators on the L2 sample's 1-minute bars (bps, tick floor off)")
    TT = [c[0] for c in candles]
    lo_, lh, ll, lc, lv = ([c[i] for c in candles] for i in range(1, 6))
    for w in (5, 10, 20, 30):
        for m in ("cs_clip_each", "cs_clip_once", "cs_adj_clip_once", "ar"):
            est = [spread_estimate(m, lh, ll, lc, t, w) for t in range(1, len(candles))]
            print("W=%2d %-13s %s" % (w, m, summarize([e * 1e4 for e in est if e is not None])))
    print("true spread at every bar open: 1 tick = %.3f bps" % (1 / 78380 * 1e4))

    print("\n## Today's synthetic model on the L2 sample (cost vs bar open, fill share), tick 1 and no tick")
    for tick in (1.0, None):
        rows = []
        for size in LADDER:
            costs, shares, trues = [], [], []
            for t in range(1, len(candles)):
                if (TT[t], "buy", size) not in truth:
                    continue
                for side in ("buy", "sell"):
                    c, sh = current_bt_cost(size, lo_, lh, ll, lv, t, tick=tick, side=side)
                    costs.append(c); shares.append(sh); trues.append(truth[(TT[t], side, size)])
            rows.append("%g: cost median %.2f bps, fill median %.0f%% (min %.0f%%), true median %.3f" % (
                size, quantile([c for c in costs if math.isfinite(c)], 0.5), 100 * quantile(shares, 0.5),
                100 * min(shares), quantile(trues, 0.5)))
        print("tick %s:\n  %s" % (tick, "\n  ".join(rows)))

    goog = (dates, O, H, L, C, V)
    print("\n## Recommended candle-only default: %s" % DEFAULT)
    ratios, preds = l2_ratios(candles, truth)
    print("L2 sample, 1-minute bars (tick 1): size | predicted median bps | true median buy/sell | "
          "median ratio buy/sell | share of (bar, side) within 3x")
    for size in LADDER:
        tb = quantile([truth[k] for k in truth if k[1] == "buy" and k[2] == size], 0.5)
        ts = quantile([truth[k] for k in truth if k[1] == "sell" and k[2] == size], 0.5)
        rb, rs = ratios[(size, "buy")], ratios[(size, "sell")]
        within = sum(1 for r in rb + rs if 1 / 3 <= r <= 3) / len(rb + rs)
        print("  %5g | %.3f | %.3f / %.3f | %.2f / %.2f | %.0f%% (n %d)" % (
            size, quantile(preds[size], 0.5), tb, ts, quantile(rb, 0.5), quantile(rs, 0.5), 100 * within, len(rb + rs)))
    for tick in (0.01, None):
        g = goog_costs(goog, tick=tick)
        print("GOOG daily, $10,000 order, tick %s: %s" % (tick, summarize(g)))
    for label, p in (("plain square-root law (no touch), Y=0.5", dict(DEFAULT, y=0.5, touch_seconds=0.0)),
                     ("plain square-root law (no touch), Y=1.0", dict(DEFAULT, y=1.0, touch_seconds=0.0))):
        ratios, preds = l2_ratios(candles, truth, p)
        print("%s: L2 median ratio per size (buy/sell): %s" % (label, " ".join(
            "%.1f/%.1f" % (quantile(ratios[(s_, "buy")], 0.5), quantile(ratios[(s_, "sell")], 0.5)) for s_ in LADDER)))
    if len(argv) > 3 and not argv[3].startswith("--"):
        with open(argv[3]) as f:
            rows = list(csv.DictReader(f))
        k = list(rows[0].keys())
        eh, el, ec = ([float(r[k[i]]) for r in rows] for i in (2, 3, 4))
        for m in ("cs_clip_each", "cs_clip_once", "cs_adj_clip_once", "ar"):
            est = [spread_estimate(m, eh, el, ec, t, 60) * 1e4 for t in range(60, len(ec))]
            print("EURUSD 1h spread, W=60 %-16s %s" % (m, summarize(est)))

    print("\n## Robustness: both targets (L2 median ratio within 3x for every size and side; GOOG mean <= 5 bps)")
    grid = []
    for y in (0.1, 0.2, 0.3, 0.5, 0.7, 1.0):
        for touch in (0.0, 15.0, 30.0, 60.0, 120.0):
            for ws in (20, 60, 250):
                for wsig, wv in ((10, 10), (20, 20), (60, 60)):
                    p = dict(DEFAULT, y=y, touch_seconds=touch, w_spread=ws, w_sigma=wsig, w_volume=wv)
                    worst, gmean, gmed, g90 = check_targets(candles, truth, goog, p)
                    grid.append((y, touch, ws, wsig, wv, worst, gmean, gmed, g90))
    ok = [g for g in grid if g[5] <= 3 and g[6] <= 5]
    print("%d of %d combinations meet both" % (len(ok), len(grid)))
    for y in (0.1, 0.2, 0.3, 0.5, 0.7, 1.0):
        row = []
        for touch in (0.0, 15.0, 30.0, 60.0, 120.0):
            sel = [g for g in grid if g[0] == y and g[1] == touch]
            row.append("%d/%d (worst %.1f-%.1f)" % (sum(1 for g in sel if g[5] <= 3 and g[6] <= 5), len(sel),
                                                   min(g[5] for g in sel), max(g[5] for g in sel)))
        print("  Y=%.1f  touch 0/15/30/60/120 s: %s" % (y, " | ".join(row)))
    for ws in (20, 60, 250):
        sel = [g for g in grid if g[2] == ws]
        print("  spread window %3d: GOOG $10k mean %.2f-%.2f bps, median %.2f-%.2f, p90 %.2f-%.2f" % (
            ws, min(g[6] for g in sel), max(g[6] for g in sel), min(g[7] for g in sel), max(g[7] for g in sel),
            min(g[8] for g in sel), max(g[8] for g in sel)))
    if explore:
        for g in grid:
            print("  Y=%.1f touch=%3g Ws=%3d Wsig=%2d Wv=%2d worst L2 ratio %.2f GOOG mean %.2f median %.2f p90 %.2f" % g)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
