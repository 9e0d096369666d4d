#!/usr/bin/env python3
"""First-paint benchmark of report.html in headless Chromium.

    python3 Tests/Browser/bench_first_paint.py [--bars 10000,100000,1000000] [--repeat 3] [--json]

For each size, writes synthetic pages (deterministic 1-minute candles with prices on a 0.01 grid,
volumes, SMA 20/50, an MA-cross equity curve with position, trades and fills) with btpage.render,
the same assembly as bt's HTMLPage.render:

- a `chart` page (candles and volume only, as `bt chart --html` writes), and
- a `run` page (everything a run report carries) in the recommended encoding: prices and volumes as
  JSON numbers, indicators and equity as `{"f64": base64}`, position derived from the fills, and
- a `run-text` page: the same run with every array as JSON numbers and the position included.

Each page is opened from file:// in a fresh tab; the page records `performance.now()` (milliseconds
since navigation start) when its first complete draw finishes (`btPage.firstPaintMs`). Reported:
the median first paint over --repeat loads, the JSON parse time inside it, the next animation frame,
the cost of redrawing after zooming (full view, 10% and 0.1% of the bars: decimation keeps it flat),
the time to switch to a coarser timeframe (aggregation in the page) and back, and the file size per
100,000 bars.
"""
import argparse
import base64
import json
import math
import os
import random
import statistics
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import btpage  # noqa: E402
from test_reports import make_driver  # noqa: E402

ROOT = btpage.ROOT


def synthetic(n, seed=7):
    """Candles and a complete MA-cross run over n one-minute bars (values are shortest-repr floats)."""
    rng = random.Random(seed)
    t0 = 1577836800  # 2020-01-01T00:00:00Z
    o, h, l, c, v = [], [], [], [], []
    price = 100.0
    prev = price
    for _ in range(n):
        price *= math.exp(rng.gauss(0, 0.0009))
        close = round(max(price, 0.01), 2)
        op = prev
        wick = abs(rng.gauss(0, 0.0005)) * close
        o.append(op)
        c.append(close)
        h.append(round(max(op, close) + wick, 2))
        l.append(round(max(0.01, min(op, close) - abs(rng.gauss(0, 0.0005)) * close), 2))
        v.append(float(int(rng.lognormvariate(8, 0.6))))
        prev = close

    def sma(k):
        out, s = [None] * n, 0.0
        for i in range(n):
            s += c[i]
            if i >= k:
                s -= c[i - k]
            if i >= k - 1:
                out[i] = s / k
        return out

    fast, slow = sma(20), sma(50)
    cash, pos, fee = 10000.0, 0.0, 0.001
    equity, position = [], []
    trades = {k: [] for k in ("side", "entry_index", "exit_index", "entry_price", "exit_price", "quantity", "pnl", "return", "fees", "is_open")}
    fills = {"index": [], "side": [], "price": [], "quantity": []}
    pending, entry = None, None
    for i in range(n):
        if pending == "buy" and pos == 0:
            q = cash / (o[i] * (1 + fee))
            f = q * o[i] * fee
            cash -= q * o[i] + f
            pos = q
            entry = (i, o[i], q, f)
            fills["index"].append(i); fills["side"].append("buy"); fills["price"].append(o[i]); fills["quantity"].append(q)
        elif pending == "sell" and pos > 0:
            f = pos * o[i] * fee
            cash += pos * o[i] - f
            ei, ep, q, ef = entry
            pnl = q * (o[i] - ep) - ef - f
            for k, val in (("side", "long"), ("entry_index", ei), ("exit_index", i), ("entry_price", ep), ("exit_price", o[i]),
                           ("quantity", q), ("pnl", pnl), ("return", pnl / (q * ep)), ("fees", ef + f), ("is_open", False)):
                trades[k].append(val)
            fills["index"].append(i); fills["side"].append("sell"); fills["price"].append(o[i]); fills["quantity"].append(pos)
            pos = 0.0
        pending = None
        if i > 0 and slow[i - 1] is not None:
            if fast[i] > slow[i] and fast[i - 1] <= slow[i - 1]:
                pending = "buy"
            elif fast[i] < slow[i] and fast[i - 1] >= slow[i - 1]:
                pending = "sell"
        equity.append(cash + pos * c[i])
        position.append(pos)
    series = {"symbol": "SYNTH", "timeframe": "1m", "time_deltas": [t0] + [60] * (n - 1),
              "open": o, "high": h, "low": l, "close": c, "volume": v}
    ind = [{"spec": "sma:20", "label": "SMA 20", "pane": "price", "lines": [{"name": "sma_20", "label": "SMA 20", "values": fast}]},
           {"spec": "sma:50", "label": "SMA 50", "pane": "price", "lines": [{"name": "sma_50", "label": "SMA 50", "values": slow}]}]
    run = {"series": series, "indicators": ind, "equity": {"initial_cash": 10000, "values": equity, "position": position},
           "trades": trades, "fills": fills}
    return series, run


def f64(values):
    """{"f64": base64 of little-endian doubles}, the compact exact form of a numeric array."""
    vals = [float("nan") if v is None else float(v) for v in values]
    return {"f64": base64.b64encode(struct.pack(f"<{len(vals)}d", *vals)).decode("ascii")}


