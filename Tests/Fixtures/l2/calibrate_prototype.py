#!/usr/bin/env python3
"""Dev-only prototype of `bt calibrate` on the converted L2 sample (numpy allowed; not run by CI).

Usage: calibrate_prototype.py OUT_DIR [--explore] [--json FILE]
  OUT_DIR is what convert_ob_analytics.py wrote (book.jsonl, trades.jsonl, candles.csv, truth.csv).

Computes, on the first half of the book's time range (the calibration window), exactly the
quantities of docs/design/execution-model-research.md ("Calibration algorithm"):
  tick, spread (time-weighted median and p90), per side the power law Q(x) = A x^b of cumulative
  depth within x bps of mid, rank correlation of depth with bar volume and depth per unit of
  median bar volume, refill half-life after taker orders; then the held-out test on the 1-minute
  bars of the second half against the true costs in truth.csv.
--explore also prints the alternatives that were compared (mean vs median profile, per-sample
fits, fit ranges, dense evaluation every second, refill definitions, the seconds-flooring error).
"""

import json
import math
import sys

import numpy as np

from l2lib import (LADDER, Replay, iso, quantile, read_book, read_candles, read_trades, read_truth,
                   spearman, weighted_quantile)

FIT_GRID = [50.0 ** (k / 24) for k in range(25)]  # 1 .. 50 bps, log-spaced
SAMPLE_MS = 1000
BAND_BPS = 100.0  # levels kept per sample (enough for 10 BTC on this sample)
REFILL_BAND_BPS = 5.0
REFILL_MIN_DEFICIT = 0.05  # BTC; smaller sweeps are noise
REFILL_TAUS_MS = [50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000, 20000, 30000, 60000]


def depth_at(levels, grid):
    """Cumulative quantity within each x of grid; levels [(dist_bps, price, qty)] best first."""
    out, acc, i = [], 0.0, 0
    for x in grid:
        while i < len(levels) and levels[i][0] <= x:
            acc += levels[i][2]
            i += 1
        out.append(acc)
    return out


def fit_power_law(grid, q):
    """OLS of log q on log x; returns (A, b). Points with q <= 0 are skipped."""
    xs = [math.log(x) for x, v in zip(grid, q) if v > 0]
    ys = [math.log(v) for v in q if v > 0]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((a - mx) ** 2 for a in xs)
    sxy = sum((a - mx) * (b - my) for a, b in zip(xs, ys))
    b = sxy / sxx
    return math.exp(my - b * mx), b


def model_cost(size, a, b, half):
    """Cost in bps of walking Q(x) = a x^b from mid, with the depth inside the half spread resting
    at the touch (a point mass a * half^b at distance half)."""
    touch = a * half ** b
    if size <= touch:
        return half
    xs = (size / a) ** (1 / b)
    return (half * touch + a * b / (b + 1) * (xs ** (b + 1) - half ** (b + 1))) / size


def replay_samples(events, t0, t1, trades_by_ms=None):
    """Replays the book; returns samples every SAMPLE_MS in [t0, t1] and spread state durations.

    A sample at time t is the book after every event with time <= t. Spread durations: each book
    state (after an event) lasts until the next event, clipped to [t0, t1)."""
    book = Replay()
    samples, spread_states = [], []
    k = 0
    t = t0
    n = len(events)
    for i, e in enumerate(events):
        # samples strictly before this event's time see the book so far
        while t <= t1 and t < e[0]:
            if i > 0:
                samples.append(sample(book, t))
            t += SAMPLE_MS
        book.apply(e)
        start = max(e[0], t0)
        end = min(events[i + 1][0] if i + 1 < n else t1, t1)
        if end > start:
            spread_states.append(((book.best_ask() - book.best_bid()) / book.mid() * 1e4, end - start))
    while t <= t1:
        samples.append(sample(book, t))
        t += SAMPLE_MS
    return samples, spread_states


