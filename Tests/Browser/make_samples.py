#!/usr/bin/env python3
"""Build sample report.html pages from real bt output (dev/test helper).

Runs bt on the shipped data (run, sweep with walk-forward, screen over synthetic symbols, chart),
converts its CSV/JSON outputs into the report data schema (docs/report-html-schema.md) and writes
the pages with btpage.render, which assembles them exactly as Swift's HTMLPage.render does.

    python3 Tests/Browser/make_samples.py [--bt .build/release/bt] [--out .build/browser-samples]

Writes OUT/run/report.html, OUT/chart/report.html, OUT/chart-eurusd/report.html,
OUT/sweep/report.html, OUT/screen/report.html and OUT/samples.json (what the tests check against).
"""
import argparse
import base64
import csv
import datetime as dt
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import btpage  # noqa: E402
from btpage import number  # noqa: E402

ROOT = btpage.ROOT


def iso_to_epoch(s):
    return int(dt.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp())


def time_deltas(times):
    out, prev = [], 0
    for t in times:
        out.append(t - prev)
        prev = t
    return out


def fnum(s):
    return None if s is None or s == "" else number(float(s))


def f64(values):
    """The compact exact encoding of a numeric array: {"f64": base64 of little-endian doubles}."""
    vals = [float("nan") if v is None else float(v) for v in values]
    return {"f64": base64.b64encode(struct.pack(f"<{len(vals)}d", *vals)).decode("ascii")}


def compact_equity(eq):
    """Equity as bt should write long curves: f64 values, the position left to the fills."""
    return {k: (f64(v) if k == "values" else v) for k, v in eq.items() if k != "position"}


def read_csv(path_or_text, text=False):
    f = io.StringIO(path_or_text) if text else open(path_or_text, newline="", encoding="utf-8")
    with f:
        return list(csv.DictReader(f))


class BT:
    def __init__(self, binary, db):
        self.binary, self.db = binary, db

    def __call__(self, *args, check=True):
        cmd = [self.binary, *args, "--db", self.db]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if check and r.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr}")
        return r.stdout


# ---- conversions ----------------------------------------------------------------------------

def series_from_rows(rows, symbol, timeframe):
    times = [iso_to_epoch(r["time"]) for r in rows]
    return {"symbol": symbol, "timeframe": timeframe, "time_deltas": time_deltas(times),
            "open": [fnum(r["open"]) for r in rows], "high": [fnum(r["high"]) for r in rows],
            "low": [fnum(r["low"]) for r in rows], "close": [fnum(r["close"]) for r in rows],
            "volume": [fnum(r["volume"]) for r in rows]}


INDICATOR_LABELS = {"sma": "SMA", "ema": "EMA", "wma": "WMA", "rsi": "RSI", "macd": "MACD", "bb": "Bollinger",
                    "atr": "ATR", "stoch": "Stochastic", "roc": "ROC", "obv": "OBV", "willr": "Williams %R",
                    "cci": "CCI", "adx": "ADX", "stddev": "StdDev", "donchian": "Donchian", "vwap": "VWAP"}
PRICE = {"sma", "ema", "wma", "bb", "donchian", "vwap"}


def indicator_group(bt, symbol, spec, timeframe_args=()):
    """One `indicators` entry for `spec`, from `bt indicators` (columns after the OHLCV ones)."""
    rows = list(csv.reader(io.StringIO(bt("indicators", symbol, "--ind", spec, *timeframe_args))))
    header, body = rows[0], rows[1:]
    name = spec.split(":")[0]
    params = spec.split(":")[1].replace(",", " ") if ":" in spec else ""
    label = (INDICATOR_LABELS.get(name, name.upper()) + " " + params).strip()
    lines = []
    for j in range(6, len(header)):
        col = header[j]
        short = col.split("_")[1] if name in ("macd", "bb", "donchian", "stoch") and col.count("_") >= 2 else ""
        line = {"name": col, "label": (label + " " + short).strip() if short else label, "values": [fnum(r[j]) for r in body]}
        if col.startswith("macd_hist"):
            line["style"] = "histogram"
            line["label"] = "MACD histogram"
        elif col.startswith("macd_signal"):
            line["label"] = "Signal"
        elif col.startswith("macd_"):
            line["label"] = "MACD"
        lines.append(line)
    group = {"spec": spec, "label": label, "pane": "price" if name in PRICE else "own", "lines": lines}
    if name in ("bb", "donchian"):
        group["band"] = [lines[0]["name"], lines[2]["name"]]
    return group


