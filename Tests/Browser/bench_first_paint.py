#!/usr/bin/env python3
"""First-paint benchmark of report.html pages written by bt, in headless Chromium (make bench-html).

    python3 Tests/Browser/bench_first_paint.py [--bt .build/release/bt] [--bars 10000,100000,1000000] [--repeat 3] [--json]

`bt bench html` writes, for each size, the pages of synthetic 1-minute bars (Synth.series, seed 1)
as bt writes them for users:

- a `run` page (`bt run` report.html: candles and volume as JSON numbers, SMA 10 and 30, equity as
  `{"f64": base64}`, trades and fills, statistics), and
- a `chart` page (candles and volume only, as `bt chart --html` writes).

Each page is opened from file:// in a fresh tab; the page records `performance.now()` (milliseconds
since navigation start) when its first complete draw finishes (`btPage.firstPaintMs`). Reported:
the median first paint over --repeat loads, the JSON parse time inside it, the next animation frame,
the cost of redrawing after zooming (full view, 10% and 0.1% of the bars: decimation keeps it flat),
the time to switch to a coarser timeframe (aggregation in the page) and back, and the file size per
100,000 bars.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_reports import ROOT, make_driver  # noqa: E402


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
    ap.add_argument("--bt", default=os.path.join(ROOT, ".build", "release", "bt"))
    ap.add_argument("--bars", default="10000,100000,1000000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, ".build", "browser-bench"))
    ap.add_argument("--artifacts", default=os.path.join(ROOT, ".build", "test-artifacts", "browser"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r = subprocess.run([args.bt, "bench", "html", "--bars", args.bars, "--out", args.out, "--force", "--json"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"bt bench html failed: {r.stderr}")
    pages = json.loads(r.stdout)
    results = []
    driver = make_driver()
    try:
        for p in pages:
            n, kind, path = p["bars"], p["page"], p["path"]
            m = measure(driver, path, args.repeat)
            os.makedirs(args.artifacts, exist_ok=True)
            driver.save_screenshot(os.path.join(args.artifacts, f"bench-{kind}-{n}.png"))
            size = p["bytes"]
            m.update({"bars": n, "kind": kind, "bytes": size, "build_ms": p["build_ms"], "mb_per_100k_bars": round(size / n * 100000 / 1e6, 2)})
            results.append(m)
            if not args.json:
                print(f"{kind:6s} {n:>9,} bars  first paint {m['first_paint_ms']:7.1f} ms (JSON parse {m['parse_ms']:6.1f}, next frame "
                      f"{m['first_frame_ms']:7.1f})  redraw full/10%/0.1% {m['redraw_ms_full_10pct_01pct']} ms  "
                      f"to {m['switch_to']} {m['switch_ms']:.0f} ms, back {m['switch_back_ms']:.0f} ms  "
                      f"{size / 1e6:7.2f} MB = {m['mb_per_100k_bars']:.2f} MB per 100k bars  (bt wrote it in {p['build_ms']:.0f} ms)", flush=True)
    finally:
        driver.quit()
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