def sample(book, t):
    return {"t": t, "mid": book.mid(), "bid": book.best_bid(), "ask": book.best_ask(),
            "bids": book.side_levels("bid", BAND_BPS), "asks": book.side_levels("ask", BAND_BPS)}


def walk_levels(levels, size):
    """Cost in bps from a sample's side levels [(dist_bps, price, qty)]."""
    left, acc = size, 0.0
    for d, _, q in levels:
        take = min(left, q)
        acc += take * d
        left -= take
        if left <= 1e-12:
            return acc / size
    return None


def tick_of(samples):
    """Most common gap between adjacent levels within 10 bps of mid (both sides, all samples),
    gaps rounded to 9 significant digits; ties to the smaller gap."""
    counts = {}
    for s in samples:
        for side in ("bids", "asks"):
            lv = [x for x in s[side] if x[0] <= 10]
            for a, b in zip(lv, lv[1:]):
                g = float("%.9g" % abs(b[1] - a[1]))
                counts[g] = counts.get(g, 0) + 1
    return min(counts, key=lambda g: (-counts[g], g))


def refill_band(events, trades, t0, t1, band=REFILL_BAND_BPS, min_deficit=REFILL_MIN_DEFICIT, relative_to="pre"):
    """Refill after taker sweeps (trades grouped by exchange millisecond and taker side).

    For a sweep at time u hitting side S (asks for a buy): D(t) = quantity on S within `band` bps of
    the mid, where the mid is the pre-trade mid m0 ("pre") or the mid at t ("current").
    D_pre = D just before u (events < u), D_post = D just after u (events <= u),
    deficit = D_pre - D_post; sweeps with deficit >= min_deficit count. Recovery at lag tau:
    R(tau) = (D(u + tau) - D_post) / deficit. The half-life is the first tau (linear interpolation on
    REFILL_TAUS_MS) where the median of R(tau) over sweeps reaches 0.5; sweeps whose u + tau is
    past t1 are left out at that tau."""
    sweeps = {}
    for tr in trades:
        if t0 <= tr["t"] <= t1:
            key = (tr["t"], tr["side"])
            sweeps[key] = sweeps.get(key, 0.0) + tr["qty"]
    probes = []  # (time, kind, sweep index): kind 'pre' at u-1, 'post' at u, lag k at u+tau
    keys = sorted(sweeps)
    for j, (u, side) in enumerate(keys):
        probes.append((u - 1, "pre", j))
        probes.append((u, "post", j))
        for k, tau in enumerate(REFILL_TAUS_MS):
            if u + tau <= t1:
                probes.append((u + tau, k, j))
    probes.sort(key=lambda p: p[0])
    book = Replay()
    values = {}
    mids = {}
    i = 0
    for tp, kind, j in probes:
        while i < len(events) and events[i][0] <= tp:
            book.apply(events[i])
            i += 1
        side = "ask" if keys[j][1] == "buy" else "bid"
        if kind == "pre":
            mids[j] = book.mid()
        m0 = mids[j] if relative_to == "pre" else book.mid()
        levels = book.p[side] if side == "ask" else list(reversed(book.p[side]))
        d = 0.0
        for p in levels:
            dist = (p / m0 - 1) * 1e4 if side == "ask" else (1 - p / m0) * 1e4
            if dist > band:
                break
            if dist >= 0:
                d += book.q[side][p]
        values[(j, kind)] = d
    per_tau = [[] for _ in REFILL_TAUS_MS]
    used = 0
    for j in range(len(keys)):
        deficit = values[(j, "pre")] - values[(j, "post")]
        if deficit < min_deficit:
            continue
        used += 1
        for k in range(len(REFILL_TAUS_MS)):
            if (j, k) in values:
                per_tau[k].append((values[(j, k)] - values[(j, "post")]) / deficit)
    med = [quantile(v, 0.5) if v else float("nan") for v in per_tau]
    half = float("nan")
    prev_tau, prev_r = 0, 0.0
    for tau, r in zip(REFILL_TAUS_MS, med):
        if r >= 0.5:
            half = prev_tau + (0.5 - prev_r) / (r - prev_r) * (tau - prev_tau)
            break
        prev_tau, prev_r = tau, r
    return {"sweeps": len(keys), "used": used, "median_recovery": med, "half_life_ms": half}