def equity_from_csv(path, initial):
    rows = read_csv(path)
    return {"initial_cash": number(float(initial)), "values": [fnum(r["equity"]) for r in rows],
            "position": [fnum(r["position"]) for r in rows], "benchmark": "buy_hold", "label": "Strategy"}


def trades_from_csv(path):
    rows = read_csv(path)
    cols = {"side": [], "entry_index": [], "exit_index": [], "entry_price": [], "exit_price": [], "quantity": [],
            "pnl": [], "return": [], "fees": [], "is_open": []}
    for r in rows:
        cols["side"].append(r["side"].lstrip("'"))
        cols["entry_index"].append(int(r["entry_index"]))
        cols["exit_index"].append(int(r["exit_index"]))
        for k in ("entry_price", "exit_price", "quantity", "pnl", "return", "fees"):
            cols[k].append(fnum(r[k]))
        cols["is_open"].append(r["is_open"] == "true")
    return cols


def fills_from_csv(path):
    rows = read_csv(path)
    return {"index": [int(r["index"]) for r in rows], "side": [r["side"].lstrip("'") for r in rows],
            "price": [fnum(r["vwap"]) for r in rows], "quantity": [fnum(r["quantity_filled"]) for r in rows]}


FRACTION = {"exposure", "total_return", "buy_hold_return", "cagr", "volatility_ann", "psr", "max_drawdown", "avg_drawdown",
            "win_rate", "best_trade", "worst_trade", "avg_trade", "kelly", "alpha", "var_95", "cvar_95", "avg_slippage"}
CASH = {"final_equity", "peak_equity", "expectancy", "fees_paid", "initial_cash"}
COUNT = {"bars", "trades", "partial_fills", "rejected_orders", "fills", "ambiguous_exit_bars", "max_drawdown_duration",
         "max_trade_duration"}


def unit_of(name):
    if name in ("start", "end", "first", "last"):
        return "time"
    if name in FRACTION:
        return "fraction"
    if name in CASH:
        return "cash"
    if name in COUNT:
        return "count"
    if name.endswith("_days"):
        return "days"
    if name.endswith("_duration"):
        return "bars"
    if name.endswith("_bps"):
        return "bps"
    return "ratio"


def fmt(v, unit):
    """Human text like bt's tables (the Swift side uses Stat.formatted instead)."""
    if v is None:
        return "n/a"
    if unit == "time":
        return v
    if unit == "fraction":
        return f"{v * 100:,.2f}%"
    if unit == "cash":
        return f"{v:,.2f}"
    if unit in ("count",):
        return f"{int(v):,}"
    if unit in ("bars", "days", "bps"):
        return f"{v:,.1f}" if not float(v).is_integer() else f"{int(v):,}"
    return f"{v:,.3f}"


def stats_tables(stats):
    s = stats["stats"]
    rows = [[k.replace("_", " "), fmt(v, unit_of(k))] for k, v in s.items() if not isinstance(v, dict)]
    tables = [{"id": "stats", "title": "Statistics", "columns": ["statistic", "value"], "align": ["left", "right"], "rows": rows}]
    if stats.get("costs"):
        c = stats["costs"]
        crow = [[f"{r['multiplier']}x", fmt(r["total_return"], "fraction"), fmt(r["sharpe"], "ratio"),
                 fmt(r["max_drawdown"], "fraction"), fmt(r["fees_paid"], "cash"), str(r["trades"])] for r in c["rows"]]
        be = c.get("break_even_fee_bps")
        tables.append({"id": "costs", "title": "Cost sensitivity", "columns": ["costs", "total return", "sharpe", "max drawdown", "fees", "trades"],
                       "align": ["left"] + ["right"] * 5, "rows": crow,
                       "notes": ["Break-even fee: " + (f"{be:.2f} bps per fill" if be is not None else "none")]})
    return tables


def manifest(stats, command):
    rows = [["command", command], ["bt version", stats.get("bt_version", "")], ["symbol", stats["symbol"]],
            ["timeframe", stats.get("timeframe") or ""], ["data range", f"{stats['first']} .. {stats['last']}"],
            ["bars", str(stats["bars"])], ["candles sha256", stats.get("candles_sha256", "")]]
    rows += [["parameter " + k, str(v)] for k, v in stats["params"].items()]
    rows += [["execution " + k, "none" if v is None else str(v)] for k, v in stats["execution"].items()]
    return rows


