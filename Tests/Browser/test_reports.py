#!/usr/bin/env python3
"""Browser tests of bt's report.html pages in headless Chromium (Debian chromium + chromium-driver).

    python3 Tests/Browser/test_reports.py PATH... [--exports DIR] [--artifacts DIR]

PATH is a report.html, a report folder holding one, or a folder whose sub-folders hold them (the
folders bt writes in make_reports.py). With --exports, DIR/SYMBOL.csv holds `bt data export SYMBOL`:
every hovered candle's tooltip must also read back the stored candle exactly (and aggregated candles
the aggregate of the stored ones). Each page is loaded from file:// and checked according to its
kind (run, chart, sweep, screen, replay): no console errors, no request other than file: and data: URLs,
the tooltip of a hovered bar reads back the bar's exact OHLCV (at the stored timeframe and after
aggregation), wheel zoom, drag pan, box zoom and reset change the visible range, a click on a trade
row shows that trade, timeframe buttons give the candle counts of calendar-aligned UTC buckets, log
toggles, heatmap hover and selection, screen sorting and row opening; every trade's exit kind in the
trades table, the legends and the tooltip; the peak, final and trough labels cover no line of their
pane (whole view, zoomed, log scale); a portfolio's page (no candles) draws its equity on top with its
trades. When a `stats.json` (bt run's) sits beside a run page, the page's maximum drawdown and its
duration must equal bt's statistics. A replay page (bt replay --out) draws the mid, both quotes and
the position, decodes every fill of the fills.csv beside it, and the tooltip of the first fill's
point reads that fill's price and quantity.
Screenshots go to DIR (default .build/test-artifacts/browser). Exit status 1 when any check fails.
"""
import argparse
import calendar
import datetime as dt
import json
import math
import os
import sys
import time
import traceback

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CHROMIUM = os.environ.get("BT_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("BT_CHROMEDRIVER", "/usr/bin/chromedriver")


class CheckFailed(AssertionError):
    pass


def check(cond, message):
    if not cond:
        raise CheckFailed(message)


# ---- expected values computed independently of the page ------------------------------------

EXPORTS = None  # folder of `bt data export SYMBOL` CSVs (--exports)


def stored_series(symbol, first, last):
    """The stored candles of `symbol` from first to last (epoch seconds), read from `bt data export`."""
    if not EXPORTS or not symbol:
        return None
    path = os.path.join(EXPORTS, symbol + ".csv")
    if not os.path.exists(path):
        return None
    import csv
    out = {"t": [], "o": [], "h": [], "l": [], "c": [], "v": []}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            t = int(dt.datetime.fromisoformat(row["time"].replace("Z", "+00:00")).timestamp())
            if first <= t <= last:
                out["t"].append(t)
                for k, col in (("o", "open"), ("h", "high"), ("l", "low"), ("c", "close"), ("v", "volume")):
                    out[k].append(float(row[col]))
    return out


def thin(s, starts):
    """The stored bars aggregated as a thinned page draws them: first open, max high, min low, last
    close and summed volume (added in bar order) of the bars from each drawn time to the next."""
    out = {"t": [], "o": [], "h": [], "l": [], "c": [], "v": []}
    j = 0
    for k, t0 in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else float("inf")
        first = j
        while j < len(s["t"]) and s["t"][j] < end:
            j += 1
        rows = range(first, j)
        volume = 0.0
        for i in rows:
            volume += s["v"][i]
        for key, value in (("t", s["t"][first]), ("o", s["o"][first]), ("h", max(s["h"][i] for i in rows)),
                           ("l", min(s["l"][i] for i in rows)), ("c", s["c"][j - 1]), ("v", volume)):
            out[key].append(value)
    return out


def decode_series(s):
    if "time_deltas" in s:
        t, acc = [], 0
        for d in s["time_deltas"]:
            acc += d
            t.append(acc)
    else:
        t = [int(dt.datetime.fromisoformat(v.replace("Z", "+00:00")).timestamp()) if isinstance(v, str) else v for v in s["time"]]
    n = len(t)
    col = lambda k: values_of(s[k]) if k in s else [float("nan")] * n
    return {"t": t, "o": col("open"), "h": col("high"), "l": col("low"), "c": col("close"), "v": col("volume")}


TF_SECONDS = {"1m": 60, "5m": 300, "15m": 900, "30m": 1800, "1h": 3600, "4h": 14400, "1d": 86400, "1w": 604800}


def bucket(tf, t):
    if tf == "1M":
        d = dt.datetime.fromtimestamp(t, dt.timezone.utc)
        return calendar.timegm((d.year, d.month, 1, 0, 0, 0))
    if tf == "1w":
        monday = 4 * 86400
        return (t - monday) // 604800 * 604800 + monday
    return t // TF_SECONDS[tf] * TF_SECONDS[tf]


def aggregate(s, tf):
    """First open, max high, min low, last close, summed volume per UTC bucket (weeks from Monday)."""
    out = {"t": [], "o": [], "h": [], "l": [], "c": [], "v": [], "first": []}
    for i, t in enumerate(s["t"]):
        b = bucket(tf, t)
        if not out["t"] or out["t"][-1] != b:
            for k, v in (("t", b), ("o", s["o"][i]), ("h", s["h"][i]), ("l", s["l"][i]), ("c", s["c"][i]), ("v", s["v"][i]), ("first", i)):
                out[k].append(v)
        else:
            out["h"][-1] = max(out["h"][-1], s["h"][i])
            out["l"][-1] = min(out["l"][-1], s["l"][i])
            out["c"][-1] = s["c"][i]
            out["v"][-1] += s["v"][i]
    return out


# ---- the browser -----------------------------------------------------------------------------

def make_driver(width=1400, height=1000):
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}",
              "--hide-scrollbars", "--force-device-scale-factor=1", "--disable-extensions", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps"):
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)