def sweeps_of(trades, t0, t1):
    """Taker sweeps: trades grouped by (exchange millisecond, taker side), times in [t0, t1]."""
    out = {}
    for tr in trades:
        if t0 <= tr["t"] <= t1:
            key = (tr["t"], tr["side"])
            out[key] = out.get(key, 0.0) + tr["qty"]
    return sorted(out)


def half_life(taus, med):
    """First tau where the median recovery reaches 0.5, linear between grid points from R(0) = 0."""
    prev_tau, prev_r = 0, 0.0
    for tau, r in zip(taus, med):
        if r == r and r >= 0.5:
            return prev_tau + (0.5 - prev_r) / (r - prev_r) * (tau - prev_tau)
        if r == r:
            prev_tau, prev_r = tau, r
    return float("nan")


def refill(events, trades, t0, t1, q_ref, min_jump_bps, taus=REFILL_TAUS_MS):
    """Refill half-life after taker orders, from the cost of a reference market order.

    C(t): cost in bps (vs the mid at t) of a market order of q_ref walking the side a sweep hit
    (asks after a taker buy), with the book as of t (events at or before t). For each sweep at u:
    C_pre = C(u - 1 ms), C_post = C(u), jump = C_post - C_pre; sweeps with jump >= min_jump_bps
    count. Recovery R(tau) = (C_post - C(u + tau)) / jump, only where u + tau <= t1. The half-life is
    where the median R over the counted sweeps first reaches 0.5 (half_life)."""
    keys = sweeps_of(trades, t0, t1)
    probes = []
    for j, (u, side) in enumerate(keys):
        probes.append((u - 1, "pre", j))
        probes.append((u, "post", j))
        for k, tau in enumerate(taus):
            if u + tau <= t1:
                probes.append((u + tau, k, j))
    probes.sort(key=lambda x: x[0])
    book, i, val = Replay(), 0, {}
    for tp, kind, j in probes:
        while i < len(events) and events[i][0] <= tp:
            book.apply(events[i])
            i += 1
        val[(j, kind)] = book.cost(keys[j][1], q_ref)
    per_tau = [[] for _ in taus]
    used = 0
    for j in range(len(keys)):
        pre, post = val[(j, "pre")], val[(j, "post")]
        if pre is None or post is None or post - pre < min_jump_bps:
            continue
        used += 1
        for k in range(len(taus)):
            c = val.get((j, k))
            if c is not None:
                per_tau[k].append((post - c) / (post - pre))
    med = [quantile(v, 0.5) if v else float("nan") for v in per_tau]
    return {"sweeps": len(keys), "used": used, "q_ref": q_ref, "min_jump_bps": min_jump_bps,
            "taus_ms": taus, "median_recovery": med, "half_life_ms": half_life(taus, med)}


