"""Shared helpers for the dev-only L2 prototypes (calibrate_prototype.py, candle_model_prototype.py).

Reads what convert_ob_analytics.py wrote (bt's book and trades JSON lines, candles.csv,
truth.csv), replays the book at millisecond precision, and computes costs. Standard library only
here; the prototypes may use numpy.
"""

import bisect
import calendar
import csv
import json
import math
import time

LADDER = [0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0]


def parse_time_ms(s):
    """ISO-8601 UTC with optional milliseconds ('2026-05-02T02:36:20.521Z') to epoch ms."""
    s = s.rstrip("Z")
    frac = 0
    if "." in s:
        s, f = s.split(".")
        frac = int((f + "000")[:3])
    return calendar.timegm(time.strptime(s, "%Y-%m-%dT%H:%M:%S")) * 1000 + frac


def iso(ms):
    s, frac = divmod(int(ms), 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(s)) + (".%03dZ" % frac if frac else "Z")


def read_book(path):
    """[(time_ms, kind, bids, asks)] with [(price, qty)] lists."""
    out = []
    with open(path) as f:
        for line in f:
            e = json.loads(line)
            out.append((parse_time_ms(e["time"]), e["type"],
                        [(float(p), float(q)) for p, q in e["bids"]],
                        [(float(p), float(q)) for p, q in e["asks"]]))
    return out


def read_trades(path):
    with open(path) as f:
        return [dict(json.loads(line), t=parse_time_ms(json.loads(line)["time"])) for line in f]


def read_candles(path):
    """[(open_time_ms, open, high, low, close, volume)]."""
    with open(path) as f:
        return [(parse_time_ms(r["time"]), float(r["open"]), float(r["high"]), float(r["low"]),
                 float(r["close"]), float(r["volume"])) for r in csv.DictReader(f)]


def read_truth(path):
    """{(time_ms, side, size): cost_bps}."""
    with open(path) as f:
        return {(parse_time_ms(r["time"]), r["side"], float(r["size"])): float(r["cost_bps"])
                for r in csv.DictReader(f)}


class Replay:
    """The price-level book; apply events in order."""

    def __init__(self):
        self.q = {"bid": {}, "ask": {}}
        self.p = {"bid": [], "ask": []}  # ascending prices

    def _set(self, side, price, qty):
        lv, ps = self.q[side], self.p[side]
        if qty <= 0:
            if lv.pop(price, None) is not None:
                del ps[bisect.bisect_left(ps, price)]
        else:
            if price not in lv:
                bisect.insort(ps, price)
            lv[price] = qty

    def apply(self, event):
        _, kind, bids, asks = event
        if kind == "snapshot":
            self.q = {"bid": {}, "ask": {}}
            self.p = {"bid": [], "ask": []}
        for p, q in bids:
            self._set("bid", p, q)
        for p, q in asks:
            self._set("ask", p, q)

    def best_bid(self):
        return self.p["bid"][-1] if self.p["bid"] else None

    def best_ask(self):
        return self.p["ask"][0] if self.p["ask"] else None

    def mid(self):
        return (self.best_bid() + self.best_ask()) / 2

    def side_levels(self, side, max_bps=None):
        """[(distance_bps_from_mid, price, qty)] best first, optionally within max_bps of mid."""
        mid = self.mid()
        out = []
        if side == "ask":
            for p in self.p["ask"]:
                d = (p / mid - 1) * 1e4
                if max_bps is not None and d > max_bps:
                    break
                out.append((d, p, self.q["ask"][p]))
        else:
            for p in reversed(self.p["bid"]):
                d = (1 - p / mid) * 1e4
                if max_bps is not None and d > max_bps:
                    break
                out.append((d, p, self.q["bid"][p]))
        return out

    def cost(self, order_side, size):
        """Cost in bps vs mid of a market order walking the book (None when the side runs out)."""
        mid = self.mid()
        book_side = "ask" if order_side == "buy" else "bid"
        prices = self.p[book_side] if book_side == "ask" else reversed(self.p[book_side])
        left, notional = size, 0.0
        for p in prices:
            take = min(left, self.q[book_side][p])
            notional += take * p
            left -= take
            if left <= 1e-12:
                break
        if left > 1e-9:
            return None
        vwap = notional / size
        return (vwap / mid - 1) * 1e4 if order_side == "buy" else (1 - vwap / mid) * 1e4


def quantile(values, q):
    """Linear interpolation between order statistics (numpy's default, Hyndman-Fan type 7)."""
    v = sorted(values)
    if not v:
        return float("nan")
    h = (len(v) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (h - lo) * (v[hi] - v[lo])


def weighted_quantile(pairs, q):
    """Smallest value whose cumulative weight reaches q of the total: [(value, weight)]."""
    pairs = sorted(pairs)
    total = sum(w for _, w in pairs)
    acc = 0.0
    for v, w in pairs:
        acc += w
        if acc >= q * total - 1e-9 * total:
            return v
    return pairs[-1][0]


def spearman(x, y):
    """Spearman rank correlation with average ranks for ties."""
    def ranks(a):
        order = sorted(range(len(a)), key=lambda i: a[i])
        r = [0.0] * len(a)
        i = 0
        while i < len(a):
            j = i
            while j + 1 < len(a) and a[order[j + 1]] == a[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return r
    rx, ry = ranks(x), ranks(y)
    n = len(x)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")