class Page:
    def __init__(self, driver, path, artifacts, name):
        self.d, self.path, self.artifacts, self.name = driver, os.path.abspath(path), artifacts, name
        self.shots = []

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def load(self):
        self.d.get_log("browser")
        self.d.get_log("performance")
        self.d.get("file://" + self.path)
        for _ in range(200):
            if self.js("return !!(window.btPage && (window.btPage.ready || window.btPage.errors.length))"):
                break
            time.sleep(0.05)
        errors = self.js("return window.btPage ? window.btPage.errors : ['no btPage']")
        check(not errors, f"page reported errors: {errors}")
        check(self.js("return window.btPage.ready"), "page never became ready")
        self.data = json.loads(self.js("return document.getElementById('bt-data').textContent"))
        return self

    def shot(self, label):
        os.makedirs(self.artifacts, exist_ok=True)
        p = os.path.join(self.artifacts, f"{self.name}-{label}.png")
        self.d.save_screenshot(p)
        self.shots.append(p)
        return p

    def console_errors(self):
        return [e for e in self.d.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]

    def requests(self):
        urls = []
        for entry in self.d.get_log("performance"):
            msg = json.loads(entry["message"])["message"]
            if msg.get("method") in ("Network.requestWillBeSent", "Network.webSocketCreated"):
                p = msg["params"]
                urls.append(p.get("request", {}).get("url") or p.get("url", ""))
        return urls

    def state(self, chart="btChart"):
        return self.js(f"return window.{chart}.state()")

    def move(self, x, y):
        ab = ActionBuilder(self.d)
        ab.pointer_action.move_to_location(int(round(x)), int(round(y)))
        ab.perform()

    def drag(self, x1, y, x2):
        ab = ActionBuilder(self.d)
        ab.pointer_action.move_to_location(int(x1), int(y)).pointer_down()
        for k in range(1, 6):
            ab.pointer_action.move_to_location(int(x1 + (x2 - x1) * k / 5), int(y))
        ab.pointer_action.pointer_up()
        ab.perform()

    def scroll_into_view(self, element_id):
        self.js("document.getElementById(arguments[0]).scrollIntoView({block: 'center'})", element_id)
        time.sleep(0.05)


# ---- checks ----------------------------------------------------------------------------------

def check_clean(page):
    errs = page.console_errors()
    check(not errs, f"console errors or warnings: {errs}")
    bad = [u for u in page.requests() if not (u.startswith("file://") or u.startswith("data:") or u.startswith("about:"))]
    check(not bad, f"network requests: {bad}")
    html = open(page.path, encoding="utf-8").read()
    check("default-src 'none'" in html, "the page has no Content-Security-Policy forbidding fetches")


def tooltip_values(page, tip_id):
    return page.js("""
      const tip = document.getElementById(arguments[0]);
      if (!tip || tip.style.display === 'none') return null;
      const out = {index: +tip.dataset.index, time: +tip.querySelector('[data-k=time]').dataset.time};
      for (const tr of tip.querySelectorAll('tr[data-k]')) out[tr.dataset.k] = tr.querySelector('td').textContent;
      const r = tip.getBoundingClientRect();
      out.rect = [r.left, r.top, r.right, r.bottom];
      return out;""", tip_id)


def values_of(a):
    """A numeric array of the data in either encoding, as floats (NaN for undefined)."""
    if isinstance(a, dict) and "f64" in a:
        import base64
        import struct
        raw = base64.b64decode(a["f64"])
        return list(struct.unpack(f"<{len(raw) // 8}d", raw))
    return [float("nan") if v is None else float(v) for v in a]


def curve_of(equity, close, fills=None):
    """A stored curve's values: a `{"ledger": ...}` summed as the engine sums it (cash + position
    x close, IEEE doubles as in the page; without `at`/`position`, the steps and positions the
    signed fill quantities imply), or the values themselves."""
    if not (isinstance(equity, dict) and "ledger" in equity):
        return values_of(equity)
    ledger = equity["ledger"]
    if "at" in ledger:
        at, pos = ledger["at"], values_of(ledger["position"])
    else:
        at, pos, p = [0], [0.0], 0.0
        for i, q in zip(fills["index"], values_of(fills["quantity"])):
            p += q
            if i == at[-1]:
                pos[-1] = p
            else:
                at.append(i)
                pos.append(p)
    cash, out = values_of(ledger["cash"]), []
    for k, start in enumerate(at):
        end = at[k + 1] if k + 1 < len(at) else len(close)
        out += [cash[k] + pos[k] * close[i] for i in range(start, end)]
    return out


def hover_bar(page, chart_id, series, k, label, expect_time=None, cd=None, truth=None):
    """Zooms around bar k, hovers it, and checks the tooltip's time and OHLCV against `series`
    (and, given the chart object, its indicator values and equity at the stored timeframe; given
    `truth`, the stored candles from `bt data export`, the candle at the same time there)."""
    api = f"btCharts['{chart_id}']"
    page.scroll_into_view(chart_id)
    page.js(f"window.{api}.zoomTo(arguments[0] - 40, arguments[0] + 40)", k)
    pt = page.js(f"return window.{api}.clientPoint(arguments[0], 'price')", k)
    page.move(pt["x"], pt["y"])
    time.sleep(0.05)
    tip = tooltip_values(page, chart_id + "-tooltip")
    check(tip is not None, f"{label}: no tooltip after hovering bar {k}")
    check(tip["index"] == k, f"{label}: tooltip shows bar {tip['index']}, hovered {k}")
    check(tip["time"] == (expect_time if expect_time is not None else series["t"][k]), f"{label}: tooltip time {tip['time']} != {series['t'][k]}")
    for key, col in (("open", "o"), ("high", "h"), ("low", "l"), ("close", "c")):
        check(float(tip[key]) == series[col][k], f"{label}: tooltip {key} {tip[key]} != {series[col][k]!r}")
    check(float(tip["volume"].replace(",", "")) == series["v"][k], f"{label}: tooltip volume {tip['volume']} != {series['v'][k]!r}")
    if truth is not None:
        check(tip["time"] in truth["t"], f"{label}: no stored candle at {tip['time']}")
        j = truth["t"].index(tip["time"])
        for key, col in (("open", "o"), ("high", "h"), ("low", "l"), ("close", "c"), ("volume", "v")):
            check(float(tip[key].replace(",", "")) == truth[col][j],
                  f"{label}: tooltip {key} {tip[key]} != stored {truth[col][j]!r} (bt data export)")
    if cd is not None:
        for g in cd.get("indicators", []):
            for line in g["lines"]:
                v = values_of(line["values"])[k]
                if math.isnan(v):
                    continue
                shown = tip.get(line["name"])
                check(shown is not None, f"{label}: no tooltip row for {line['name']}")
                check(abs(float(shown.replace(",", "")) - v) <= 1e-6 * max(1.0, abs(v)), f"{label}: {line['name']} shows {shown}, is {v}")
        if cd.get("equity"):
            e = values_of(cd["equity"]["values"])[k]
            check(abs(float(tip["equity"].replace(",", "")) - e) <= 0.005 + 1e-12 * abs(e), f"{label}: equity shows {tip['equity']}, is {e}")
            if cd["equity"].get("position") is not None:
                q = values_of(cd["equity"]["position"])[k]
            elif cd.get("fills"):
                f = cd["fills"]
                q = sum(qty if side == "buy" else -qty for i, side, qty in zip(f["index"], f["side"], f["quantity"]) if i <= k)
            else:
                q = None
            if q is not None:
                shown = float(tip["position"].replace(",", ""))
                check(abs(shown - q) <= 1e-5 * max(1.0, abs(q)), f"{label}: position shows {tip['position']}, is {q}")
    x1, y1, x2, y2 = tip["rect"]
    check(not (x1 <= pt["x"] <= x2 and y1 <= pt["y"] <= y2), f"{label}: the tooltip covers the crosshair point")
    return tip