def calibrate(events, trades, candles, t0, t1, fit="median"):
    samples, spread_states = replay_samples(events, t0, t1)
    spread = weighted_quantile(spread_states, 0.5)
    spread_p90 = weighted_quantile(spread_states, 0.9)
    profile = {}
    for side in ("bid", "ask"):
        curves = [depth_at(s[side + "s"], FIT_GRID) for s in samples]
        if fit == "median":
            q = [quantile([c[k] for c in curves], 0.5) for k in range(len(FIT_GRID))]
        else:
            q = [sum(c[k] for c in curves) / len(curves) for k in range(len(FIT_GRID))]
        profile[side] = fit_power_law(FIT_GRID, q)
    # Depth against bar volume: bars whose open is in [t0, t1); depth = mean over the bar's samples
    # of (Q_bid(10) + Q_ask(10)) / 2.
    bars = [c for c in candles if t0 <= c[0] < t1]
    depth10, vols = [], []
    for c in bars:
        ss = [s for s in samples if c[0] <= s["t"] < c[0] + 60000]
        if not ss:
            continue
        d = [(depth_at(s["bids"], [10])[0] + depth_at(s["asks"], [10])[0]) / 2 for s in ss]
        depth10.append(sum(d) / len(d))
        vols.append(c[5])
    rho = spearman(depth10, vols)
    median_volume = quantile([c[5] for c in bars], 0.5)
    a_min = min(profile["bid"][0], profile["ask"][0])
    mid0 = samples[0]["mid"]
    tick = tick_of(samples)
    rf = refill(events, trades, t0, t1, q_ref=a_min, min_jump_bps=tick / mid0 * 1e4 / 2)
    return {
        "tick": tick,
        "spread_bps": spread, "spread_p90_bps": spread_p90,
        "bid": {"a": profile["bid"][0], "b": profile["bid"][1]},
        "ask": {"a": profile["ask"][0], "b": profile["ask"][1]},
        "volume_rank_correlation": rho,
        "median_bar_volume": median_volume,
        "depth_per_median_volume": {"bid": profile["bid"][0] / median_volume, "ask": profile["ask"][0] / median_volume},
        "refill_half_life_seconds": rf["half_life_ms"] / 1000,
        "refill": rf,
        "samples": len(samples),
        "bars": len(bars),
    }


def holdout(profile, truth, t_split, sizes=LADDER):
    """Median and p90 absolute error per size over the bars with open >= t_split, both sides pooled."""
    half = profile["spread_bps"] / 2
    rows = {"sizes": sizes, "median_abs_error_bps": [], "p90_abs_error_bps": [], "n": [],
            "predicted_bps": {"buy": [], "sell": []}, "true_median_bps": {"buy": [], "sell": []}}
    for size in sizes:
        errs = []
        for side, book_side in (("buy", "ask"), ("sell", "bid")):
            pred = model_cost(size, profile[book_side]["a"], profile[book_side]["b"], half)
            true = [c for (t, sd, sz), c in truth.items() if t >= t_split and sd == side and sz == size]
            errs += [abs(pred - c) for c in true]
            rows["predicted_bps"][side].append(pred)
            rows["true_median_bps"][side].append(quantile(true, 0.5))
        rows["median_abs_error_bps"].append(quantile(errs, 0.5))
        rows["p90_abs_error_bps"].append(quantile(errs, 0.9))
        rows["n"].append(len(errs))
    return rows


def table(rows):
    out = ["| size (BTC) | " + " | ".join("%g" % s for s in rows["sizes"]) + " |",
           "|---|" + "---|" * len(rows["sizes"])]
    for side in ("buy", "sell"):
        out.append("| predicted %s | " % side + " | ".join("%.3f" % v for v in rows["predicted_bps"][side]) + " |")
        out.append("| true median %s | " % side + " | ".join("%.3f" % v for v in rows["true_median_bps"][side]) + " |")
    out.append("| median abs error | " + " | ".join("%.3f" % v for v in rows["median_abs_error_bps"]) + " |")
    out.append("| p90 abs error | " + " | ".join("%.3f" % v for v in rows["p90_abs_error_bps"]) + " |")
    return "\n".join(out)