def subtitle(symbol, timeframe, first, last, bars):
    return [symbol, timeframe or "", f"{first[:10]} .. {last[:10]}", f"{bars:,} bars"]


# ---- the samples ------------------------------------------------------------------------------

def run_sample(bt, work, symbol, strategy, params, specs, *, extra=()):
    out = os.path.join(work, f"run-{strategy}-{symbol}")
    pargs = [a for k, v in params.items() for a in ("--param", f"{k}={v}")]
    bt("run", strategy, symbol, *pargs, *extra, "--out", out, "--force", "--no-chart")
    stats = json.load(open(os.path.join(out, "stats.json")))
    rows = read_csv(bt("data", "export", symbol), text=True)
    series = series_from_rows(rows, stats["symbol"], stats["timeframe"])
    chart = {"series": series, "indicators": [indicator_group(bt, symbol, s) for s in specs],
             "equity": equity_from_csv(os.path.join(out, "equity.csv"), stats["stats"]["initial_cash"]),
             "trades": trades_from_csv(os.path.join(out, "trades.csv")),
             "fills": fills_from_csv(os.path.join(out, "fills.csv"))}
    command = " ".join(["bt", "run", strategy, symbol, *pargs, *extra, "--out", out])
    data = {"schema": 1, "kind": "run", "title": f"{strategy} on {symbol}",
            "subtitle": subtitle(symbol, stats["timeframe"], stats["first"], stats["last"], stats["bars"]),
            "generator": "bt " + stats.get("bt_version", ""), "manifest": manifest(stats, command),
            "tables": stats_tables(stats), "chart": chart}
    return data, stats, out


def chart_sample(bt, symbol, specs, title_extra=""):
    rows = read_csv(bt("data", "export", symbol), text=True)
    tf = json.loads(bt("data", "list", "--json"))
    timeframe = next(s["timeframe"] for s in tf["series"] if s["symbol"] == symbol)
    series = series_from_rows(rows, symbol, timeframe)
    groups = [indicator_group(bt, symbol, s) for s in specs]
    for g in groups:
        if g["spec"].startswith(("macd", "stoch")):
            for line in g["lines"]:
                line["values"] = f64(line["values"])
    chart = {"series": series, "indicators": groups}
    return {"schema": 1, "kind": "chart", "title": f"{symbol}{title_extra}",
            "subtitle": subtitle(symbol, timeframe, rows[0]["time"], rows[-1]["time"], len(rows)),
            "generator": "bt", "chart": chart}


SWEEP_METRICS = [("sharpe", "Sharpe", "ratio"), ("total_return", "Total return", "fraction"), ("cagr", "CAGR", "fraction"),
                 ("sortino", "Sortino", "ratio"), ("max_drawdown", "Max drawdown", "fraction"), ("calmar", "Calmar", "ratio"),
                 ("volatility_ann", "Volatility", "fraction"), ("trades", "Trades", "count"), ("win_rate", "Win rate", "fraction"),
                 ("profit_factor", "Profit factor", "ratio"), ("exposure", "Exposure", "fraction"), ("final_equity", "Final equity", "cash")]


