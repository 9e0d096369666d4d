#!/usr/bin/env python3
"""Dev-only prototype of the candle-only spread with the volume relation (bt's default spread).

Usage: spread_relation_prototype.py [--stocks DIR] [--l2 DIR] [--explore]
  --stocks DIR: AAPL.csv, GOOG.csv, IBM.csv, MSFT.csv from Tests/Fixtures/costs/fetch_stocks.sh
               (real daily bars 2000-2013, public domain, fetched at test time, never committed)
  --l2 DIR:    what Tests/Fixtures/l2/convert_ob_analytics.py wrote (candles.csv, truth.csv)
Always reads the shipped data/GOOG.csv and data/EURUSD.csv. Needs numpy.

For a fill at bar t (everything from bars before t):
  bars      m, se: signed mean of the Corwin-Schultz pairs (overnight-adjusted) of the W = 250
            bars before t, and its standard error sd(n-1) / sqrt(n)
  relation  r = 8 (sigma^2 / D)^(1/3): sigma the standard deviation (n-1) of the log close returns
            and D the mean close x volume of the 20 bars before t (Kyle and Obizhaeva 2016;
            Fong, Holden and Tobek 2018: c = 8.0 for the effective spread)
  spread    m >= r: r (bounded); else w max(0, m) + (1 - w) r, w = tau^2 / (tau^2 + se^2),
            tau = k r (k = 1); no relation: max(0, m); then at least tick / open
  cost      of Q units: s/2, plus Y sigma (Q - q_touch)^1.5 / (Q sqrt V) beyond the touch
            q_touch = V * 60 / bar seconds (Y = 0.3; V the mean volume of the 20 bars before t)
The 'before' rule is max(0, m) floored at the tick (bt before the relation).
"""

import csv
import math
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/l2")
from l2lib import LADDER, read_candles, read_truth  # noqa: E402

K = 3 - 2 * math.sqrt(2)
COEFFICIENT = 8.0


def cs_pair(h0, l0, h1, l1):
    b = math.log(h0 / l0) ** 2 + math.log(h1 / l1) ** 2
    g = math.log(max(h0, h1) / min(l0, l1)) ** 2
    a = (math.sqrt(2 * b) - math.sqrt(b)) / K - math.sqrt(g / K)
    e = math.exp(a)
    return 2 * (e - 1) / (1 + e)


def cs_adjusted(H, L, C, k):
    h1, l1, c0 = H[k], L[k], C[k - 1]
    if l1 > c0:
        h1, l1 = h1 - (l1 - c0), c0
    elif h1 < c0:
        h1, l1 = c0, l1 + (c0 - h1)
    return cs_pair(H[k - 1], L[k - 1], h1, l1)