def compact(run):
    """The run as bt should write long reports: derived series as f64, position left to the fills."""
    out = dict(run)
    out["indicators"] = [dict(g, lines=[dict(l, values=f64(l["values"])) for l in g["lines"]]) for g in run["indicators"]]
    out["equity"] = {"initial_cash": run["equity"]["initial_cash"], "values": f64(run["equity"]["values"])}
    return out


def numbers(obj):
    """Whole floats as integers, as bt's JSONWriter writes them."""
    if isinstance(obj, float):
        return btpage.number(obj)
    if isinstance(obj, list):
        return [numbers(x) for x in obj]
    if isinstance(obj, dict):
        return {k: numbers(x) for k, x in obj.items()}
    return obj


def measure(driver, path, repeat):
    out = []
    for _ in range(repeat):
        driver.get("about:blank")
        driver.get("file://" + path)
        for _ in range(1200):
            st = driver.execute_script("return window.btPage && window.btPage.firstPaintMs !== null && window.btChart ? "
                                       "[window.btPage.firstPaintMs, window.btPage.parseMs, window.btChart.state().firstFrameMs] : null")
            if st and st[2] is not None:
                break
            time.sleep(0.05)
        errors = driver.execute_script("return window.btPage.errors")
        if errors:
            raise SystemExit(f"{path}: {errors}")
        redraw = driver.execute_script("""
          const c = window.btChart, n = c.state().baseCandles, out = [];
          for (const f of [1, 0.1, 0.001]) {
            const span = Math.max(20, Math.round(n * f)), from = Math.round((n - span) / 2);
            c.zoomTo(from, from + span - 1);
            const ms = [];
            for (let k = 0; k < 5; k++) ms.push(c.redrawMs());
            ms.sort((a, b) => a - b); out.push(ms[2]);
          }
          c.reset();
          const tfs = c.timeframes(), tf = tfs[Math.min(tfs.length - 1, 4)] || null, base = c.state().baseTimeframe;
          let t0 = performance.now(); if (tf) c.setTimeframe(tf); const toCoarse = performance.now() - t0;
          t0 = performance.now(); if (tf) c.setTimeframe(base); const back = performance.now() - t0;
          return [out, tf, toCoarse, back];""")
        redraw, tf, coarse, back = redraw
        out.append({"first_paint_ms": st[0], "parse_ms": st[1], "first_frame_ms": st[2], "redraw_ms": redraw,
                    "timeframe": tf, "switch_ms": coarse, "switch_back_ms": back})
    med = lambda k: statistics.median(r[k] for r in out)
    return {"first_paint_ms": round(med("first_paint_ms"), 1), "parse_ms": round(med("parse_ms"), 1),
            "first_frame_ms": round(med("first_frame_ms"), 1),
            "redraw_ms_full_10pct_01pct": [round(statistics.median(r["redraw_ms"][j] for r in out), 2) for j in range(3)],
            "switch_to": out[0]["timeframe"], "switch_ms": round(med("switch_ms"), 1), "switch_back_ms": round(med("switch_back_ms"), 1),
            "runs": [round(r["first_paint_ms"], 1) for r in out]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bars", default="10000,100000,1000000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, ".build", "browser-bench"))
    ap.add_argument("--artifacts", default=os.path.join(ROOT, ".build", "browser-artifacts"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sizes = [int(x) for x in args.bars.split(",")]
    results = []
    driver = make_driver()
    try:
        for n in sizes:
            series, run = synthetic(n)
            pages = {"chart": {"schema": 1, "kind": "chart", "title": f"SYNTH {n} bars", "chart": {"series": series}},
                     "run": {"schema": 1, "kind": "run", "title": f"ma-cross on SYNTH, {n} bars", "chart": compact(run)},
                     "run-text": {"schema": 1, "kind": "run", "title": f"ma-cross on SYNTH, {n} bars", "chart": run}}
            for kind, data in pages.items():
                path = btpage.write_page(os.path.join(args.out, f"{kind}-{n}", "report.html"), data["title"], numbers(data))
                size = os.path.getsize(path)
                r = measure(driver, path, args.repeat)
                os.makedirs(args.artifacts, exist_ok=True)
                driver.save_screenshot(os.path.join(args.artifacts, f"bench-{kind}-{n}.png"))
                r.update({"bars": n, "kind": kind, "bytes": size, "mb_per_100k_bars": round(size / n * 100000 / 1e6, 2)})
                results.append(r)
                if not args.json:
                    print(f"{kind:8s} {n:>9,} bars  first paint {r['first_paint_ms']:7.1f} ms (JSON parse {r['parse_ms']:6.1f}, next frame "
                          f"{r['first_frame_ms']:7.1f})  redraw full/10%/0.1% {r['redraw_ms_full_10pct_01pct']} ms  "
                          f"to {r['switch_to']} {r['switch_ms']:.0f} ms, back {r['switch_back_ms']:.0f} ms  "
                          f"{size / 1e6:7.2f} MB = {r['mb_per_100k_bars']:.2f} MB per 100k bars", flush=True)
    finally:
        driver.quit()
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