def main(argv):
    out = argv[1]
    explore = "--explore" in argv
    events = read_book(out + "/book.jsonl")
    trades = read_trades(out + "/trades.jsonl")
    candles = read_candles(out + "/candles.csv")
    truth = read_truth(out + "/truth.csv")
    t_first, t_last = events[0][0], events[-1][0]
    t_split = t_first + (t_last - t_first) // 2
    print("book %s .. %s, split %s" % (iso(t_first), iso(t_last), iso(t_split)))
    result = {}
    for fit in ("median", "mean"):
        prof = calibrate(events, trades, candles, t_first, t_split, fit=fit)
        ho = holdout(prof, truth, t_split)
        result[fit] = {"profile": prof, "holdout": ho}
        print("\n## fit on the %s depth profile" % fit)
        print(json.dumps({k: v for k, v in prof.items() if k != "refill"}, indent=1))
        print("refill: sweeps %d used %d q_ref %.3f min_jump %.4f bps half-life %.1f ms; median R %s" % (
            prof["refill"]["sweeps"], prof["refill"]["used"], prof["refill"]["q_ref"], prof["refill"]["min_jump_bps"],
            prof["refill"]["half_life_ms"], " ".join("%.2f" % r for r in prof["refill"]["median_recovery"])))
        print(table(ho))
    prof, ho = result["median"]["profile"], result["median"]["holdout"]
    profile_json = {"symbol": "BTCUSD", "tick": prof["tick"], "spread_bps": prof["spread_bps"],
                    "spread_p90_bps": prof["spread_p90_bps"], "bid": prof["bid"], "ask": prof["ask"],
                    "volume_rank_correlation": prof["volume_rank_correlation"],
                    "refill_half_life_seconds": prof["refill_half_life_seconds"],
                    "median_bar_volume": prof["median_bar_volume"],
                    "depth_per_median_volume": prof["depth_per_median_volume"],
                    "holdout": {"sizes": ho["sizes"], "median_abs_error_bps": ho["median_abs_error_bps"],
                                "p90_abs_error_bps": ho["p90_abs_error_bps"]}}
    print("\n## profile (bt calibrate --json, median fit)\n" + json.dumps(profile_json))
    ok = all(m <= 1 for m in ho["median_abs_error_bps"]) and all(p <= 3 for p in ho["p90_abs_error_bps"])
    print("targets (median <= 1 bp, p90 <= 3 bps at every size): %s" % ("met" if ok else "MISSED"))
    if explore:
        result["explore"] = explore_more(events, trades, candles, truth, t_first, t_split, t_last, result)
    if "--json" in argv:
        with open(argv[argv.index("--json") + 1], "w") as f:
            json.dump(result, f, indent=1)
    return 0