def read_csv(path, date_key):
    """(dates, open, high, low, close, volume) of a pandas-style or a date,open,... CSV."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    keys = [k for k in rows[0] if k != date_key]
    cols = {k.lower(): np.array([float(r[k]) for r in rows]) for k in keys}
    return [r[date_key] for r in rows], cols["open"], cols["high"], cols["low"], cols["close"], cols["volume"]


class Series:
    def __init__(self, name, dates, O, H, L, C, V, tick, bar_seconds, ws=250, wv=20):
        self.name, self.dates, self.O, self.H, self.L, self.C, self.V = name, dates, O, H, L, C, V
        self.tick, self.bar_seconds, self.ws, self.wv = tick, bar_seconds, ws, wv
        self.pairs = np.array([np.nan] + [cs_adjusted(H, L, C, k) for k in range(1, len(O))])
        self.returns = np.r_[np.nan, np.log(C[1:] / C[:-1])]

    def estimates(self, t, ws=None, wv=None):
        ws, wv = ws or self.ws, wv or self.wv
        lo = max(0, t - ws)
        bars = None
        if t - lo >= 2:
            p = self.pairs[lo + 1:t]
            se = p.std(ddof=1) / math.sqrt(len(p)) if len(p) >= 2 else math.inf
            bars = (p.sum() / len(p), se)
        r = self.returns[max(1, t - wv):t]
        sigma = r.std(ddof=1) if len(r) >= 2 else None
        lo = max(0, t - wv)
        volume = self.V[lo:t].mean() if t > lo else None
        dollars = (self.C[lo:t] * self.V[lo:t]).mean() if t > lo else None
        return bars, sigma, volume, dollars


def combine(bars, relation, floor, k=1.0, bound=True):
    """(spread, standard error, source, bars' weight) as SpreadEstimate in Swift."""
    if bars is not None and relation is not None and bars[0] >= relation and bound:
        s, se, w = relation, relation, 0.0
    elif bars is not None and relation is not None:
        tau2, e2 = (k * relation) ** 2, bars[1] ** 2
        w = 1.0 if e2 == 0 else (tau2 / (tau2 + e2) if math.isfinite(e2) else 0.0)
        s = w * max(0.0, bars[0]) + (1 - w) * relation
        se = 0.0 if e2 == 0 else (math.sqrt(tau2 * e2 / (tau2 + e2)) if math.isfinite(e2) else relation)
    elif bars is not None:
        s, se, w = max(0.0, bars[0]), bars[1], 1.0
    elif relation is not None:
        s, se, w = relation, relation, 0.0
    else:
        s, se, w = 0.0, math.inf, 0.0
    if floor > s:
        return floor, se, "tick", w
    return s, se, ("bars" if w >= 0.5 else "relation"), w


def spread(series, t, rule="after", k=1.0, ws=None, wv=None):
    bars, sigma, volume, dollars = series.estimates(t, ws, wv)
    floor = series.tick / series.O[t] if series.tick else 0.0
    relation = None
    if rule == "after" and sigma is not None and dollars and dollars > 0:
        relation = COEFFICIENT * (sigma * sigma / dollars) ** (1 / 3)
    return combine(bars, relation, floor, k), sigma, volume


def cost_bps(s, sigma, volume, q, bar_seconds, y=0.3, touch_seconds=60.0):
    half = s / 2
    if sigma is None or not volume or volume <= 0:
        return half * 1e4
    q_touch = volume * touch_seconds / bar_seconds
    if q <= q_touch:
        return half * 1e4
    return (half + y * sigma * (q - q_touch) ** 1.5 / (q * math.sqrt(volume))) * 1e4


def every_bar(series, notional=1e4, **kw):
    """$notional buy at every bar's open from bar 1: costs (bps) and the estimates."""
    costs, ests = [], []
    for t in range(1, len(series.O)):
        (s, se, src, w), sigma, volume = spread(series, t, **kw)
        costs.append(cost_bps(s, sigma, volume, notional / series.O[t], series.bar_seconds))
        ests.append((s, se, src, w))
    return np.array(costs), ests


def summary(costs):
    return "mean %.2f median %.2f p90 %.2f" % (costs.mean(), np.median(costs), np.quantile(costs, 0.9))


def l2_ratios(directory, **kw):
    c = read_candles(directory + "/candles.csv")
    truth = read_truth(directory + "/truth.csv")
    O, H, L, C, V = (np.array([x[i] for x in c]) for i in range(1, 6))
    s_ = Series("BTCUSD", [x[0] for x in c], O, H, L, C, V, 1.0, 60)
    out = {}
    for size in LADDER:
        buy, sell = [], []
        for t in range(3, len(c)):
            if (c[t][0], "buy", LADDER[0]) not in truth:
                continue
            (s, _, _, _), sigma, volume = spread(s_, t, **kw)
            pred = cost_bps(s, sigma, volume, size, 60)
            buy.append(pred / truth[(c[t][0], "buy", size)])
            sell.append(pred / truth[(c[t][0], "sell", size)])
        out[size] = (np.median(buy), np.median(sell), len(buy))
    return out


def main(argv):
    stocks = argv[argv.index("--stocks") + 1] if "--stocks" in argv else None
    l2 = argv[argv.index("--l2") + 1] if "--l2" in argv else None
    series = [Series("GOOG", *read_csv("data/GOOG.csv", ""), 0.01, 86400)]
    if stocks:
        for tk in ("MSFT", "AAPL", "IBM", "GOOG"):
            series.append(Series(tk + ("(WIKI)" if tk == "GOOG" else ""), *read_csv(f"{stocks}/{tk}.csv", "date"), 0.01, 86400))
    eurusd = Series("EURUSD", *read_csv("data/EURUSD.csv", ""), 1e-5, 3600)

    print("$10,000 buy at every bar's open, cost in bps (before: Corwin-Schultz alone; after: with the relation)")
    for s in series + [eurusd]:
        before, _ = every_bar(s, rule="before")
        after, ests = every_bar(s)
        src = {k: sum(1 for e in ests if e[2] == k) for k in ("relation", "bars", "tick")}
        spreads = np.array([e[0] for e in ests]) * 1e4
        ses = np.array([e[1] for e in ests if math.isfinite(e[1])]) * 1e4
        print(f"  {s.name:10s} before {summary(before)} | after {summary(after)} | "
              f"spread median {np.median(spreads):.2f} bps, s.e. {np.median(ses):.2f}; sources {src}")

    goog = series[0]
    print("\nGOOG anchors (t, bars mean bps, bars s.e. bps, relation bps, spread bps, $10k tick 0.01, $1M tick 0.01, D):")
    for t in (3, 20, 250, 1000, 2147):
        bars, sigma, volume, dollars = goog.estimates(t)
        (s, se, src, w), _, _ = spread(goog, t)
        rel = COEFFICIENT * (sigma * sigma / dollars) ** (1 / 3)
        vals = [bars[0] * 1e4, bars[1] * 1e4, rel * 1e4, s * 1e4, cost_bps(s, sigma, volume, 1e4 / goog.O[t], 86400),
                cost_bps(s, sigma, volume, 1e6 / goog.O[t], 86400), float(dollars)]
        print(f"  ({t}, " + ", ".join(repr(float(v)) for v in vals) + f"),  # {src}, weight {w:.4f}")
    after, _ = every_bar(goog)
    print(f"  GOOG every bar from bar 1: mean {float(after.mean())!r} median {float(np.quantile(after, 0.5))!r} "
          f"p90 {float(np.quantile(after, 0.9))!r}")

    if l2:
        print("\nL2 sample, candle-only default: median predicted/true, buy / sell (27 bars)")
        for name, kw in (("before", dict(rule="before")), ("after", {})):
            r = l2_ratios(l2, **kw)
            print(f"  {name:6s} " + " ".join(f"{r[q][0]:.4f}/{r[q][1]:.4f}" for q in LADDER))

    if "--explore" in argv:
        print("\nRobustness: mean $10k cost (bps) by prior width k (tau = k r) and windows")
        for k in (0.5, 1.0, 2.0, 1e9):
            for ws, wv in ((250, 20), (60, 20), (250, 60)):
                line = f"  k {k:g} W {ws} W_sigma,D {wv}:"
                for s in series + [eurusd]:
                    c, _ = every_bar(s, k=k, ws=ws, wv=wv)
                    line += f" {s.name} {c.mean():.2f}"
                if l2:
                    r = l2_ratios(l2, k=k, ws=ws, wv=wv)
                    worst = max(max(v[0], 1 / v[0], v[1], 1 / v[1]) for v in r.values())
                    line += f" | L2 worst ratio {worst:.2f}"
                print(line)
        print("\nBy year (stocks): mean $10k cost before / after (bps), median bars' mean and relation (bps)")
        for s in series[1:]:
            before, _ = every_bar(s, rule="before")
            after, ests = every_bar(s)
            line = f"  {s.name:10s}"
            for year in sorted({d[:4] for d in s.dates}):
                idx = [t - 1 for t in range(3, len(s.O)) if s.dates[t].startswith(year)]
                bars, rel = [], []
                for t in idx[::5]:
                    b, sigma, _, dollars = s.estimates(t + 1)
                    bars.append(b[0] * 1e4)
                    rel.append(COEFFICIENT * (sigma * sigma / dollars) ** (1 / 3) * 1e4)
                line += f" {year}: {before[idx].mean():.1f}/{after[idx].mean():.1f} ({np.median(bars):.0f}/{np.median(rel):.1f})"
            print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