def sweep_sample(bt, work, symbol, top_n=20):
    out = os.path.join(work, "sweep")
    grid = ["--grid", "fast=5:50:5", "--grid", "slow=20:200:10", "--where", "fast<slow", "--walk-forward", "4"]
    stdout = bt("sweep", "ma-cross", symbol, *grid, "--out", out, "--force")
    rows = [r for r in read_csv(os.path.join(out, "sweep.csv"))]
    ok = [r for r in rows if r["status"] == "ok"]
    # columns: slow (wide axis), rows: fast, as bt's text heatmap
    xs = sorted({float(r["slow"]) for r in rows})
    ys = sorted({float(r["fast"]) for r in rows})
    xs = [number(v) for v in xs]
    ys = [number(v) for v in ys]
    cell = {(number(float(r["slow"])), number(float(r["fast"]))): r for r in ok}
    metrics = []
    for name, label, unit in SWEEP_METRICS:
        m = {"name": name, "label": label, "unit": unit,
             "values": [[fnum(cell[(x, y)][name]) if (x, y) in cell else None for x in xs] for y in ys]}
        if name in ("sharpe", "sortino", "total_return", "cagr", "calmar"):
            m["scale"] = "diverging"
        metrics.append(m)
    ranked = sorted(ok, key=lambda r: -float(r["sharpe"]))
    best = ranked[0]
    combos = []
    for r in ranked[:top_n]:
        f, s = r["fast"], r["slow"]
        d = os.path.join(work, "combos", f"fast{f}-slow{s}")
        bt("run", "ma-cross", symbol, "--param", f"fast={f}", "--param", f"slow={s}", "--out", d, "--force", "--no-chart", "--no-costs")
        eq = read_csv(os.path.join(d, "equity.csv"))
        combos.append({"x": number(float(s)), "y": number(float(f)), "label": f"fast={f} slow={s}",
                       "params": {"fast": number(float(f)), "slow": number(float(s))},
                       "equity": f64([fnum(e["equity"]) for e in eq]),
                       "trades": trades_from_csv(os.path.join(d, "trades.csv")), "fills": fills_from_csv(os.path.join(d, "fills.csv"))})
    md = open(os.path.join(out, "sweep.md"), encoding="utf-8").read()
    folds, fold_rows = [], []
    for m in re.finditer(r"^\| (\d+) \| (\S+)\.\.(\S+) \| (\S+)\.\.(\S+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", md, re.M):
        step, is0, is1, os0, os1, chosen, ins, oos = [g.strip() for g in m.groups()]
        folds.append({"start": os0 + "T00:00:00Z", "end": os1 + "T00:00:00Z", "label": f"fold {step}: {chosen}",
                      "params": dict(kv.split("=") for kv in chosen.split()), "in_sample": f"sharpe {ins}", "out_of_sample": f"sharpe {oos}"})
        fold_rows.append([step, f"{is0} .. {is1}", f"{os0} .. {os1}", chosen, ins, oos])
    wf_rows = read_csv(os.path.join(out, "walk_forward.csv"))
    wf = {"time_deltas": time_deltas([iso_to_epoch(r["time"]) for r in wf_rows]), "equity": [fnum(r["equity"]) for r in wf_rows],
          "initial_cash": 10000, "folds": folds}
    honesty = []
    for line in stdout.splitlines():
        if line.startswith(("Best:", "Deflated", "Probability", "Walk-forward")):
            k, _, v = line.partition(":")
            honesty.append([k.strip(), v.strip()])
    top_rows = [[r["fast"], r["slow"], fmt(float(r["sharpe"]), "ratio"), fmt(float(r["total_return"]), "fraction"),
                 fmt(float(r["max_drawdown"]), "fraction"), r["trades"]] for r in ranked[:10]]
    series = series_from_rows(read_csv(bt("data", "export", symbol), text=True), symbol, "1d")
    data = {"schema": 1, "kind": "sweep", "title": f"Sweep ma-cross on {symbol}",
            "subtitle": [symbol, "1d", f"{len(rows)} combinations", "ranked by sharpe"], "generator": "bt",
            "manifest": [["command", "bt sweep ma-cross " + symbol + " " + " ".join(grid)]],
            "tables": [{"id": "summary", "title": "Summary", "columns": ["", ""], "align": ["left", "left"], "rows": honesty},
                       {"id": "top", "title": "Top 10 by sharpe", "placement": "main", "columns": ["fast", "slow", "sharpe", "total return", "max dd", "trades"], "rows": top_rows},
                       {"id": "walk-forward", "title": "Walk-forward folds", "placement": "main", "columns": ["step", "in-sample", "out-of-sample", "chosen", "IS sharpe", "OOS sharpe"],
                        "align": ["right", "left", "left", "left", "right", "right"], "rows": fold_rows}],
            "chart": {"series": series},
            "sweep": {"x": {"name": "slow", "values": xs}, "y": {"name": "fast", "values": ys}, "metrics": metrics,
                      "best": {"x": number(float(best["slow"])), "y": number(float(best["fast"]))},
                      "initial_cash": 10000, "combinations": combos,
                      "curve_note": f"Curves are stored for the {top_n} best combinations by sharpe.",
                      "rerun": f"bt run ma-cross {symbol} --param fast={{fast}} --param slow={{slow}}",
                      "walk_forward": wf}}
    return data


SCREEN_COLUMNS = [("sharpe", "Sharpe", "ratio", "higher"), ("total_return", "Total return", "fraction", "higher"),
                  ("cagr", "CAGR", "fraction", "higher"), ("max_drawdown", "Max drawdown", "fraction", "higher"),
                  ("sortino", "Sortino", "ratio", "higher"), ("trades", "Trades", "count", "higher"),
                  ("win_rate", "Win rate", "fraction", "higher"), ("exposure", "Exposure", "fraction", "higher")]