def check_chart(page, chart_id, cd, shots=True, trades_table=True, stats=None):
    """The interactions every candle chart supports; cd is the page's chart object."""
    api = f"btCharts['{chart_id}']"
    series = decode_series(cd["series"])
    n = len(series["t"])
    thinned = cd.get("thinned")
    last = series["t"][-1] + (10 ** 9 if thinned else 0)  # a thinned page's last drawn bar holds the stored bars after it
    truth = stored_series(cd["series"].get("symbol"), series["t"][0], last) if n else None
    if truth is not None and thinned:
        # A thinned chart: each drawn bar is the aggregate of the stored bars from its time to the next one's.
        check(len(truth["t"]) == thinned["bars"], f"{len(truth['t'])} stored bars, the page says {thinned['bars']}")
        truth = thin(truth, series["t"])
        for key in ("t", "o", "h", "l", "c", "v"):
            check(truth[key] == series[key], f"the thinned page's {key} is not the aggregate of the stored bars")
        page.verified_against_store = True
    elif truth is not None:
        check(truth["t"] == series["t"], "the page's bars are not the stored bars of its range")
        page.verified_against_store = True
    st = page.state(api)
    check(st["candles"] == n and st["baseCandles"] == n, f"candle count {st['candles']} != {n}")
    check(st["firstPaintMs"] is not None, "no first paint recorded")
    page.js(f"window.{api}.reset()")
    if shots:
        page.scroll_into_view(chart_id)
        page.shot("initial")

    # hover a known bar at the stored timeframe: exact OHLCV and time
    k = n // 3
    hover_bar(page, chart_id, series, k, "hover", cd=cd, truth=truth)
    if shots:
        page.shot("hover")

    # wheel zoom at the centre, drag pan, box zoom, reset
    page.js(f"window.{api}.reset()")
    full = page.state(api)["visible"]
    host = page.d.find_element(By.ID, chart_id)
    r = page.js("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]", host)
    cx, cy = r[0] + r[2] * 0.45, r[1] + r[3] * 0.3
    ActionChains(page.d).scroll_from_origin(ScrollOrigin.from_viewport(int(cx), int(cy)), 0, -400).perform()
    time.sleep(0.2)
    z = page.state(api)["visible"]
    check(z != full and z["to"] - z["from"] < full["to"] - full["from"], f"wheel zoom did not narrow the range: {full} -> {z}")
    page.drag(cx, cy, cx + 200)
    time.sleep(0.2)
    p = page.state(api)["visible"]
    check(p["from"] < z["from"] and abs((p["to"] - p["from"]) - (z["to"] - z["from"])) <= 1, f"drag did not pan to earlier bars: {z} -> {p}")
    page.js(f"window.{api}.reset()")
    page.d.find_element(By.ID, chart_id + "-boxzoom").click()
    page.drag(r[0] + r[2] * 0.3, cy, r[0] + r[2] * 0.5)
    time.sleep(0.2)
    b = page.state(api)["visible"]
    page.d.find_element(By.ID, chart_id + "-boxzoom").click()
    frac = (b["to"] - b["from"]) / max(1, full["to"] - full["from"])
    check(0.1 < frac < 0.3, f"box zoom over a fifth of the width showed {frac:.2f} of the bars: {b}")
    if shots:
        page.shot("boxzoom")
    page.d.find_element(By.ID, chart_id + "-reset").click()
    check(page.state(api)["visible"] == full, "reset did not show every bar again")

    # a click on a trade row shows that trade
    trades = cd.get("trades")
    if trades_table and trades and trades.get("entry_index"):
        rows = page.d.find_elements(By.CSS_SELECTOR, "#bt-trades tr[data-trade]")
        check(len(rows) == min(len(trades["entry_index"]), 500), f"trades table has {len(rows)} rows")
        j = len(rows) // 2
        page.js("arguments[0].scrollIntoView({block: 'center'})", rows[j])
        rows[j].click()
        time.sleep(0.1)
        vb = page.state(api)["visibleBase"]
        e0, e1 = trades["entry_index"][j], trades["exit_index"][j]
        check(vb["from"] <= e0 and vb["to"] >= e1, f"trade {j} ({e0}..{e1}) not inside the visible bars {vb}")
        check(vb["to"] - vb["from"] < n / 2, f"the trade click did not zoom in: {vb}")
        if shots:
            page.scroll_into_view(chart_id)
            page.shot("trade")
        page.js(f"window.{api}.reset()")

    # timeframes: candle counts of calendar buckets, and an aggregated bar read back
    tfs = page.state(api)["timeframes"]
    base_tf = page.state(api)["baseTimeframe"]
    for tf in tfs[1:3]:
        page.scroll_into_view(chart_id)
        page.d.find_element(By.ID, f"{chart_id}-tf-{tf}").click()
        time.sleep(0.1)
        agg = aggregate(series, tf)
        st = page.state(api)
        check(st["timeframe"] == tf, f"timeframe button {tf} gave {st['timeframe']}")
        check(st["candles"] == len(agg["t"]), f"{tf}: {st['candles']} candles, expected {len(agg['t'])}")
        j = len(agg["t"]) // 2
        hover_bar(page, chart_id, agg, j, f"hover at {tf}", truth=aggregate(truth, tf) if truth else None)
        if shots:
            page.shot(f"tf-{tf}")
    if tfs:
        page.d.find_element(By.ID, f"{chart_id}-tf-{base_tf}").click()
        check(page.state(api)["candles"] == n, "back to the stored timeframe did not restore every candle")

    # log scales
    for pane in page.state(api)["log"]:
        page.d.find_element(By.ID, f"{chart_id}-log-{pane}").click()
        check(page.state(api)["log"][pane], f"log toggle of {pane} did not switch to log")
        page.d.find_element(By.ID, f"{chart_id}-log-{pane}").click()

    # drawdown annotations agree with bt's statistics
    if stats:
        a = page.state(api)["analysis"]
        check(a is not None, "no equity analysis")
        md = stats["max_drawdown"]
        check(abs(a["maxDrawdown"] - md) <= 1e-12 * max(1, abs(md)), f"max drawdown {a['maxDrawdown']} != bt {md}")
        check(a["maxDrawdownBars"] == stats["max_drawdown_duration"], f"drawdown duration {a['maxDrawdownBars']} != bt {stats['max_drawdown_duration']}")
        check(abs(a["maxDrawdownDays"] - stats["max_drawdown_duration_days"]) < 1e-9, "drawdown days differ from bt")


def trade_kinds(trades):
    """Each trade's exit kind as the page reads it: `exit_kind`, else `end` when open and `signal`."""
    n = len(trades["entry_index"])
    opens = trades.get("is_open") or [False] * n
    return trades.get("exit_kind") or ["end" if o else "signal" for o in opens]


