#!/usr/bin/env python3
"""A local stand-in for Binance's and Alpha Vantage's market-data endpoints, for bt's fetch tests.

Python 3 standard library only. Binds the loopback address (port 0 by default), prints
`PORT <n>` on stdout (flushed) once it listens, and exits with status 0 on SIGTERM or SIGINT.

    python3 Tests/Fixtures/http/mock_exchange.py --log /tmp/requests.jsonl \
        --now 2024-03-15T12:34:56.789Z --binance-start 2024-03-13T16:55Z \
        --fault 'rate_limit@2,retry_after=1' --fault 'server_error@4x2'

Endpoints served (as the real services answer them):
  GET /api/v3/klines       symbol, interval (1s 1m 3m 5m 15m 30m 1h 2h 4h 6h 8h 12h 1d 3d 1w 1M),
                           startTime, endTime (ms, inclusive on the bar's open time), limit
                           (default 500, max 1000). Rows of 12 fields, ascending; the bar that
                           holds "now" is returned incomplete (close time in the future).
  GET /api/v3/exchangeInfo, /api/v3/time, /api/v3/ping   minimal answers.
  GET /query               Alpha Vantage: function=TIME_SERIES_DAILY or TIME_SERIES_DAILY_ADJUSTED,
                           symbol, outputsize=compact (latest 100) or full, apikey, datatype=json|csv.
For tests (never counted, never faulted):
  GET  /_stats             request counters, fired faults, rate-limit weight.
  GET  /_requests          every logged request (same objects as the --log file lines).
  GET  /_control           the current settings.  POST /_control  changes them (JSON body).
  GET  /_expected/binance?symbol=&interval=[&startTime=&endTime=&format=csv&incomplete=1]
  GET  /_expected/alphavantage?symbol=[&adjusted=1&format=csv]
                           the whole deterministic series, as bt should store it.
Dump mode prints the same expected CSV without a server:
    mock_exchange.py dump binance BTCUSDT 1h [--from T] [--to T] [--now T] [--seed N] ...
    mock_exchange.py dump alphavantage IBM [--adjusted] [--now T] [--seed N] ...

Faults (--fault SPEC, repeatable, or "faults"/"add_faults" in POST /_control):
  SPEC is JSON ({"kind": "rate_limit", "request": 3, "retry_after": 2}) or the shorthand
  KIND[@N[xK|+]][,key=value...]: fire on the N-th request counted for the rule's "api"
  (binance, alphavantage, any, or a path such as /api/v3/klines), K times in a row (default 1),
  or on every request from N on with "+". Kinds:
    rate_limit      429 + Retry-After (retry_after, default 1 s), Binance code -1003
    ban             418 + Retry-After (retry_after, default 120 s)
    server_error    status (default 503); JSON -1001 body, or an HTML page for 502/504
    truncate        the normal body cut at fraction (default 0.5); mode=json sends a matching
                    Content-Length (complete HTTP answer, broken JSON), mode=short declares the
                    full length and closes the connection early
    slow            sleep seconds (default 5) before the headers (where=headers) or in the
                    middle of the body (where=body)
    reset           TCP reset (RST) after half the body (where=body) or before any byte
                    (where=headers)
    close           close the connection (FIN) without answering: an "empty reply"
    empty           200 with [] (Binance) / an empty "Time Series (Daily)" (Alpha Vantage)
    invalid_symbol  Binance 400 {"code": -1121, "msg": "Invalid symbol."}; Alpha Vantage
                    200 {"Error Message": ...}
    av_note         200 {"Note": ...}         (Alpha Vantage per-minute limit, old style)
    av_information  200 {"Information": ...}  (Alpha Vantage daily limit / premium-only answer)
    av_error        200 {"Error Message": ...}
    raw             status, body (text), content_type, headers (object)
    dribble         the normal answer, its body one byte every interval seconds (default 1)
    huge            200 with a body of bytes spaces (default 2 GiB), streamed; length=false
                    sends no Content-Length (the body ends when the connection closes)
    gzip_bomb       200, Content-Encoding gzip: expanded bytes spaces (default 1 GiB) in about
                    1 MB of gzip, whatever the client accepts
  Any kind also takes message=TEXT (where it has one).
See docs/design/mock-exchange.md for the whole reference.
"""
import argparse
import calendar
import collections
import gzip
import json
import math
import os
import random
import re
import signal
import socket
import struct
import sys
import threading
import time
import zlib
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

SECOND = 1000
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE
DAY = 24 * HOUR

FIXED_INTERVALS = {
    "1s": SECOND, "1m": MINUTE, "3m": 3 * MINUTE, "5m": 5 * MINUTE, "15m": 15 * MINUTE,
    "30m": 30 * MINUTE, "1h": HOUR, "2h": 2 * HOUR, "4h": 4 * HOUR, "6h": 6 * HOUR,
    "8h": 8 * HOUR, "12h": 12 * HOUR, "1d": DAY, "3d": 3 * DAY, "1w": 7 * DAY,
}
INTERVAL_NAMES = list(FIXED_INTERVALS) + ["1M"]
KLINES_WEIGHT = 2
BINANCE_WEIGHTS = {"/api/v3/klines": KLINES_WEIGHT, "/api/v3/exchangeInfo": 20,
                   "/api/v3/time": 1, "/api/v3/ping": 1}
SYMBOL_PATTERN = re.compile(r"[A-Z0-9\-_.]{1,20}")
AV_FUNCTIONS = ("TIME_SERIES_DAILY", "TIME_SERIES_DAILY_ADJUSTED")

FAULT_KINDS = ("rate_limit", "ban", "server_error", "truncate", "slow", "reset", "close", "empty",
               "invalid_symbol", "av_note", "av_information", "av_error", "raw", "dribble", "huge",
               "gzip_bomb")
DEFAULT_FAULT_API = {"rate_limit": "binance", "ban": "binance", "av_note": "alphavantage",
                     "av_information": "alphavantage", "av_error": "alphavantage"}

AV_NOTE = ("Thank you for using this mock of Alpha Vantage. The standard call frequency is "
           "5 calls per minute; please spread your requests out.")
AV_INFORMATION = ("Thank you for using this mock of Alpha Vantage. The free key's daily request "
                  "limit has been reached; premium plans lift it.")
AV_PREMIUM = ("Thank you for using this mock of Alpha Vantage. This is a premium endpoint or "
              "option; premium plans unlock it.")


# ---------------------------------------------------------------------------------------------
# Time