def screen_sample(bt, work):
    out = os.path.join(work, "screen")
    bt("screen", "ma-cross", "--all", "--out", out, "--force")
    rows = read_csv(os.path.join(out, "screen.csv"))
    srows = []
    for r in rows:
        sym = r["symbol"].lstrip("'")
        row = {"rank": int(r["rank"]) if r["rank"] else None, "symbol": sym, "status": r["status"], "error": r["error"] or None,
               "values": {k: fnum(r[k]) for k, _, _, _ in SCREEN_COLUMNS}, "spark": [], "chart": None}
        if r["status"] != "error":
            d = os.path.join(work, "screen-runs", sym)
            bt("run", "ma-cross", sym, "--out", d, "--force", "--no-chart", "--no-costs")
            stats = json.load(open(os.path.join(d, "stats.json")))
            series = series_from_rows(read_csv(bt("data", "export", sym), text=True), sym, stats["timeframe"])
            eq = equity_from_csv(os.path.join(d, "equity.csv"), stats["stats"]["initial_cash"])
            n = len(eq["values"])
            row["spark"] = [eq["values"][min(n - 1, (k + 1) * n // 60 - 1)] for k in range(60)]
            row["chart"] = {"series": series, "equity": compact_equity(eq), "trades": trades_from_csv(os.path.join(d, "trades.csv")),
                            "fills": fills_from_csv(os.path.join(d, "fills.csv"))}
        srows.append(row)
    return {"schema": 1, "kind": "screen", "title": "Screen ma-cross", "subtitle": [f"{len(rows)} symbols", "ranked by sharpe"],
            "generator": "bt", "manifest": [["command", "bt screen ma-cross --all"]],
            "screen": {"rank": "sharpe", "columns": [{"key": k, "label": l, "unit": u, "better": b} for k, l, u, b in SCREEN_COLUMNS], "rows": srows}}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bt", default=os.path.join(ROOT, ".build", "release", "bt"))
    ap.add_argument("--out", default=os.path.join(ROOT, ".build", "browser-samples"))
    args = ap.parse_args()
    if not os.path.exists(args.bt):
        raise SystemExit(f"{args.bt} not found: build bt first (swift build -c release)")
    work = os.path.join(args.out, "work")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(work)
    db = os.path.join(work, "samples.sqlite")
    bt = BT(os.path.abspath(args.bt), db)
    bt("data", "import", os.path.join(ROOT, "data", "GOOG.csv"), os.path.join(ROOT, "data", "EURUSD.csv"))
    bt("data", "synth", "--symbols", "30")
    pages = {}

    run, stats, run_dir = run_sample(bt, work, "GOOG", "ma-cross", {"fast": 10, "slow": 30}, ["sma:10", "sma:30"])
    pages["run"] = btpage.write_page(os.path.join(args.out, "run", "report.html"), run["title"], run)
    shutil.copy(os.path.join(run_dir, "stats.json"), os.path.join(args.out, "run", "stats.json"))
    chart = chart_sample(bt, "GOOG", ["bb:20,2", "ema:50", "rsi:14", "macd:12,26,9"])
    pages["chart"] = btpage.write_page(os.path.join(args.out, "chart", "report.html"), chart["title"], chart)
    fx = chart_sample(bt, "EURUSD", ["donchian:20", "stoch:14,3,3"])
    pages["chart-eurusd"] = btpage.write_page(os.path.join(args.out, "chart-eurusd", "report.html"), fx["title"], fx)
    sweep = sweep_sample(bt, work, "GOOG")
    pages["sweep"] = btpage.write_page(os.path.join(args.out, "sweep", "report.html"), sweep["title"], sweep)
    screen = screen_sample(bt, work)
    pages["screen"] = btpage.write_page(os.path.join(args.out, "screen", "report.html"), screen["title"], screen)
    meta = {"pages": pages, "run_stats": stats["stats"], "run_dir": run_dir}
    with open(os.path.join(args.out, "samples.json"), "w") as f:
        json.dump(meta, f, indent=1)
    for k, p in pages.items():
        print(f"{k:13s} {os.path.getsize(p) / 1e6:6.2f} MB  {p}")


if __name__ == "__main__":
    main()