def trade_rows_at(page, chart_id, bar, pane):
    """The tooltip's trade rows (label, value) after hovering base bar `bar` in `pane`."""
    api = f"btCharts['{chart_id}']"
    page.scroll_into_view(chart_id)
    page.js(f"window.{api}.zoomTo(Math.max(0, arguments[0] - 20), arguments[0] + 20)", bar)
    pt = page.js(f"return window.{api}.clientPoint(arguments[0], arguments[1])", bar, pane)
    page.move(pt["x"], pt["y"])
    time.sleep(0.05)
    return page.js("""
      const tip = document.getElementById(arguments[0]);
      return [...tip.querySelectorAll('tr[data-k=trade]')].map(tr => [tr.querySelector('th').textContent, tr.querySelector('td').textContent]);""",
                   chart_id + "-tooltip")


def check_exits(page, chart_id, cd, table=True, pane="price"):
    """Every trade's exit kind: in the trades table (a column and data-exit-kind), in a pane's
    legend, and in the tooltip of the exit bar of a trade that did not end on a signal."""
    trades = cd.get("trades")
    if not trades or not trades.get("entry_index"):
        return
    api = f"btCharts['{chart_id}']"
    kinds = trade_kinds(trades)
    page.js(f"window.{api}.reset()")
    if table:
        shown = page.js("return [...document.querySelectorAll('#bt-trades tr[data-trade]')].map(tr => tr.dataset.exitKind)")
        check(shown == kinds[:len(shown)] and shown, f"trades table kinds {shown[:5]} != {kinds[:5]}")
        col = page.js("return [...document.querySelectorAll('#bt-trades thead th')].map(th => th.textContent).indexOf('exit kind')")
        check(col >= 0, "the trades table has no 'exit kind' column")
        cells = page.js("return [...document.querySelectorAll('#bt-trades tr[data-trade]')].slice(0, 60).map(tr => tr.children[arguments[0]].textContent)", col)
        check(cells == kinds[:len(cells)], f"exit kind cells {cells[:5]} != {kinds[:5]}")
    legend = set()
    for p in page.state(api)["panes"]:
        legend |= set(page.js(f"return window.{api}.legend(arguments[0])", p) or [])
    missing = set(kinds) - legend
    check(not missing, f"exit kinds missing from the chart's legends: {missing} (legends: {sorted(legend)})")
    k = next((j for j, x in enumerate(kinds) if x != "signal"), 0)
    rows = trade_rows_at(page, chart_id, trades["exit_index"][k], pane)
    check(any(th.startswith(f"Trade #{k + 1}") and td.endswith(" · " + kinds[k]) for th, td in rows),
          f"the tooltip at trade {k + 1}'s exit bar does not say it ended by {kinds[k]}: {rows}")
    page.js(f"window.{api}.reset()")


def segment_meets_box(p, q, box):
    """Whether segment p-q meets the rectangle (left, top, right, bottom) (Liang-Barsky)."""
    (x1, y1), (x2, y2) = p, q
    left, top, right, bottom = box
    t0, t1, dx, dy = 0.0, 1.0, x2 - x1, y2 - y1
    for pk, qk in ((-dx, x1 - left), (dx, right - x1), (-dy, y1 - top), (dy, bottom - y1)):
        if pk == 0:
            if qk < 0:
                return False
        else:
            t = qk / pk
            if pk < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


LINES = {"equity": ["equity", "bench", "compare"], "drawdown": ["dd"]}


def check_labels(page, chart_id, when):
    """The peak, final and trough labels cover no line of their pane (the page's own paths of the
    drawn series, read back and intersected here), or sit in the pane's header."""
    api = f"btCharts['{chart_id}']"
    labels = [lab for lab in page.js(f"return window.{api}.labels()") if lab["point"]]
    check(labels, f"{when}: no peak or final label drawn")
    for lab in labels:
        area = page.js(f"return window.{api}.plotArea(arguments[0])", lab["pane"])
        if lab["beside"]:
            check(area["top"] - 20 - 1 <= lab["top"] and lab["bottom"] <= area["top"] + 1, f"{when}: {lab['text']} is not in its pane's header: {lab}")
            continue
        check(area["left"] <= lab["left"] and lab["right"] <= area["right"] and area["top"] <= lab["top"] and lab["bottom"] <= area["bottom"],
              f"{when}: {lab['text']} leaves its pane: {lab} {area}")
        box = (lab["left"] + 0.5, lab["top"] + 0.5, lab["right"] - 0.5, lab["bottom"] - 0.5)
        for key in LINES.get(lab["pane"], []):
            path = page.js(f"return window.{api}.path(arguments[0], arguments[1])", key, lab["pane"]) or []
            for p, q in zip(path, path[1:]):
                check(not segment_meets_box(p, q, box), f"{when}: the label '{lab['text']}' covers the {key} line near x={p[0]:.0f}")


def check_equity_pane(page, chart_id, when):
    """The equity pane's log toggle sits in its header and switches the pane to log scale; the
    labels stay off the curve in both scales and when zoomed in."""
    api = f"btCharts['{chart_id}']"
    page.js(f"window.{api}.reset()")
    page.scroll_into_view(chart_id)
    check_labels(page, chart_id, when)
    st = page.state(api)
    n, peak = st["baseCandles"], st["analysis"]["peakIndex"]
    page.js(f"window.{api}.zoomTo(arguments[0], arguments[1])", max(0, peak - n // 6), min(n - 1, peak + n // 6))
    check_labels(page, chart_id, when + " zoomed around the peak")
    page.js(f"window.{api}.reset()")
    button = page.d.find_element(By.ID, f"{chart_id}-log-equity")
    r = page.js("const b = arguments[0].getBoundingClientRect(), h = document.getElementById(arguments[1]).getBoundingClientRect();"
                "return [b.left - h.left, b.top - h.top, b.right - h.left, b.bottom - h.top]", button, chart_id)
    area = page.js(f"return window.{api}.plotArea('equity')")
    check(area["top"] - 21 <= r[1] and r[3] <= area["top"] + 1 and r[2] <= area["right"] + 1,
          f"{when}: the equity pane's log toggle {r} is not in its header (plot {area})")
    button.click()
    time.sleep(0.1)
    check(page.state(api)["log"]["equity"], f"{when}: the equity pane's toggle did not switch it to log")
    page.shot("log-equity")
    check_labels(page, chart_id, when + " in log scale")
    button.click()
    check(not page.state(api)["log"]["equity"], f"{when}: the toggle did not switch the equity pane back")


def check_resize(page, chart_id):
    api = f"btCharts['{chart_id}']"
    before = page.state(api)["drawCount"]
    page.d.set_window_size(900, 900)
    time.sleep(0.3)
    w = page.js("const h = document.getElementById(arguments[0]); return [h.clientWidth, h.querySelector('canvas').clientWidth]", chart_id)
    check(page.state(api)["drawCount"] > before, "the chart did not redraw on resize")
    check(abs(w[0] - w[1]) <= 1, f"canvas width {w[1]} does not follow the chart width {w[0]}")
    page.shot("narrow")
    page.d.set_window_size(1400, 1000)
    time.sleep(0.2)


def check_dark(page):
    page.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    page.load()
    page.shot("dark")
    page.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})