def parse_time(value):
    """Milliseconds since the epoch from an int, digits (ms), or an ISO-8601 date or date-time
    (UTC unless it carries an offset)."""
    if isinstance(value, bool):
        raise ValueError("not a time: %r" % (value,))
    if isinstance(value, (int, float)):
        return int(value)
    text = str(value).strip()
    if text.lstrip("-").isdigit():
        return int(text)
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    text = text.replace(" ", "T", 1) if len(text) > 10 else text
    try:
        dt = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError("not a time: %r (use ms or ISO-8601)" % (value,))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    dt = dt.astimezone(timezone.utc)
    return calendar.timegm(dt.utctimetuple()) * 1000 + dt.microsecond // 1000


def iso(ms):
    """`2024-01-02T03:04:05Z`, with `.123` milliseconds when not zero."""
    s, rest = divmod(ms, 1000)
    text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(s))
    return text + (".%03d" % rest if rest else "") + "Z"


def iso_date(ms):
    return time.strftime("%Y-%m-%d", time.gmtime(ms // 1000))


def number_text(v):
    """A number as bt's CSV export writes it (Swift's `Double.description`): the shortest text
    that reads back to the same double, integral values with `.0` (`1273.0`), which is Python's
    `repr` for the magnitudes served here."""
    return repr(float(v))


class Interval:
    """A Binance kline interval: bar numbers, open and close times. Fixed intervals are aligned
    on the epoch (1w on Mondays 00:00 UTC); 1M bars are calendar months."""

    def __init__(self, name):
        if name not in INTERVAL_NAMES:
            raise KeyError(name)
        self.name = name
        self.ms = FIXED_INTERVALS.get(name)
        self.offset = 4 * DAY if name == "1w" else 0  # 1970-01-05 was a Monday
        self.minutes = self.ms / MINUTE if self.ms else 30 * 24 * 60

    def number(self, t):
        """The absolute number of the bar that holds time t."""
        if self.ms:
            return (t - self.offset) // self.ms
        tm = time.gmtime(t // 1000)
        return (tm.tm_year - 1970) * 12 + tm.tm_mon - 1

    def open_of(self, n):
        if self.ms:
            return n * self.ms + self.offset
        year, month = 1970 + n // 12, n % 12 + 1
        return calendar.timegm((year, month, 1, 0, 0, 0)) * 1000

    def close_of(self, n):
        return self.open_of(n + 1) - 1

    def first_number_at_or_after(self, t):
        n = self.number(t)
        return n if self.open_of(n) >= t else n + 1


# ---------------------------------------------------------------------------------------------
# Synthetic data

def cents(x):
    return max(round(x, 2), 0.01)


def partial_bar(o, h, l, c, fraction):
    """The bar as it stands `fraction` of the way through: still a valid OHLC."""
    cp = cents(o + (c - o) * fraction)
    hp = max(cents(o + (h - o) * fraction), o, cp)
    lp = min(cents(o + (l - o) * fraction), o, cp)
    return o, hp, lp, cp


class BinanceSeries:
    """Klines of one symbol at one interval from its listing bar on: a random walk in log price
    (prices in cents), built in blocks so that any range is cheap. Block ends follow a slowly
    mean-reverting walk; inside a block the path is a Brownian bridge between them, drawn from a
    generator seeded by (seed, symbol, interval, block), so a bar never depends on the request."""

    BLOCK = 500

    def __init__(self, seed, symbol, interval, listing_ms):
        self.key = "%s|%s|%s" % (seed, symbol, interval.name)
        self.interval = interval
        self.first = interval.number(listing_ms)
        self.sigma = min(0.001 * math.sqrt(interval.minutes), 0.08)
        base = random.Random("%s|%s|base" % (seed, symbol))
        self.start_price = round(base.uniform(20.0, 2000.0), 2)
        self.volume_per_minute = base.uniform(0.5, 50.0)
        self.ends = [math.log(self.start_price)]
        self.blocks = collections.OrderedDict()

    def _end(self, b):
        step = self.sigma * math.sqrt(self.BLOCK)
        while len(self.ends) <= b:
            k = len(self.ends) - 1
            g = random.Random("%s|end|%d" % (self.key, k)).gauss(0.0, 1.0)
            e = self.ends[k]
            self.ends.append(e + step * g - 0.02 * (e - self.ends[0]))
        return self.ends[b]

    def _block(self, b):
        bars = self.blocks.get(b)
        if bars is not None:
            self.blocks.move_to_end(b)
            return bars
        e0, e1 = self._end(b), self._end(b + 1)
        rng = random.Random("%s|block|%d" % (self.key, b))
        z = [rng.gauss(0.0, self.sigma) for _ in range(self.BLOCK)]
        shift = (e1 - e0 - sum(z)) / self.BLOCK
        levels = [e0]
        for j in range(self.BLOCK - 1):
            levels.append(levels[-1] + z[j] + shift)
        levels.append(e1)
        bars = []
        for j in range(self.BLOCK):
            o, c = cents(math.exp(levels[j])), cents(math.exp(levels[j + 1]))
            hi = max(o, c) * math.exp(abs(rng.gauss(0.0, self.sigma)) * 0.7)
            lo = min(o, c) * math.exp(-abs(rng.gauss(0.0, self.sigma)) * 0.7)
            h = max(cents(hi), o, c)
            l = min(cents(lo), o, c)
            volume = round(max(self.volume_per_minute * self.interval.minutes
                               * math.exp(rng.gauss(0.0, 0.5)), 0.001), 5)
            taker = round(volume * rng.uniform(0.3, 0.7), 5)
            trades = max(1, int(volume * rng.uniform(3.0, 12.0)))
            bars.append((o, h, l, c, volume, taker, trades))
        self.blocks[b] = bars
        if len(self.blocks) > 64:
            self.blocks.popitem(last=False)
        return bars

    def bar(self, n, now):
        """(open_ms, o, h, l, c, volume, close_ms, taker_volume, trades, complete) of absolute
        bar number n (n >= the listing bar), cut at `now` when it holds `now`."""
        i = n - self.first
        o, h, l, c, volume, taker, trades = self._block(i // self.BLOCK)[i % self.BLOCK]
        open_ms, close_ms = self.interval.open_of(n), self.interval.close_of(n)
        complete = now > close_ms
        if not complete:
            fraction = (now - open_ms + 1) / (close_ms + 1 - open_ms)
            o, h, l, c = partial_bar(o, h, l, c, fraction)
            volume = round(max(volume * fraction, 0.001), 5)
            taker = round(taker * fraction, 5)
            trades = max(1, int(trades * fraction))
        return open_ms, o, h, l, c, volume, close_ms, taker, trades, complete


def kline_row(bar):
    open_ms, o, h, l, c, volume, close_ms, taker, trades, _ = bar
    vwap = (h + l + c) / 3.0
    return [open_ms, "%.8f" % o, "%.8f" % h, "%.8f" % l, "%.8f" % c, "%.8f" % volume, close_ms,
            "%.8f" % round(volume * vwap, 8), trades, "%.8f" % taker, "%.8f" % round(taker * vwap, 8),
            "0"]


class AlphaVantageSeries:
    """Daily bars of one symbol on weekdays (no holidays) from the start date on. The economic
    price is a random walk (overnight gap plus intraday move); every 1500th trading day (index
    1000, 2500, ...) is a 2-for-1 split and every 63rd (index 40, 103, ...) pays a dividend of
    about 0.4% of the previous close. Raw prices are the economic price divided by the splits
    so far, in cents; the adjusted close is back-adjusted from the latest bar served."""

    SESSION_OPEN = 13 * HOUR + 30 * MINUTE   # 09:30 New York in winter, in UTC (no DST here)
    SESSION_CLOSE = 21 * HOUR                # 16:00 New York in winter

    def __init__(self, seed, symbol, start_ms):
        self.rng = random.Random("%s|%s|av" % (seed, symbol))
        day = start_ms // DAY
        while (day + 3) % 7 >= 5:           # 1970-01-01 was a Thursday: (day + 3) % 7 is Mon=0
            day += 1
        self.next_day = day
        self.economic_close = self.rng.uniform(50.0, 500.0)
        self.volume_base = self.rng.uniform(1e6, 5e7)
        self.divisor = 1.0
        self.rows = []    # (day_ms, o, h, l, c, volume, dividend, split)

    def _extend(self, last_day_ms):
        while self.next_day * DAY <= last_day_ms:
            day = self.next_day
            self.next_day += 3 if (day + 3) % 7 == 4 else 1
            i = len(self.rows)
            split = 2.0 if i % 1500 == 1000 else 1.0
            self.divisor *= split
            prev_close = self.rows[-1][4] if self.rows else None
            eo = self.economic_close * math.exp(self.rng.gauss(0.0, 0.004))
            ec = eo * math.exp(self.rng.gauss(0.0, 0.015))
            eh = max(eo, ec) * math.exp(abs(self.rng.gauss(0.0, 0.006)))
            el = min(eo, ec) * math.exp(-abs(self.rng.gauss(0.0, 0.006)))
            volume = int(self.volume_base * math.exp(self.rng.gauss(0.0, 0.4)))
            self.economic_close = ec
            o, c = cents(eo / self.divisor), cents(ec / self.divisor)
            h = max(cents(eh / self.divisor), o, c)
            l = min(cents(el / self.divisor), o, c)
            dividend = round(prev_close * 0.004, 2) if (prev_close and i % 63 == 40) else 0.0
            self.rows.append((day * DAY, o, h, l, c, volume, dividend, split))

    def bars(self, now):
        """Rows up to `now`, oldest first: (date, o, h, l, c, adjusted_close, volume, dividend,
        split). Today's row appears at the session open and grows until the close."""
        self._extend(now)
        out = []
        for (day_ms, o, h, l, c, volume, dividend, split) in self.rows:
            if now < day_ms + self.SESSION_OPEN:
                break
            if now < day_ms + self.SESSION_CLOSE:
                f = (now - day_ms - self.SESSION_OPEN) / (self.SESSION_CLOSE - self.SESSION_OPEN)
                o, h, l, c = partial_bar(o, h, l, c, f)
                volume = int(volume * f)
            out.append([day_ms, o, h, l, c, None, volume, dividend, split])
        factor = 1.0
        for k in range(len(out) - 1, -1, -1):
            out[k][5] = round(out[k][4] * factor, 4)
            dividend, split = out[k][7], out[k][8]
            if k > 0 and (dividend or split != 1.0):
                factor *= (1.0 - dividend / out[k - 1][4]) / split
        return out


# ---------------------------------------------------------------------------------------------
# Settings, faults and the market

def parse_scalar(text):
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_fault(spec):
    """A fault rule from JSON text, a dict, or the shorthand KIND[@N[xK|+]][,key=value...]."""
    if isinstance(spec, dict):
        rule = dict(spec)
    elif spec.strip().startswith("{"):
        rule = json.loads(spec)
    else:
        head, *pairs = spec.split(",")
        rule = {}
        kind, _, when = head.strip().partition("@")
        rule["kind"] = kind
        if when:
            if when.endswith("+"):
                rule["request"], rule["times"] = int(when[:-1]), -1
            elif "x" in when:
                n, k = when.split("x", 1)
                rule["request"], rule["times"] = int(n), int(k)
            else:
                rule["request"] = int(when)
        for pair in pairs:
            key, sep, value = pair.partition("=")
            if not sep:
                raise ValueError("fault option %r is not key=value" % pair)
            rule[key.strip()] = parse_scalar(value.strip())
    kind = rule.get("kind")
    if kind not in FAULT_KINDS:
        raise ValueError("unknown fault kind %r (one of %s)" % (kind, ", ".join(FAULT_KINDS)))
    rule.setdefault("api", DEFAULT_FAULT_API.get(kind, "any"))
    rule.setdefault("request", 1)
    rule.setdefault("times", 1)
    rule["fired"] = 0
    if int(rule["request"]) < 1:
        raise ValueError("fault request numbers start at 1")
    return rule


SETTING_DEFAULTS = {
    "seed": 7,
    "now": "2024-03-15T12:34:56.789Z",
    "binance_start": "2024-01-01",
    "listing": {},
    "av_start": "2014-01-02",
    "unknown_symbols": [],
    "weight_limit": 6000,
    "weight_window": 60.0,
    "ban_after": 0,
    "ban_seconds": 120,
    "max_limit": 1000,
    "over_limit": "clamp",
    "latency": 0.0,
    "header_case": "lower",
    "gzip": False,
    "av_api_key": None,
    "av_calls_per_minute": 0,
    "av_calls_per_day": 0,
    "av_premium_full": False,
    "av_premium_adjusted": False,
    "av_compact_size": 100,
}
DATA_SETTINGS = ("seed", "binance_start", "listing", "av_start")


class Market:
    """Settings, generated series, counters, faults and the request log; one lock guards all."""

    def __init__(self, settings, faults, log_path):
        self.lock = threading.RLock()
        self.settings = dict(SETTING_DEFAULTS)
        self.faults = []
        self.stop_event = threading.Event()
        self.log_file = open(log_path, "a", encoding="utf-8") if log_path else None
        self._reset_counters()
        self.configure(settings)
        self.faults = [parse_fault(f) for f in faults]

    # settings
    def configure(self, changes):
        with self.lock:
            changes = dict(changes)
            if changes.pop("reset", False):
                self._reset_counters()
                self.faults = []
                self._log({"reset": True})
            if "faults" in changes:
                self.faults = [parse_fault(f) for f in changes.pop("faults")]
            if "add_faults" in changes:
                self.faults += [parse_fault(f) for f in changes.pop("add_faults")]
            for key, value in changes.items():
                if key not in SETTING_DEFAULTS:
                    raise ValueError("unknown setting %r" % key)
                if key in ("now",):
                    if value != "wall":
                        parse_time(value)
                elif key in ("binance_start", "av_start"):
                    parse_time(value)
                elif key == "listing":
                    value = {sym: parse_time(t) for sym, t in dict(value).items()}
                elif key == "unknown_symbols":
                    value = list(value)
                elif key == "over_limit" and value not in ("clamp", "error"):
                    raise ValueError("over_limit is clamp or error")
                elif key == "header_case" and value not in ("lower", "canonical"):
                    raise ValueError("header_case is lower or canonical")
                self.settings[key] = value
            if any(k in changes for k in DATA_SETTINGS) or not hasattr(self, "binance_series"):
                self.binance_series = {}
                self.av_series = {}
            return self.describe()

    def describe(self):
        with self.lock:
            out = dict(self.settings)
            out["now_ms"] = self.now()
            out["faults"] = [dict(f) for f in self.faults]
            return out

    def now(self):
        value = self.settings["now"]
        return int(time.time() * 1000) if value == "wall" else parse_time(value)

    def _reset_counters(self):
        self.counts = collections.Counter()
        self.by_status = collections.Counter()
        self.by_fault = collections.Counter()
        self.requests = []
        self.weight_used = 0
        self.weight_window_start = None
        self.violations = 0
        self.ban_until = 0.0
        self.av_window_start = None
        self.av_window_count = 0

    # series
    def binance(self, symbol, interval):
        key = (symbol, interval.name)
        series = self.binance_series.get(key)
        if series is None:
            listing = self.settings["listing"].get(symbol, parse_time(self.settings["binance_start"]))
            series = BinanceSeries(self.settings["seed"], symbol, interval, listing)
            self.binance_series[key] = series
        return series

    def alphavantage(self, symbol):
        series = self.av_series.get(symbol)
        if series is None:
            series = AlphaVantageSeries(self.settings["seed"], symbol, parse_time(self.settings["av_start"]))
            self.av_series[symbol] = series
        return series

    def listing(self, symbol):
        return self.settings["listing"].get(symbol, parse_time(self.settings["binance_start"]))

    # counting and faults
    def count(self, api, path):
        """Counts a data request; returns (seq, per-api number, the fault that fires or None)."""
        with self.lock:
            self.counts["total"] += 1
            self.counts[api] += 1
            self.counts[path] += 1
            numbers = {"any": self.counts["total"], api: self.counts[api], path: self.counts[path]}
            fault = None
            for rule in self.faults:
                n = numbers.get(rule["api"])
                if n is None:
                    continue
                first, times = int(rule["request"]), int(rule["times"])
                if n >= first and (times < 0 or n < first + times):
                    rule["fired"] += 1
                    fault = rule
                    break
            return self.counts["total"], self.counts[api], fault

    def binance_limits(self, path):
        """Weight accounting for a Binance request: (used weight, None) or (used, (status,
        retry_after)) when the request is refused by the rate limiter or an IP ban."""
        with self.lock:
            mono = time.monotonic()
            if mono < self.ban_until:
                return self.weight_used, (418, math.ceil(self.ban_until - mono))
            window = float(self.settings["weight_window"])
            if self.weight_window_start is None or mono - self.weight_window_start >= window:
                self.weight_window_start, self.weight_used, self.violations = mono, 0, 0
            self.weight_used += BINANCE_WEIGHTS.get(path, 1)
            if self.weight_used > int(self.settings["weight_limit"]):
                self.violations += 1
                ban_after = int(self.settings["ban_after"])
                if ban_after and self.violations > ban_after:
                    self.ban_until = mono + float(self.settings["ban_seconds"])
                    return self.weight_used, (418, math.ceil(float(self.settings["ban_seconds"])))
                retry = max(1, math.ceil(self.weight_window_start + window - mono))
                return self.weight_used, (429, retry)
            return self.weight_used, None

    def av_limits(self):
        """None, or ("Note"|"Information", message) when the Alpha Vantage key is over a limit."""
        with self.lock:
            per_day = int(self.settings["av_calls_per_day"])
            if per_day and self.counts["alphavantage"] > per_day:
                return "Information", AV_INFORMATION
            per_minute = int(self.settings["av_calls_per_minute"])
            if per_minute:
                mono = time.monotonic()
                if self.av_window_start is None or mono - self.av_window_start >= 60.0:
                    self.av_window_start, self.av_window_count = mono, 0
                self.av_window_count += 1
                if self.av_window_count > per_minute:
                    return "Note", AV_NOTE
            return None

    def _log(self, entry):
        if self.log_file:
            self.log_file.write(json.dumps(entry, separators=(",", ":")) + "\n")
            self.log_file.flush()

    def record(self, entry):
        with self.lock:
            self.requests.append(entry)
            self.by_status[str(entry["status"])] += 1
            if entry.get("fault"):
                self.by_fault[entry["fault"]] += 1
            self._log(entry)

    def stats(self):
        with self.lock:
            counts = dict(self.counts)
            return {
                "requests": {"total": counts.pop("total", 0),
                             "binance": counts.pop("binance", 0),
                             "alphavantage": counts.pop("alphavantage", 0),
                             "other": counts.pop("other", 0)},
                "by_path": counts,
                "by_status": dict(self.by_status),
                "by_fault": dict(self.by_fault),
                "faults": [dict(f) for f in self.faults],
                "weight": {"used": self.weight_used, "limit": int(self.settings["weight_limit"])},
                "now_ms": self.now(),
            }

    def close(self):
        with self.lock:
            if self.log_file:
                self.log_file.close()
                self.log_file = None


# ---------------------------------------------------------------------------------------------
# Answers (status, content type, headers, body, log details); no I/O here

class ApiError(Exception):
    def __init__(self, status, body, content_type="application/json"):
        super().__init__(status)
        self.status, self.body, self.content_type = status, body, content_type


def binance_error(code, msg, status=400):
    return ApiError(status, json.dumps({"code": code, "msg": msg}))


def single_params(query, names_for_duplicates):
    params = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key in params and key in names_for_duplicates:
            raise binance_error(-1101, "Duplicate values for a parameter detected.")
        params[key] = value
    return params


def long_param(params, name):
    text = params.get(name)
    if text is None or text == "":
        return None
    if not text.isdigit() or len(text) > 20:
        raise binance_error(-1100, "Illegal characters found in parameter '%s'; legal range is "
                                   "'^[0-9]{1,20}$'." % name)
    return int(text)


def symbol_param(params, market):
    symbol = params.get("symbol")
    if not symbol:
        raise binance_error(-1102, "Mandatory parameter 'symbol' was not sent, was empty/null, "
                                   "or malformed.")
    if not SYMBOL_PATTERN.fullmatch(symbol):
        raise binance_error(-1100, "Illegal characters found in parameter 'symbol'; legal range is "
                                   "'^[A-Z0-9-_.]{1,20}$'.")
    if symbol in market.settings["unknown_symbols"]:
        raise binance_error(-1121, "Invalid symbol.")
    return symbol


def klines_answer(market, params, info):
    symbol = symbol_param(params, market)
    name = params.get("interval")
    if not name:
        raise binance_error(-1102, "Mandatory parameter 'interval' was not sent, was empty/null, "
                                   "or malformed.")
    if name not in INTERVAL_NAMES:
        raise binance_error(-1120, "Invalid interval.")
    interval = Interval(name)
    start, end, limit = long_param(params, "startTime"), long_param(params, "endTime"), long_param(params, "limit")
    if limit is None:
        limit = 500
    max_limit = int(market.settings["max_limit"])
    if limit < 1 or (limit > max_limit and market.settings["over_limit"] == "error"):
        raise binance_error(-1130, "Data sent for parameter 'limit' is not valid.")
    limit = min(limit, max_limit)
    if start is not None and end is not None and start > end:
        raise binance_error(-1023, "Start time is greater than end time.")
    now = market.now()
    with market.lock:
        series = market.binance(symbol, interval)
        listing = market.listing(symbol)
        rows = []
        if now >= listing:
            lo, hi = series.first, interval.number(now)
            if start is not None:
                lo = max(lo, interval.first_number_at_or_after(start))
            if end is not None:
                hi = min(hi, interval.number(end))
            if start is None:
                lo = max(lo, hi - limit + 1)
            else:
                hi = min(hi, lo + limit - 1)
            rows = [kline_row(series.bar(n, now)) for n in range(lo, hi + 1)]
    info["rows"] = len(rows)
    if rows:
        info["first_open"], info["last_open"] = rows[0][0], rows[-1][0]
        info["last_complete"] = rows[-1][6] < now
    return json.dumps(rows, separators=(",", ":"))


def exchange_info_answer(market, params, info):
    now = market.now()
    symbols = []
    if params.get("symbol"):
        symbol = symbol_param(params, market)
        quote = next((q for q in ("USDT", "BUSD", "USDC", "BTC", "ETH", "BNB") if symbol.endswith(q)
                      and len(symbol) > len(q)), symbol[-3:])
        symbols.append({"symbol": symbol, "status": "TRADING", "baseAsset": symbol[:-len(quote)],
                        "quoteAsset": quote, "isSpotTradingAllowed": True})
    return json.dumps({
        "timezone": "UTC", "serverTime": now,
        "rateLimits": [weight_rate_limit(market)],
        "exchangeFilters": [], "symbols": symbols})


def weight_rate_limit(market):
    """The REQUEST_WEIGHT entry of exchangeInfo, naming the limiter's real window: whole minutes
    as MINUTE (1 minute by default, as the service), else whole seconds as SECOND."""
    window = max(1, math.ceil(float(market.settings["weight_window"])))
    unit, num = ("MINUTE", window // 60) if window % 60 == 0 else ("SECOND", window)
    return {"rateLimitType": "REQUEST_WEIGHT", "interval": unit, "intervalNum": num,
            "limit": int(market.settings["weight_limit"])}


def av_series_rows(market, symbol):
    now = market.now()
    with market.lock:
        return market.alphavantage(symbol).bars(now)


def av_answer(market, params, info):
    """(content_type, body) of an Alpha Vantage /query answer; every answer is HTTP 200."""
    def message(key, text):
        return "application/json", json.dumps({key: text}, indent=4)

    function = params.get("function", "")
    key = market.settings["av_api_key"]
    apikey = params.get("apikey", "")
    if not apikey or (key is not None and apikey != key):
        return message("Error Message", "the parameter apikey is invalid or missing (mock).")
    if function not in AV_FUNCTIONS:
        return message("Error Message", "This API function (%s) does not exist." % function)
    symbol = params.get("symbol", "")
    if not symbol or symbol in market.settings["unknown_symbols"]:
        return message("Error Message", "Invalid API call. Please retry or see the documentation "
                                        "for %s." % function)
    limited = market.av_limits()
    if limited:
        info["limited"] = limited[0]
        return message(*limited)
    adjusted = function == "TIME_SERIES_DAILY_ADJUSTED"
    outputsize = params.get("outputsize", "compact")
    if outputsize not in ("compact", "full"):
        outputsize = "compact"
    if (adjusted and market.settings["av_premium_adjusted"]) or (
            outputsize == "full" and market.settings["av_premium_full"]):
        info["limited"] = "Information"
        return message("Information", AV_PREMIUM)
    rows = av_series_rows(market, symbol)
    if outputsize == "compact":
        rows = rows[-int(market.settings["av_compact_size"]):]
    info["rows"] = len(rows)
    if rows:
        info["first_date"], info["last_date"] = iso_date(rows[0][0]), iso_date(rows[-1][0])
    if params.get("datatype") == "csv":
        if adjusted:
            lines = ["timestamp,open,high,low,close,adjusted_close,volume,dividend_amount,split_coefficient"]
            lines += ["%s,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%.4f,%.1f" % (iso_date(r[0]), *r[1:])
                      for r in reversed(rows)]
        else:
            lines = ["timestamp,open,high,low,close,volume"]
            lines += ["%s,%.4f,%.4f,%.4f,%.4f,%d" % (iso_date(r[0]), r[1], r[2], r[3], r[4], r[6])
                      for r in reversed(rows)]
        return "application/x-download", "\r\n".join(lines) + "\r\n"
    series = {}
    for r in reversed(rows):
        fields = {"1. open": "%.4f" % r[1], "2. high": "%.4f" % r[2], "3. low": "%.4f" % r[3],
                  "4. close": "%.4f" % r[4]}
        if adjusted:
            fields["5. adjusted close"] = "%.4f" % r[5]
            fields["6. volume"] = "%d" % r[6]
            fields["7. dividend amount"] = "%.4f" % r[7]
            fields["8. split coefficient"] = "%.1f" % r[8]
        else:
            fields["5. volume"] = "%d" % r[6]
        series[iso_date(r[0])] = fields
    meta = {
        "1. Information": ("Daily Time Series with Splits and Dividend Events" if adjusted
                           else "Daily Prices (open, high, low, close) and Volumes"),
        "2. Symbol": symbol,
        "3. Last Refreshed": iso_date(rows[-1][0]) if rows else "",
        "4. Output Size": "Full size" if outputsize == "full" else "Compact",
        "5. Time Zone": "US/Eastern",
    }
    return "application/json", json.dumps({"Meta Data": meta, "Time Series (Daily)": series}, indent=4)


def expected_binance(market, params):
    """Every bar of a series in [startTime, endTime] (all by default), as bt should store it:
    complete bars only unless incomplete=1."""
    symbol = symbol_param(params, market)
    if params.get("interval") not in INTERVAL_NAMES:
        raise binance_error(-1120, "Invalid interval.")
    interval = Interval(params["interval"])
    start, end = params.get("startTime"), params.get("endTime")
    incomplete = params.get("incomplete") in ("1", "true")
    now = market.now()
    with market.lock:
        series = market.binance(symbol, interval)
        if now < market.listing(symbol):
            return []
        lo, hi = series.first, interval.number(now)
        if start:
            lo = max(lo, interval.first_number_at_or_after(parse_time(start)))
        if end:
            hi = min(hi, interval.number(parse_time(end)))
        bars = [series.bar(n, now) for n in range(lo, hi + 1)]
    return [b for b in bars if b[9] or incomplete]


def binance_csv(bars):
    lines = ["time,open,high,low,close,volume"]
    for b in bars:
        lines.append(",".join([iso(b[0])] + [number_text(v) for v in (b[1], b[2], b[3], b[4], b[5])]))
    return "\n".join(lines) + "\n"


def av_csv(rows, adjusted):
    lines = ["time,open,high,low,close,volume"]
    for r in rows:
        o, h, l, c, v = r[1], r[2], r[3], r[4], float(r[6])
        if adjusted:  # bt's PriceAdjustment: prices by k, volume by 1/k (the notional kept)
            k = r[5] / c
            o, h, l, c, v = o * k, h * k, l * k, r[5], v / k
        lines.append(",".join([iso(r[0])] + [number_text(x) for x in (o, h, l, c, v)]))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# HTTP

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "mock-exchange/1"
    disable_nagle_algorithm = True   # headers and body go out in separate writes: no 40 ms stalls
    sys_version = ""

    def version_string(self):
        return self.server_version

    def log_message(self, fmt, *args):
        if self.server.verbose:
            sys.stderr.write("mock_exchange: %s\n" % (fmt % args))

    @property
    def market(self):
        return self.server.market

    def do_GET(self):
        self._dispatch("GET", b"")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self._dispatch("POST", self.rfile.read(length) if length else b"")

    def _dispatch(self, method, body):
        url = urlsplit(self.path)
        path = url.path.rstrip("/") or "/"
        try:
            if path.startswith("/_"):
                self._control(method, path, url.query, body)
            elif path.startswith("/api/v3/"):
                self._binance(method, path, url.query)
            elif path == "/query":
                self._alphavantage(method, path, url.query)
            else:
                seq, n, _ = self.market.count("other", path)
                entry = self._entry(seq, "other", n, method, path, url.query)
                self._answer(404, "application/json", json.dumps({"error": "no such path"}), {}, entry, None)
        except OSError:   # the client went away (timeout, reset, broken pipe)
            self.close_connection = True

    # test endpoints
    def _control(self, method, path, query, body):
        params = dict(parse_qsl(query, keep_blank_values=True))
        status, ctype, text = 200, "application/json", None
        try:
            if path == "/_control":
                if method == "POST":
                    text = json.dumps(self.market.configure(json.loads(body.decode() or "{}")))
                else:
                    text = json.dumps(self.market.describe())
            elif path == "/_stats":
                text = json.dumps(self.market.stats())
            elif path == "/_requests":
                since = int(params.get("since", 0))
                with self.market.lock:
                    text = json.dumps([e for e in self.market.requests if e["seq"] > since])
            elif path == "/_expected/binance":
                bars = expected_binance(self.market, params)
                if params.get("format") == "csv":
                    ctype, text = "text/csv", binance_csv(bars)
                else:
                    text = json.dumps([kline_row(b) for b in bars], separators=(",", ":"))
            elif path == "/_expected/alphavantage":
                if not params.get("symbol"):
                    raise ValueError("symbol is required")
                rows = av_series_rows(self.market, params.get("symbol", ""))
                adjusted = params.get("adjusted") in ("1", "true")
                if params.get("format") == "csv":
                    ctype, text = "text/csv", av_csv(rows, adjusted)
                else:
                    text = json.dumps([[iso_date(r[0])] + r[1:] for r in rows])
            else:
                status, text = 404, json.dumps({"error": "no such test endpoint"})
        except ApiError as e:
            status, text = e.status, e.body
        except (ValueError, KeyError, TypeError) as e:
            status, text = 400, json.dumps({"error": str(e)})
        self._write_plain(status, ctype, text.encode())

    def _write_plain(self, status, ctype, data):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    # data endpoints
    def _entry(self, seq, api, n, method, path, query):
        return {"seq": seq, "api": api, "n": n, "method": method, "path": path,
                "query": dict(parse_qsl(query, keep_blank_values=True)), "raw_query": query,
                "time": iso(int(time.time() * 1000)),
                "peer": "%s:%d" % self.client_address[:2]}

    def _binance(self, method, path, query):
        market = self.market
        seq, n, fault = market.count("binance", path)
        entry = self._entry(seq, "binance", n, method, path, query)
        weight, refused = (market.weight_used, None) if fault else market.binance_limits(path)
        headers = {"X-MBX-USED-WEIGHT": str(weight), "X-MBX-USED-WEIGHT-1M": str(weight)}
        info = {}
        status, ctype = 200, "application/json;charset=UTF-8"
        if refused and not fault:
            status, retry = refused
            headers["Retry-After"] = str(retry)
            entry["limited"] = status
            if status == 418:
                body = json.dumps({"code": -1003, "msg": "Way too much request weight used; IP banned "
                                   "until %d." % (market.now() + retry * 1000)})
            else:
                body = json.dumps({"code": -1003, "msg": "Too much request weight used; current limit "
                                   "is %d request weight per 1 MINUTE." % int(market.settings["weight_limit"])})
            self._answer(status, ctype, body, headers, entry, None)
            return
        try:
            if method != "GET":
                raise binance_error(-1000, "Only GET is served by this mock.", status=405)
            params = single_params(query, ("symbol", "interval", "startTime", "endTime", "limit"))
            if path == "/api/v3/klines":
                body = klines_answer(market, params, info)
            elif path == "/api/v3/exchangeInfo":
                body = exchange_info_answer(market, params, info)
            elif path == "/api/v3/time":
                body = json.dumps({"serverTime": market.now()})
            elif path == "/api/v3/ping":
                body = "{}"
            else:
                raise binance_error(-1000, "No such endpoint in this mock.", status=404)
        except ApiError as e:
            status, body, ctype = e.status, e.body, e.content_type
        entry.update(info)
        self._answer(status, ctype, body, headers, entry, fault)

    def _alphavantage(self, method, path, query):
        market = self.market
        seq, n, fault = market.count("alphavantage", path)
        entry = self._entry(seq, "alphavantage", n, method, path, query)
        info = {}
        params = dict(parse_qsl(query, keep_blank_values=True))
        if fault and fault["kind"] in ("av_note", "av_information", "av_error", "invalid_symbol", "empty"):
            ctype, body = "application/json", None   # the fault decides; skip the data
        else:
            ctype, body = av_answer(market, params, info)
        entry.update(info)
        self._answer(200, ctype, body, {}, entry, fault)

    def _answer(self, status, ctype, body, headers, entry, fault):
        """Sends an answer, or what the fault makes of it, and records it."""
        kind = fault["kind"] if fault else None
        headers = dict(headers)
        api = entry["api"]
        if kind == "rate_limit":
            status, ctype = int(fault.get("status", 429)), "application/json"
            headers["Retry-After"] = str(fault.get("retry_after", 1))
            body = json.dumps({"code": -1003, "msg": fault.get(
                "message", "Too much request weight used; please back off.")})
        elif kind == "ban":
            status, ctype = 418, "application/json"
            retry = fault.get("retry_after", 120)
            headers["Retry-After"] = str(retry)
            body = json.dumps({"code": -1003, "msg": fault.get(
                "message", "Way too much request weight used; IP banned until %d."
                % (self.market.now() + int(retry) * 1000))})
        elif kind == "server_error":
            status = int(fault.get("status", 503))
            if status in (502, 504):
                ctype = "text/html"
                body = "<html><head><title>%d</title></head><body><h1>%d</h1></body></html>\n" % (status, status)
            else:
                ctype = "application/json"
                body = json.dumps({"code": -1001, "msg": fault.get(
                    "message", "Internal error; unable to process your request. Please try again.")})
        elif kind == "empty":
            status, ctype = 200, "application/json"
            body = "[]" if api == "binance" else json.dumps({"Meta Data": {}, "Time Series (Daily)": {}})
        elif kind == "invalid_symbol":
            if api == "alphavantage":
                status, ctype = 200, "application/json"
                body = json.dumps({"Error Message": fault.get("message", "Invalid API call. Please "
                                   "retry or see the documentation.")}, indent=4)
            else:
                status, ctype, body = 400, "application/json", json.dumps({"code": -1121, "msg": "Invalid symbol."})
        elif kind in ("av_note", "av_information", "av_error"):
            key = {"av_note": "Note", "av_information": "Information", "av_error": "Error Message"}[kind]
            default = {"av_note": AV_NOTE, "av_information": AV_INFORMATION,
                       "av_error": "Invalid API call (mock)."}[kind]
            status, ctype, body = 200, "application/json", json.dumps({key: fault.get("message", default)}, indent=4)
        elif kind == "raw":
            status = int(fault.get("status", 200))
            ctype = fault.get("content_type", "application/json")
            body = fault.get("body", "")
            headers.update(fault.get("headers", {}))
        entry["status"] = status
        entry["fault"] = kind
        data = body.encode() if isinstance(body, str) else body
        entry["bytes"] = len(data)
        self.market.record(entry)
        self._emit(status, ctype, data, headers, fault)

    def _header(self, name, value):
        if self.market.settings["header_case"] == "lower":
            name = name.lower()
        self.send_header(name, value)

    def _emit(self, status, ctype, data, headers, fault):
        kind = fault["kind"] if fault else None
        where = fault.get("where", "headers" if kind == "slow" else "body") if fault else None
        stop = self.market.stop_event
        latency = float(self.market.settings["latency"])
        if latency > 0:
            stop.wait(latency)
        if kind == "slow" and where == "headers":
            stop.wait(float(fault.get("seconds", 5)))
        if kind == "reset" and where == "headers":
            self._reset()
            return
        if kind == "close":
            self.close_connection = True
            return
        if kind in ("huge", "gzip_bomb"):
            self._emit_hostile(kind, fault)
            return
        if (self.market.settings["gzip"] and status == 200
                and "gzip" in (self.headers.get("Accept-Encoding") or "")):
            data = gzip.compress(data, mtime=0)
            headers["Content-Encoding"] = "gzip"
        declared, payload = len(data), data
        if kind == "truncate":
            cut = int(len(data) * float(fault.get("fraction", 0.5)))
            payload = data[:cut]
            if fault.get("mode", "json") == "json":
                declared = cut
        self.send_response(status)
        self._header("Content-Type", ctype)
        self._header("Content-Length", str(declared))
        for name, value in headers.items():
            self._header(name, value)
        if kind in ("truncate", "reset"):
            self.close_connection = True
        self.end_headers()
        if kind == "reset":
            cut = int(len(data) * float(fault.get("fraction", 0.5)))
            self.wfile.write(data[:cut])
            self._reset()
            return
        if kind == "dribble":
            for k in range(len(payload)):
                if stop.wait(float(fault.get("interval", 1))):
                    return
                self.wfile.write(payload[k:k + 1])
                self.wfile.flush()
            return
        if kind == "slow" and where == "body":
            half = len(payload) // 2
            self.wfile.write(payload[:half])
            stop.wait(float(fault.get("seconds", 5)))
            self.wfile.write(payload[half:])
            return
        self.wfile.write(payload)

    def _emit_hostile(self, kind, fault):
        """A body too large to hold: streamed spaces, or a gzip bomb (compressed once, cached)."""
        self.close_connection = True
        self.send_response(200)
        self._header("Content-Type", "application/json")
        if kind == "gzip_bomb":
            size = int(fault.get("bytes", 1 << 30))
            data = gzip_bomb(size)
            self._header("Content-Encoding", "gzip")
            self._header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        size = int(fault.get("bytes", 2 << 30))
        if fault.get("length", True) is not False:
            self._header("Content-Length", str(size))
        self.end_headers()
        chunk = b" " * (1 << 16)
        sent = 0
        try:
            while sent < size and not self.market.stop_event.is_set():
                n = min(len(chunk), size - sent)
                self.wfile.write(chunk[:n])
                sent += n
        except OSError:
            pass   # the client gave up, as it should

    def _reset(self):
        """Closes the connection with a TCP RST (SO_LINGER with a zero timeout)."""
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        except OSError:
            pass


_GZIP_BOMBS = {}


def gzip_bomb(size):
    """`size` spaces as gzip (about size / 1000 bytes), made once per size."""
    if size not in _GZIP_BOMBS:
        z = zlib.compressobj(9, zlib.DEFLATED, 31)
        block, parts, left = b" " * (1 << 20), [], size
        while left > 0:
            parts.append(z.compress(block[:min(left, len(block))]))
            left -= len(block)
        parts.append(z.flush())
        _GZIP_BOMBS[size] = b"".join(parts)
    return _GZIP_BOMBS[size]


class Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        if self.verbose:
            super().handle_error(request, client_address)


# ---------------------------------------------------------------------------------------------
# Command line

def add_data_options(p):
    p.add_argument("--seed", type=int, help="data seed (default 7)")
    p.add_argument("--now", help="the server's now: ms, ISO-8601, or 'wall' for the real clock "
                                 "(default 2024-03-15T12:34:56.789Z)")
    p.add_argument("--binance-start", help="listing time of every Binance symbol (default 2024-01-01)")
    p.add_argument("--listing", action="append", default=[], metavar="SYMBOL=TIME",
                   help="listing time of one Binance symbol (repeatable)")
    p.add_argument("--av-start", help="first Alpha Vantage trading day (default 2014-01-02)")


def data_settings(args):
    out = {}
    for name in ("seed", "now", "binance_start", "av_start"):
        value = getattr(args, name)
        if value is not None:
            out[name] = value
    if args.listing:
        out["listing"] = dict(item.split("=", 1) for item in args.listing)
    return out


def serve_main(argv):
    p = argparse.ArgumentParser(
        prog="mock_exchange.py", description="Local mock of Binance klines and Alpha Vantage daily "
        "series for tests. Prints 'PORT <n>' once listening.",
        epilog="Faults: --fault 'KIND[@N[xK|+]][,key=value...]' or JSON; see the module docstring.")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="0 (default) picks a free port")
    p.add_argument("--port-file", help="also write the port number to this file")
    p.add_argument("--log", help="append one JSON line per data request to this file")
    add_data_options(p)
    p.add_argument("--unknown-symbol", action="append", default=[], metavar="SYMBOL",
                   help="a symbol both APIs refuse as invalid (repeatable)")
    p.add_argument("--weight-limit", type=int, help="Binance request weight per window (default 6000)")
    p.add_argument("--weight-window", type=float, help="seconds of a weight window (default 60)")
    p.add_argument("--ban-after", type=int, help="418 after this many 429s in a window (default 0: never)")
    p.add_argument("--ban-seconds", type=int, help="length of a 418 ban (default 120)")
    p.add_argument("--max-limit", type=int, help="largest klines limit (default 1000)")
    p.add_argument("--over-limit", choices=("clamp", "error"), help="a larger limit is clamped "
                   "(default) or refused with -1130")
    p.add_argument("--latency", type=float, help="seconds added before every data answer")
    p.add_argument("--header-case", choices=("lower", "canonical"),
                   help="header names as sent: lower (default, as over HTTP/2) or canonical")
    p.add_argument("--gzip", action="store_true",
                   help="gzip 200 answers when the client sends Accept-Encoding: gzip")
    p.add_argument("--av-api-key", help="the only Alpha Vantage key accepted (default: any non-empty)")
    p.add_argument("--av-calls-per-minute", type=int, help="answer 'Note' past this many calls a minute")
    p.add_argument("--av-calls-per-day", type=int, help="answer 'Information' past this many calls")
    p.add_argument("--av-premium-full", action="store_true", help="outputsize=full is premium-only")
    p.add_argument("--av-premium-adjusted", action="store_true", help="TIME_SERIES_DAILY_ADJUSTED is premium-only")
    p.add_argument("--fault", action="append", default=[], metavar="SPEC", help="inject a fault (repeatable)")
    p.add_argument("--faults-file", help="JSON file with a list of fault rules")
    p.add_argument("--exit-on-stdin-eof", action="store_true",
                   help="exit when standard input closes (the test that started it has gone)")
    p.add_argument("--max-lifetime", type=float, default=0, help="exit after this many seconds")
    p.add_argument("--verbose", action="store_true", help="log requests and errors on stderr")
    args = p.parse_args(argv)

    settings = data_settings(args)
    for name in ("weight_limit", "weight_window", "ban_after", "ban_seconds", "max_limit",
                 "over_limit", "latency", "header_case", "av_api_key", "av_calls_per_minute",
                 "av_calls_per_day"):
        value = getattr(args, name)
        if value is not None:
            settings[name] = value
    if args.gzip:
        settings["gzip"] = True
    if args.av_premium_full:
        settings["av_premium_full"] = True
    if args.av_premium_adjusted:
        settings["av_premium_adjusted"] = True
    if args.unknown_symbol:
        settings["unknown_symbols"] = args.unknown_symbol
    faults = list(args.fault)
    if args.faults_file:
        with open(args.faults_file, encoding="utf-8") as f:
            faults += json.load(f)
    try:
        market = Market(settings, faults, args.log)
    except ValueError as e:
        p.error(str(e))

    server = Server((args.host, args.port), Handler)
    server.market, server.verbose = market, args.verbose
    port = server.server_address[1]
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write("%d\n" % port)
        os.replace(args.port_file + ".tmp", args.port_file)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()

    stop = market.stop_event
    # A parent may start us from a thread that blocks signals (libdispatch's worker threads
    # block nearly all, and a spawned process inherits the mask): SIGTERM would stay pending.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    if args.exit_on_stdin_eof:
        def watch_stdin():
            try:   # os.read, not sys.stdin: a thread blocked in a buffered read aborts shutdown
                while os.read(0, 4096):
                    pass
            except OSError:
                pass
            stop.set()
        threading.Thread(target=watch_stdin, daemon=True).start()
    if args.max_lifetime > 0:
        timer = threading.Timer(args.max_lifetime, stop.set)
        timer.daemon = True
        timer.start()
    print("PORT %d" % port, flush=True)

    while not stop.wait(0.5):
        pass
    server.shutdown()
    server.server_close()
    market.close()
    return 0


def dump_main(argv):
    p = argparse.ArgumentParser(prog="mock_exchange.py dump",
                                description="Print a series as bt's export CSV "
                                "(time,open,high,low,close,volume), without a server.")
    p.add_argument("api", choices=("binance", "alphavantage"))
    p.add_argument("symbol")
    p.add_argument("interval", nargs="?", default="1d", help="Binance interval (default 1d)")
    p.add_argument("--from", dest="start", help="first open time (Binance)")
    p.add_argument("--to", dest="end", help="last open time (Binance)")
    p.add_argument("--incomplete", action="store_true", help="include the bar that holds now")
    p.add_argument("--adjusted", action="store_true", help="Alpha Vantage: scale by adjusted close")
    add_data_options(p)
    args = p.parse_args(argv)
    market = Market(data_settings(args), [], None)
    if args.api == "binance":
        params = {"symbol": args.symbol, "interval": args.interval}
        if args.start:
            params["startTime"] = args.start
        if args.end:
            params["endTime"] = args.end
        if args.incomplete:
            params["incomplete"] = "1"
        sys.stdout.write(binance_csv(expected_binance(market, params)))
    else:
        sys.stdout.write(av_csv(av_series_rows(market, args.symbol), args.adjusted))
    return 0


def main(argv):
    if argv and argv[0] == "dump":
        return dump_main(argv[1:])
    return serve_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