def explore_more(events, trades, candles, truth, t_first, t_split, t_last, result):
    """Alternatives and robustness checks (printed)."""
    info = {}
    samples, states = replay_samples(events, t_first, t_last)
    first = [s for s in samples if s["t"] < t_split]
    second = [s for s in samples if s["t"] >= t_split]
    # 1. per-sample fits and their spread over time
    for side in ("bid", "ask"):
        fits = [fit_power_law(FIT_GRID, depth_at(s[side + "s"], FIT_GRID)) for s in first]
        a = np.array([f[0] for f in fits]); b = np.array([f[1] for f in fits])
        print("\nper-sample fits %s: A median %.3f (p10 %.3f p90 %.3f), b median %.3f (p10 %.3f p90 %.3f)" % (
            side, np.median(a), np.percentile(a, 10), np.percentile(a, 90), np.median(b), np.percentile(b, 10), np.percentile(b, 90)))
        info["per_sample_" + side] = {"a_median": float(np.median(a)), "b_median": float(np.median(b))}
        for label, part in (("first half", first), ("second half", second), ("all", samples)):
            curves = np.array([depth_at(s[side + "s"], [1, 2, 5, 10, 20, 50]) for s in part])
            print("  %s %s Q(1,2,5,10,20,50) mean %s median %s" % (side, label, np.round(curves.mean(0), 2), np.round(np.median(curves, 0), 2)))
    # 2. fit residuals and fit ranges
    for fit in ("median", "mean"):
        for lo, hi in ((1, 50), (0.5, 20), (1, 20), (2, 50)):
            grid = [lo * (hi / lo) ** (k / 24) for k in range(25)]
            res = []
            for side in ("bid", "ask"):
                curves = [depth_at(s[side + "s"], grid) for s in first]
                q = [quantile([c[k] for c in curves], 0.5) if fit == "median" else sum(c[k] for c in curves) / len(curves) for k in range(len(grid))]
                a, b = fit_power_law(grid, q)
                rms = math.sqrt(sum((math.log(v) - math.log(a * x ** b)) ** 2 for x, v in zip(grid, q) if v > 0) / len(grid))
                res.append("%s A=%.3f b=%.3f rms(log)=%.3f" % (side, a, b, rms))
            print("fit %s on [%g, %g] bps: %s" % (fit, lo, hi, "; ".join(res)))
    # 3. dense holdout: every sample of the second half (not only bar opens)
    for fit in ("median", "mean"):
        prof = result[fit]["profile"]
        half = prof["spread_bps"] / 2
        med, p90 = [], []
        for size in LADDER:
            errs = []
            for side, bs in (("buy", "asks"), ("sell", "bids")):
                pred = model_cost(size, prof[bs[:-1]]["a"], prof[bs[:-1]]["b"], half)
                for s in second:
                    c = walk_levels(s[bs], size)
                    if c is not None:
                        errs.append(abs(pred - c))
            med.append(quantile(errs, 0.5)); p90.append(quantile(errs, 0.9))
        print("dense holdout (every second, %s fit): median %s p90 %s" % (fit, np.round(med, 3), np.round(p90, 3)))
        info["dense_" + fit] = {"median": med, "p90": p90}
    # 4a. refill (cost-based) with other reference sizes and thresholds, and on the whole range
    for q_ref in (0.3, 1.0, 3.0):
        for jump in (0.03, 0.064, 0.13, 0.3):
            rf = refill(events, trades, t_first, t_split, q_ref=q_ref, min_jump_bps=jump)
            rf2 = refill(events, trades, t_first, t_last, q_ref=q_ref, min_jump_bps=jump)
            print("refill cost-based q_ref=%.1f min_jump=%.3f: first half used %d half-life %.0f ms; whole range used %d half-life %.0f ms" % (
                q_ref, jump, rf["used"], rf["half_life_ms"], rf2["used"], rf2["half_life_ms"]))
    # 4b. refill definitions by depth in a band (not used: noisy, see the doc)
    for rel in ("pre", "current"):
        for band in (2.0, 5.0, 10.0):
            for md in (0.02, 0.05, 0.2):
                rf = refill_band(events, trades, t_first, t_last, band=band, min_deficit=md, relative_to=rel)
                print("refill mid=%s band=%g min_deficit=%g: sweeps %d used %d half-life %.2f s; median R %s" % (
                    rel, band, md, rf["sweeps"], rf["used"], rf["half_life_ms"] / 1000, np.round(rf["median_recovery"], 2)))
    # 5. seconds flooring: cost with the book as of T + 999 ms (what flooring event times to seconds
    #    lets a fill at T see) against the book as of T.
    book = Replay()
    i = 0
    diffs = {s: [] for s in LADDER}
    bar_times = sorted({t for (t, _, _) in truth})
    for T in bar_times:
        for tt in (T, T + 999):
            while i < len(events) and events[i][0] <= tt:
                book.apply(events[i]); i += 1
            if tt == T:
                base = {(sd, sz): book.cost(sd, sz) for sd in ("buy", "sell") for sz in LADDER}
            else:
                for (sd, sz), c in base.items():
                    diffs[sz].append(abs(book.cost(sd, sz) - c))
    print("seconds flooring (book at T+999 ms vs T), abs cost difference in bps: " + ", ".join(
        "%g: max %.3f" % (s, max(d)) for s, d in diffs.items()))
    info["flooring_max_abs_bps"] = {str(s): max(d) for s, d in diffs.items()}
    # 6. truth consistency: this replay of book.jsonl against truth.csv
    book = Replay(); i = 0; worst = 0.0
    for T in bar_times:
        while i < len(events) and events[i][0] <= T:
            book.apply(events[i]); i += 1
        for sd in ("buy", "sell"):
            for sz in LADDER:
                worst = max(worst, abs(book.cost(sd, sz) - truth[(T, sd, sz)]))
    print("replay of book.jsonl vs truth.csv: max abs difference %.2e bps" % worst)
    return info


if __name__ == "__main__":
    sys.exit(main(sys.argv))