def check_monte_carlo(page, api="btCharts['bt-chart']"):
    """With `bt run --monte-carlo`: the equity pane fills the 5th-95th percentile band and draws
    the median; at each checkpoint bar the drawn values are the data's, between them straight
    lines in time; the band's label names the resampling, and at the last bar the band ends at
    stats.json's final-equity percentiles of the bar resamples."""
    mc = page.data["chart"]["equity"].get("monte_carlo")
    if not mc:
        return
    t = decode_series(page.data["chart"]["series"])["t"]
    n = len(t)
    drawn = {q: page.js(f"return window.{api}.baseValues('mc_{q}', 0, arguments[0])", n) for q in ("p5", "p50", "p95")}
    where = {v: i for i, v in enumerate(t)}
    for j, time_ in enumerate(mc["time"]):
        i = where.get(time_)
        check(i is not None, f"checkpoint time {time_} is not a bar of the chart")
        for q in ("p5", "p50", "p95"):
            check(abs(drawn[q][i] - mc[q][j]) <= 1e-9 * abs(mc[q][j]), f"{q} at bar {i}: drawn {drawn[q][i]}, data {mc[q][j]}")
    for q in ("p5", "p95"):
        check(all(drawn["p5"][i] <= drawn["p50"][i] <= drawn["p95"][i] for i in range(n) if drawn[q][i] is not None),
              "the band is not ordered 5th <= median <= 95th")
    sj = os.path.join(os.path.dirname(page.path), "stats.json")
    if os.path.exists(sj):
        final = json.load(open(sj)).get("monte_carlo", {}).get("bars", {}).get("final_equity")
        check(final is not None, "stats.json has no Monte Carlo of the bars")
        check([drawn[q][-1] for q in ("p5", "p50", "p95")] == [final[q] for q in ("p5", "p50", "p95")],
              f"the band ends at {[drawn[q][-1] for q in ('p5', 'p50', 'p95')]}, stats.json says {final}")
    legend = page.js(f"return window.{api}.legend('equity')") or []
    check(mc["label"] in legend and mc["median_label"] in legend, f"the equity legend {legend} lacks the band's {mc['label']!r}")
    check(mc["note"] in page.js("return document.body.textContent"), "the page does not say what the bands resample")
    page.scroll_into_view("bt-chart")
    page.shot("monte-carlo")


def test_run(page):
    stats = None
    sj = os.path.join(os.path.dirname(page.path), "stats.json")
    if os.path.exists(sj):
        stats = json.load(open(sj))["stats"]
    cd = page.data["chart"]
    if not any(k in cd["series"] for k in ("close", "open")):
        return test_portfolio(page, stats)
    check_chart(page, "bt-chart", cd, stats=stats)
    check_exits(page, "bt-chart", cd)
    check_equity_pane(page, "bt-chart", "run page")
    check_monte_carlo(page)
    check_resize(page, "bt-chart")
    check_clean(page)
    check_dark(page)


def test_portfolio(page, stats):
    """A portfolio of several symbols: no candles; the equity on top with its benchmark's values,
    every round trip marked on it, listed with its symbol and exit kind, and a click zooming to it."""
    api = "btCharts['bt-chart']"
    cd = page.data["chart"]
    st = page.state(api)
    check(st["panes"][0] == "equity" and "price" not in st["panes"], f"the top pane is not the equity: {st['panes']}")
    t = decode_series(cd["series"])["t"]
    check(st["baseCandles"] == len(t), "the chart's bars are not the portfolio clock")
    eq = values_of(cd["equity"]["values"])
    check(st["analysis"]["final"] == eq[-1], f"the equity ends at {st['analysis']['final']}, the data at {eq[-1]}")
    # No candles to read back against the store: the drawn curve is read back against equity.csv beside the page.
    page.no_candles = True
    import csv
    with open(os.path.join(os.path.dirname(page.path), "equity.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    check([int(dt.datetime.fromisoformat(r["time"].replace("Z", "+00:00")).timestamp()) for r in rows] == t, "the clock differs from equity.csv's")
    drawn = page.js(f"return window.{api}.baseValues('equity', 0, arguments[0])", len(t))
    check(all(abs(a - float(r["equity"])) <= 1e-9 * abs(a) for a, r in zip(drawn, rows)), "the drawn equity differs from equity.csv's")
    bench = page.js(f"return window.{api}.baseValues('bench', 0, arguments[0])", len(t))
    check(all(abs(a - float(r["benchmark"])) <= 1e-9 * abs(a) for a, r in zip(bench, rows)), "the drawn benchmark differs from equity.csv's")
    check_monte_carlo(page, api)
    page.js(f"window.{api}.reset()")
    page.scroll_into_view("bt-chart")
    page.shot("initial")
    trades = cd["trades"]
    m = len(trades["entry_index"])
    rows = page.d.find_elements(By.CSS_SELECTOR, "#bt-trades tr[data-trade]")
    check(len(rows) == min(m, 500), f"the trades table has {len(rows)} rows for {m} trades")
    heads = page.js("return [...document.querySelectorAll('#bt-trades thead th')].map(th => th.textContent)")
    check(heads[:2] == ["#", "symbol"], f"no symbol column: {heads}")
    symbols = page.js("return [...document.querySelectorAll('#bt-trades tr[data-trade]')].slice(0, 50).map(tr => tr.children[1].textContent)")
    check(symbols == trades["symbol"][:len(symbols)], "the table's symbols are not the trades'")
    check_exits(page, "bt-chart", cd, pane="equity")
    # hover a bar: the equity and the positions held
    k = len(t) // 2
    page.js(f"window.{api}.zoomTo(arguments[0] - 40, arguments[0] + 40)", k)
    pt = page.js(f"return window.{api}.clientPoint(arguments[0], 'equity')", k)
    page.move(pt["x"], pt["y"])
    time.sleep(0.05)
    tip = tooltip_values(page, "bt-chart-tooltip")
    check(tip is not None and tip["index"] == k, f"no tooltip at bar {k}: {tip}")
    check(abs(float(tip["equity"].replace(",", "")) - eq[k]) <= 0.005 + 1e-12 * abs(eq[k]), f"equity shows {tip['equity']}, is {eq[k]}")
    held = values_of(cd["equity"]["position"])[k]
    check(float(tip["position"]) == held, f"positions held show {tip['position']}, are {held}")
    page.shot("hover")
    # a click on a trade row shows that trade
    j = len(rows) // 2
    page.js("arguments[0].scrollIntoView({block: 'center'})", rows[j])
    rows[j].click()
    time.sleep(0.1)
    vb = page.state(api)["visibleBase"]
    e0, e1 = trades["entry_index"][j], trades["exit_index"][j]
    check(vb["from"] <= e0 and vb["to"] >= e1 and vb["to"] - vb["from"] < len(t) / 2, f"trade {j} ({e0}..{e1}) not shown: {vb}")
    page.scroll_into_view("bt-chart")
    page.shot("trade")
    check_equity_pane(page, "bt-chart", "portfolio page")
    if stats:
        a = page.state(api)["analysis"]
        check(abs(a["maxDrawdown"] - stats["max_drawdown"]) <= 1e-12 * max(1, abs(stats["max_drawdown"])), "max drawdown differs from bt's")
        check(a["maxDrawdownBars"] == stats["max_drawdown_duration"], "drawdown duration differs from bt's")
    check_clean(page)


def test_chart(page):
    check_chart(page, "bt-chart", page.data["chart"], trades_table=False)
    check_clean(page)


def test_sweep(page):
    sw = page.data["sweep"]
    xs, ys = sw["x"]["values"], sw["y"]["values"] if sw.get("y") else [None]
    metric = sw["metrics"][0]
    st = page.js("return btSweep.state()")
    check(st["nx"] == len(xs) and st["ny"] == len(ys), "heatmap size differs from the grid")
    signed = any(v is not None and v < 0 for row in metric["values"] for v in row)
    if metric.get("scale") == "diverging" or signed:
        check(st["scale"] == "diverging" and abs(st["scaleRange"][0] + st["scaleRange"][1]) < 1e-12, f"{metric['name']}: scale not centred on zero: {st}")
    page.scroll_into_view("bt-heatmap")
    # hover: the cell's value
    cells = [(ix, iy) for iy in range(len(ys)) for ix in range(len(xs)) if metric["values"][iy][ix] is not None]
    ix, iy = cells[len(cells) // 2]
    pt = page.js("return btSweep.cellClientPoint(arguments[0], arguments[1])", ix, iy)
    page.move(pt["x"], pt["y"])
    time.sleep(0.05)
    text = page.js(f"const t = document.getElementById('bt-heatmap-tooltip'); return t.style.display === 'none' ? null : t.querySelector('tr[data-k=\"{metric['name']}\"] td').textContent")
    check(text is not None, "no heatmap tooltip")
    v = metric["values"][iy][ix]
    shown = float(text.replace("%", "").replace(",", ""))
    expect = v * 100 if metric.get("unit") == "fraction" else v
    check(abs(shown - expect) <= 0.0051 * max(1, abs(expect)) + 0.0006, f"heatmap tooltip {text} for value {v}")
    page.shot("heatmap-hover")
    # colours: diverging cells, positive values bluish, negative orange
    for (cx, cy) in cells[:: max(1, len(cells) // 15)]:
        val = metric["values"][cy][cx]
        rgb = [int(c) for c in page.js("return btSweep.cellColor(arguments[0], arguments[1])", cx, cy)[4:-1].split(",")]
        if st["scale"] == "diverging" and abs(val) > 0.2 * max(abs(st["scaleRange"][1]), 1e-9):
            check((rgb[2] > rgb[0]) == (val > 0), f"cell value {val} coloured {rgb}: positive must be blue, negative orange")
    # the best combination is selected first, with its curve
    st = page.js("return btSweep.state()")
    check(st["selected"] is not None and st["selected"]["hasCurve"], f"the best cell is not selected with a curve: {st['selected']}")
    combos = [c for c in sw.get("combinations", []) if c.get("equity")]
    best = sw.get("best")
    other = next((c for c in combos if not best or (c["x"], c.get("y")) != (best["x"], best.get("y"))), None)
    if other:
        ox, oy = xs.index(other["x"]), ys.index(other["y"]) if sw.get("y") else 0
        pt = page.js("return btSweep.cellClientPoint(arguments[0], arguments[1])", ox, oy)
        page.move(pt["x"], pt["y"])
        ActionChains(page.d).click().perform()
        time.sleep(0.2)
        st = page.js("return btSweep.state()")
        check(st["selected"]["ix"] == ox and st["selected"]["iy"] == oy and st["selected"]["hasCurve"], f"click on {other['label']} selected {st['selected']}")
        cs = page.state("btCharts['bt-chart']")
        check("equity" in cs["panes"], "the selected combination's chart has no equity pane")
        eq = page.js("return btCharts['bt-chart'].state().analysis.final")
        curve = curve_of(other["equity"], values_of(page.data["chart"]["series"]["close"]), other.get("fills"))
        check(eq == curve[-1], f"chart equity ends at {eq}, the combination's curve at {curve[-1]}")
        if isinstance(other["equity"], dict) and "ledger" in other["equity"] and other.get("fills"):
            k = other["fills"]["index"][len(other["fills"]["index"]) // 2]
            shown = page.js("return btCharts['bt-chart'].baseValues('equity', arguments[0], arguments[0] + 3)", k)
            check(shown == curve[k:k + 3], f"equity at bars {k}..{k + 2} drawn as {shown}, the ledger gives {curve[k:k + 3]}")
        page.scroll_into_view("bt-chart")
        page.shot("selected")
    with_curve = {(c["x"], c.get("y")) for c in combos}
    missing = next(((ix, iy) for ix, iy in cells if (xs[ix], ys[iy]) not in with_curve), None)
    if missing:
        page.js("btSweep.select(arguments[0], arguments[1])", *missing)
        st = page.js("return btSweep.state()")
        check(not st["selected"]["hasCurve"], "a cell without a stored curve claims one")
        msg = page.d.find_element(By.ID, "bt-selection").text
        check("No equity curve" in msg, f"no explanation for a cell without a curve: {msg!r}")
        check("equity" not in page.state("btCharts['bt-chart']")["panes"], "an equity pane is drawn without a curve")
    page.js("btSweep.select(arguments[0], arguments[1])", *page.js("return btSweep.state().best"))
    # the combination chart: candles, trades of the selection, timeframes
    best_cd = dict(page.data["chart"], trades=next((c.get("trades") for c in combos if best and (c["x"], c.get("y")) == (best["x"], best.get("y"))), None))
    check_chart(page, "bt-chart", best_cd, shots=False)
    check_exits(page, "bt-chart", best_cd)
    if sw.get("pareto"):
        check_pareto(page, sw["pareto"])
    if sw.get("walk_forward"):
        wf = page.state("btCharts['bt-wf']")
        check("equity" in wf["panes"], "walk-forward chart has no equity pane")
        check(wf["baseCandles"] == len(values_of(sw["walk_forward"]["equity"])), "walk-forward chart length differs from its curve")
        page.scroll_into_view("bt-wf")
        page.shot("walk-forward")
    check_clean(page)


def check_pareto(page, p):
    """The scatter draws every point with both objectives defined and highlights exactly the front the
    data marks; that front is sweep.csv's `pareto` column and holds no dominated point; hovering a
    front point names it."""
    xs, ys, front = p["x_values"], p["y_values"], p["front"]
    defined = [k for k in range(len(xs)) if xs[k] is not None and ys[k] is not None]
    st = page.js("return btPareto.state()")
    check(st["points"] == len(defined), f"{st['points']} points drawn, {len(defined)} defined")
    members = [k for k in defined if front[k]]
    check(sorted(st["front"]) == members and len(members) == p["front_count"], f"front drawn {st['front']}, marked {members}")
    sign = [1 if p[a]["higher_is_better"] else -1 for a in ("x", "y")]
    if len(p["objectives"]) == 2:
        for k in defined:
            dominated = any(sign[0] * xs[q] >= sign[0] * xs[k] and sign[1] * ys[q] >= sign[1] * ys[k]
                            and (xs[q] != xs[k] or ys[q] != ys[k]) for q in defined)
            check(front[k] == (not dominated), f"point {k} ({xs[k]}, {ys[k]}) marked {front[k]}, dominated: {dominated}")
    csv_path = os.path.join(os.path.dirname(page.path), "sweep.csv")
    if os.path.exists(csv_path):
        import csv
        with open(csv_path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        marked = sorted((float(r[p["x"]["name"]]), float(r[p["y"]["name"]])) for r in rows if r["pareto"] == "true")
        check(marked == sorted((xs[k], ys[k]) for k in members), "the page's front differs from sweep.csv's pareto column")
    page.scroll_into_view("bt-pareto")
    k = members[len(members) // 2]
    pt = page.js("return btPareto.pointClientPoint(arguments[0])", k)
    page.move(pt["x"], pt["y"])
    time.sleep(0.05)
    tip = page.js("const t = document.getElementById('bt-pareto-tooltip'); return t.style.display === 'none' ? null : t.textContent")
    check(tip is not None and "on the front" in tip and p["labels"][k] in tip, f"front point tooltip: {tip!r}")
    page.shot("pareto")


def test_screen(page):
    sc = page.data["screen"]
    rows = sc["rows"]
    st = page.js("return btScreen.state()")
    ranked = [r["symbol"] for r in sorted(rows, key=lambda r: (r["rank"] is None, r["rank"] or 0))]
    check(st["order"] == ranked, f"initial order is not by rank: {st['order'][:5]}")
    page.shot("table")
    key = sc["columns"][0]["key"]
    th = page.d.find_element(By.CSS_SELECTOR, f'#bt-screen th[data-key="{key}"]')
    for direction in ("descending", "ascending"):
        th.click()
        st = page.js("return btScreen.state()")
        vals = [next(r for r in rows if r["symbol"] == s)["values"].get(key) for s in st["order"]]
        nums = [v for v in vals if v is not None]
        check(st["sortDir"] == direction and nums == sorted(nums, reverse=direction == "descending"), f"sort by {key} {direction} failed")
        check(all(v is None for v in vals[len(nums):]), "undefined values are not sorted last")
    check(page.js(f"return document.querySelector('#bt-screen th[data-key=\"{key}\"]').getAttribute('aria-sort')") == "ascending", "aria-sort not set")
    # open the third row's chart by clicking it
    target = next(r for r in rows[2:] if r.get("chart"))
    tr = page.d.find_element(By.CSS_SELECTOR, f'#bt-screen tr[data-symbol="{target["symbol"]}"]')
    page.js("arguments[0].scrollIntoView({block: 'center'})", tr)
    tr.click()
    time.sleep(0.2)
    check(page.js("return btScreen.state().open") == target["symbol"], "clicking a row did not open its chart")
    sparks = page.js("return [...document.querySelectorAll('#bt-screen canvas.bt-spark')].filter(c => c.width > 0).length")
    check(sparks == len(rows), f"{sparks} sparklines for {len(rows)} rows")
    check_chart(page, "bt-chart", target["chart"], trades_table=False)
    check_exits(page, "bt-chart", target["chart"], table=False)
    page.scroll_into_view("bt-chart")
    page.shot("opened")
    check_clean(page)


def test_replay(page):
    """A replay: the mid, quotes and fills on top, the position below; every fill of fills.csv
    decoded by the chart, and the tooltip of the first fill's point reading fills.csv's price."""
    import csv
    page.no_candles = True
    api = "btCharts['bt-chart']"
    rp = page.data["replay"]
    with open(os.path.join(os.path.dirname(page.path), "fills.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    check(rows, "the replay has no fills to check")
    st = page.state(api)
    check(st["panes"] == ["price", "position"], f"panes {st['panes']}")
    check(st["candles"] == len(values_of(rp["time"])), "the chart's points are not the data's")
    for key in ("mid", "bid_quote", "ask_quote", "position"):
        check(page.js(f"return window.{api}.path(arguments[0], arguments[1]).length", key, "position" if key == "position" else "price") > 0,
              f"{key} is not drawn")
    legend = page.js(f"return window.{api}.legend('price')")
    check(all(x in legend for x in ("Mid", "Bid quote", "Ask quote")), f"legend {legend}")
    fills = page.js(f"return window.{api}.fills()")
    check(fills["n"] == len(rows), f"{fills['n']} fills in the chart, {len(rows)} in fills.csv")
    check(fills["price"] == [float(r["price"]) for r in rows], "the chart's fill prices are not fills.csv's")
    check(fills["buy"] == [r["side"] == "buy" for r in rows], "the chart's fill sides are not fills.csv's")
    thinned = rp.get("thinned")
    check(bool(thinned) == any("thinned for display" in s for s in page.data["subtitle"]), "the page does not say whether it is thinned")
    page.shot("replay")
    # The first fill's point, zoomed in so a pixel is one point: its tooltip reads fills.csv's first row.
    i = fills["index"][0]
    page.js(f"window.{api}.zoomTo(arguments[0], arguments[1])", max(0, i - 15), i + 15)
    p = page.js(f"return window.{api}.clientPoint(arguments[0], 'price')", i)
    page.move(p["x"], p["y"])
    time.sleep(0.1)
    tip = tooltip_values(page, "bt-chart-tooltip")
    check(tip and tip["index"] == i, f"hovering point {i} gave {tip}")
    check("fill" in tip and tip["fill"].split(" @ ")[1] == rows[0]["price"], f"tooltip fill {tip.get('fill')} vs {rows[0]}")
    check(float(tip["fill"].split(" @ ")[0]) == float(rows[0]["quantity"]), f"tooltip fill {tip.get('fill')} vs {rows[0]}")
    check(all(k in tip for k in ("mid", "bid_quote", "ask_quote", "position")), f"tooltip rows {sorted(tip)}")
    page.shot("replay-zoomed")
    check(page.js("return !!document.getElementById('bt-table-stats') && !!document.getElementById('bt-table-settings')"),
          "the statistics and settings tables are missing")
    check_resize(page, "bt-chart")
    check_clean(page)
    check_dark(page)


TESTS = {"run": test_run, "chart": test_chart, "sweep": test_sweep, "screen": test_screen, "replay": test_replay}


def edge_pages():
    """Small pages at the edges of the schema: no bars, one bar, close only, gaps, a one-parameter
    sweep with signed values and no curves, a screen with failed rows, hostile strings."""
    evil = "</script><img src=x onerror=\"window.__owned=1\"><!--"
    day = 86400
    one = {"symbol": "ONE", "timeframe": "1d", "time_deltas": [1700006400], "open": [1.5], "high": [2], "low": [1], "close": [1.75], "volume": [10]}
    gappy = {"symbol": evil, "time": [1700000000 + 3600 * k * (1 + (k % 5 == 0)) for k in range(300)],
             "close": [None if k % 50 == 7 else 100 + math.sin(k / 9) * 5 for k in range(300)]}
    return {
        "empty": {"schema": 1, "kind": "chart", "title": "no bars", "chart": {"series": {"symbol": "NONE", "time_deltas": [], "close": []}}},
        "one-bar": {"schema": 1, "kind": "run", "title": "one bar", "chart": {"series": one, "equity": {"initial_cash": 100, "values": [100]},
                                                                               "trades": {"entry_index": []}}},
        "close-only": {"schema": 1, "kind": "chart", "title": evil, "subtitle": [evil], "manifest": [[evil, evil]],
                       "tables": [{"id": "x", "title": evil, "columns": [evil], "rows": [[evil, None, 3]]}],
                       "chart": {"series": gappy, "indicators": [{"spec": "rsi:14", "lines": [{"name": "rsi_14", "label": evil,
                                                                                                "values": [None] * 14 + [50 + 10 * math.sin(k) for k in range(286)]}]}]}},
        "sweep-1d": {"schema": 1, "kind": "sweep", "title": "one parameter", "chart": {"series": {"time_deltas": [], "close": []}},
                     "sweep": {"x": {"name": evil, "values": [1, 2, 3, 4]}, "metrics": [
                         {"name": "sharpe", "label": "Sharpe", "unit": "ratio", "values": [[-1.5, -0.2, None, 0.8]]},
                         {"name": "max_drawdown", "label": "Max DD", "unit": "fraction", "values": [[-0.5, -0.2, None, -0.1]]}],
                         "best": {"x": 4}, "curve_note": evil, "rerun": "bt run x --param p={" + "p}"}},
        "screen-failed": {"schema": 1, "kind": "screen", "title": "failures", "screen": {"columns": [{"key": "sharpe", "label": "Sharpe", "unit": "ratio"}], "rows": [
            {"rank": None, "symbol": evil, "status": "error", "error": evil, "values": {"sharpe": None}, "spark": [], "chart": None},
            {"rank": 1, "symbol": "B", "status": "ok", "values": {"sharpe": 0.5}, "spark": [1, 2, None, 3], "chart": None, "href": "B/report.html"},
            {"rank": 2, "symbol": "C", "status": "few_trades", "values": {}, "chart": {"series": one}}]}},
    }


def test_edges(driver, artifacts):
    """Each edge page loads without errors or console messages and runs no injected markup."""
    import tempfile
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import btpage
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in edge_pages().items():
            path = btpage.write_page(os.path.join(tmp, name, "report.html"), data["title"], data)
            try:
                page = Page(driver, path, artifacts, "edge-" + name).load()
                check(not page.js("return window.__owned || document.querySelectorAll('img').length"), "injected markup ran")
                check(page.js("return document.title") == data["title"], "the title was not kept as text")
                if page.js("return !!window.btChart"):
                    page.js("const c = window.btChart; c.zoomTo(0, 3); c.reset(); for (const tf of c.timeframes()) c.setTimeframe(tf);")
                if name == "sweep-1d":
                    page.js("btSweep.select(2, 0); btSweep.select(0, 0)")
                    check("No equity curve" in page.d.find_element(By.ID, "bt-selection").text, "no explanation for a missing curve")
                    check(page.js("return btSweep.state().scale") == "diverging", "signed Sharpe not on a diverging scale")
                if name == "screen-failed":
                    page.js("btScreen.open('B'); btScreen.sort('sharpe'); btScreen.sort('symbol')")
                    check(page.d.find_element(By.CSS_SELECTOR, "#bt-chart a").get_attribute("href").endswith("B/report.html"), "no link for a row without a chart")
                page.shot("page")
                check_clean(page)
                print(f"ok    edge {name}")
            except Exception as e:
                failures.append(("edge " + name, e))
                print(f"FAIL  edge {name}: {e}")
    return failures


def find_pages(paths):
    out = []
    for p in paths:
        if os.path.isfile(p):
            out.append(p)
        elif os.path.isfile(os.path.join(p, "report.html")):
            out.append(os.path.join(p, "report.html"))
        else:
            for sub in sorted(os.listdir(p)):
                f = os.path.join(p, sub, "report.html")
                if os.path.isfile(f):
                    out.append(f)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--artifacts", default=os.path.join(ROOT, ".build", "test-artifacts", "browser"))
    ap.add_argument("--exports", help="folder of `bt data export SYMBOL` CSVs to read tooltips back against")
    args = ap.parse_args()
    global EXPORTS
    EXPORTS = args.exports
    pages = find_pages(args.paths)
    if not pages:
        raise SystemExit("no report.html found")
    driver = make_driver()
    failures, shots = [], []
    try:
        for path in pages:
            name = os.path.basename(os.path.dirname(os.path.abspath(path))) or "page"
            t0 = time.time()
            try:
                page = Page(driver, path, args.artifacts, name).load()
                kind = page.js("return window.btPage.kind")
                TESTS[kind](page)
                shots += page.shots
                if EXPORTS and not getattr(page, "no_candles", False):
                    check(getattr(page, "verified_against_store", False), "no chart of this page was read back against bt data export")
                print(f"ok    {name:14s} {kind:6s} {time.time() - t0:5.1f}s  first paint {page.js('return window.btPage.firstPaintMs') or 0:.0f} ms"
                      + ("  (fills = fills.csv)" if kind == "replay" else "  (equity = equity.csv)" if getattr(page, "no_candles", False) else "  (tooltips = bt data export)" if EXPORTS else ""))
            except Exception as e:  # report and go on with the next page
                failures.append((name, e))
                print(f"FAIL  {name:14s} {e}")
                if not isinstance(e, CheckFailed):
                    traceback.print_exc()
                try:
                    driver.save_screenshot(os.path.join(args.artifacts, f"{name}-failure.png"))
                except Exception:
                    pass
        failures += test_edges(driver, args.artifacts)
    finally:
        driver.quit()
    print(f"{len(pages) - len(failures)} of {len(pages)} pages passed (and the edge cases); screenshots in {args.artifacts}"
          if not failures else f"{len(failures)} failures; screenshots in {args.artifacts}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
