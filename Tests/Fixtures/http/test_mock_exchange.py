#!/usr/bin/env python3
"""Self-test of mock_exchange.py (standard library only): starts the server as a subprocess on
loopback and drives every behaviour over HTTP with urllib.

    python3 Tests/Fixtures/http/test_mock_exchange.py        # or: python3 -m unittest -v ...
"""
import gzip
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "mock_exchange.py")
sys.path.insert(0, HERE)
import mock_exchange  # noqa: E402  (defaults and helpers only; the server runs as a subprocess)

NOW = mock_exchange.parse_time(mock_exchange.SETTING_DEFAULTS["now"])   # 2024-03-15T12:34:56.789Z
MIN = 60_000


class MockServer:
    """The mock as a subprocess; `PORT <n>` is read from its stdout."""

    def __init__(self, *args, stdin=subprocess.DEVNULL):
        self.log = tempfile.NamedTemporaryFile(prefix="mock-exchange-", suffix=".jsonl", delete=False).name
        self.proc = subprocess.Popen([sys.executable, SCRIPT, "--log", self.log, *args],
                                     stdin=stdin, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            self.proc.kill()
            raise RuntimeError("mock_exchange.py printed %r" % line)
        self.port = int(line.split()[1])
        self.base = "http://127.0.0.1:%d" % self.port

    def url(self, path, **params):
        return self.base + path + ("?" + urllib.parse.urlencode(params) if params else "")

    def get(self, path, timeout=10, **params):
        """(status, headers, body bytes); HTTP errors are answers too."""
        try:
            with urllib.request.urlopen(self.url(path, **params), timeout=timeout) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def json(self, path, **params):
        status, headers, body = self.get(path, **params)
        return status, headers, json.loads(body)

    def control(self, **changes):
        req = urllib.request.Request(self.base + "/_control", data=json.dumps(changes).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def stats(self):
        return self.json("/_stats")[2]

    def klines(self, **params):
        params.setdefault("symbol", "BTCUSDT")
        params.setdefault("interval", "1m")
        return self.json("/api/v3/klines", **params)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        if os.path.exists(self.log):
            os.unlink(self.log)


def ohlc_ok(o, h, l, c):
    return l <= min(o, c) and h >= max(o, c) and l > 0


def cents(text):
    return abs(float(text) * 100 - round(float(text) * 100)) < 1e-6


class ServerTestCase(unittest.TestCase):
    server = None

    @classmethod
    def setUpClass(cls):
        cls.server = MockServer()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def setUp(self):
        defaults = dict(mock_exchange.SETTING_DEFAULTS)
        self.server.control(reset=True, **defaults)


class ProcessTests(unittest.TestCase):
    def test_prints_port_and_exits_cleanly_on_sigterm(self):
        s = MockServer()
        self.assertEqual(s.get("/api/v3/ping")[0], 200)
        s.proc.send_signal(signal.SIGTERM)
        self.assertEqual(s.proc.wait(5), 0)
        s.stop()

    def test_exits_when_stdin_closes(self):
        s = MockServer("--exit-on-stdin-eof", stdin=subprocess.PIPE)
        s.proc.stdin.close()
        self.assertEqual(s.proc.wait(5), 0)
        s.stop()

    def test_sigterm_while_watching_stdin(self):
        s = MockServer("--exit-on-stdin-eof", stdin=subprocess.PIPE)
        s.proc.send_signal(signal.SIGTERM)
        self.assertEqual(s.proc.wait(5), 0)
        s.proc.stdin.close()
        s.stop()

    def test_port_file_and_command_line_faults(self):
        port_file = tempfile.mktemp(prefix="mock-port-")
        s = MockServer("--port-file", port_file, "--fault", "rate_limit@2,retry_after=7",
                       "--fault", '{"kind": "server_error", "request": 3, "status": 502}',
                       "--unknown-symbol", "NOPE", "--header-case", "canonical")
        try:
            with open(port_file) as f:
                self.assertEqual(int(f.read()), s.port)
            self.assertEqual(s.klines()[0], 200)
            status, headers, body = s.klines()
            self.assertEqual((status, headers["Retry-After"], body["code"]), (429, "7", -1003))
            status, headers, body = s.get("/api/v3/klines", symbol="BTCUSDT", interval="1m")
            self.assertEqual((status, headers.get_content_type()), (502, "text/html"))
            self.assertEqual(s.klines(symbol="NOPE")[2], {"code": -1121, "msg": "Invalid symbol."})
            raw = socket.create_connection(("127.0.0.1", s.port), timeout=5)
            raw.sendall(b"GET /api/v3/ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            head = b""
            while b"\r\n\r\n" not in head:
                head += raw.recv(4096)
            raw.close()
            self.assertIn(b"X-MBX-USED-WEIGHT-1M:", head)
        finally:
            s.stop()
            os.unlink(port_file)

    def test_dump_matches_expected_endpoint(self):
        s = MockServer("--binance-start", "2024-03-10")
        try:
            _, _, served = s.get("/_expected/binance", symbol="ETHUSDT", interval="1h", format="csv")
            _, _, served_av = s.get("/_expected/alphavantage", symbol="IBM", adjusted="1", format="csv")
        finally:
            s.stop()
        dumped = subprocess.run([sys.executable, SCRIPT, "dump", "binance", "ETHUSDT", "1h",
                                 "--binance-start", "2024-03-10"], capture_output=True, text=True, check=True)
        self.assertEqual(dumped.stdout, served.decode())
        lines = dumped.stdout.splitlines()
        self.assertEqual(lines[0], "time,open,high,low,close,volume")
        self.assertEqual(lines[1].split(",")[0], "2024-03-10T00:00:00Z")
        self.assertEqual(len(lines) - 1, 5 * 24 + 12)      # complete hours up to 12:34:56
        dumped_av = subprocess.run([sys.executable, SCRIPT, "dump", "alphavantage", "IBM", "--adjusted"],
                                   capture_output=True, text=True, check=True)
        self.assertEqual(dumped_av.stdout, served_av.decode())


class KlinesTests(ServerTestCase):
    def test_rows_have_the_documented_shape(self):
        status, headers, rows = self.server.klines(limit=50)
        self.assertEqual(status, 200)
        self.assertEqual(len(rows), 50)
        for row in rows:
            self.assertEqual(len(row), 12)
            self.assertIsInstance(row[0], int)
            self.assertIsInstance(row[6], int)
            self.assertIsInstance(row[8], int)
            for k in (1, 2, 3, 4, 5, 7, 9, 10):
                self.assertIsInstance(row[k], str)
                self.assertRegex(row[k], r"^\d+\.\d{8}$")
            self.assertEqual(row[11], "0")
            o, h, l, c = (float(row[k]) for k in (1, 2, 3, 4))
            self.assertTrue(ohlc_ok(o, h, l, c), row)
            self.assertTrue(all(cents(row[k]) for k in (1, 2, 3, 4)), row)
            self.assertEqual(row[6], row[0] + MIN - 1)
        for a, b in zip(rows, rows[1:]):
            self.assertEqual(b[0], a[0] + MIN)
            self.assertEqual(b[1], a[4])                  # open = previous close
        self.assertLessEqual(rows[-1][0], NOW)
        self.assertGreater(rows[-1][6], NOW)              # the current bar is incomplete
        self.assertTrue(headers["content-type"].startswith("application/json"))

    def test_paging_through_2500_bars_takes_three_pages(self):
        current_open = NOW - NOW % MIN
        listing = current_open - 2499 * MIN
        self.server.control(binance_start=listing)
        pages, start = [], 0
        while True:
            status, _, rows = self.server.klines(startTime=start, limit=1000)
            self.assertEqual(status, 200)
            if not rows:
                break
            pages.append(rows)
            start = rows[-1][0] + 1
        self.assertEqual([len(p) for p in pages], [1000, 1000, 500])
        bars = [r for p in pages for r in p]
        self.assertEqual(bars[0][0], listing)
        self.assertEqual(bars[-1][0], current_open)
        self.assertGreater(bars[-1][6], NOW)
        _, _, expected = self.server.json("/_expected/binance", symbol="BTCUSDT", interval="1m", incomplete="1")
        self.assertEqual(bars, expected)
        _, _, complete = self.server.json("/_expected/binance", symbol="BTCUSDT", interval="1m")
        self.assertEqual(complete, bars[:-1])
        with open(self.server.log) as f:
            log = [json.loads(line) for line in f]
        klines = [e for e in log if e.get("path") == "/api/v3/klines"][-4:]
        self.assertEqual([e["query"]["startTime"] for e in klines],
                         ["0", str(bars[999][0] + 1), str(bars[1999][0] + 1), str(bars[-1][0] + 1)])
        self.assertEqual([e["rows"] for e in klines], [1000, 1000, 500, 0])

    def test_limit_default_max_and_refusal(self):
        self.assertEqual(len(self.server.klines()[2]), 500)
        self.assertEqual(len(self.server.klines(limit=5000)[2]), 1000)
        self.server.control(over_limit="error")
        self.assertEqual(self.server.klines(limit=5000)[2]["code"], -1130)
        self.assertEqual(self.server.klines(limit=0)[2]["code"], -1130)

    def test_time_range_semantics(self):
        t0 = NOW - NOW % MIN - 100 * MIN
        _, _, rows = self.server.klines(startTime=t0, endTime=t0 + 9 * MIN)
        self.assertEqual([r[0] for r in rows], [t0 + k * MIN for k in range(10)])   # both inclusive
        _, _, rows = self.server.klines(startTime=t0 + 1, limit=3)
        self.assertEqual(rows[0][0], t0 + MIN)            # first open >= startTime
        _, _, rows = self.server.klines(endTime=t0 + 30_000, limit=4)
        self.assertEqual([r[0] for r in rows], [t0 - 3 * MIN, t0 - 2 * MIN, t0 - MIN, t0])
        _, _, rows = self.server.klines(startTime=NOW + MIN)
        self.assertEqual(rows, [])
        _, _, rows = self.server.klines(endTime=0)
        self.assertEqual(rows, [])
        _, _, rows = self.server.klines(startTime=0, limit=1)
        self.assertEqual(rows[0][0], mock_exchange.parse_time("2024-01-01"))

    def test_per_symbol_listing_and_listing_inside_a_bar(self):
        self.server.control(listing={"NEWUSDT": "2024-03-15T10:37:00Z"})
        _, _, rows = self.server.klines(symbol="NEWUSDT", interval="1h", startTime=0)
        self.assertEqual(rows[0][0], mock_exchange.parse_time("2024-03-15T10:00:00Z"))   # the bar holding the listing
        self.assertEqual(len(rows), 3)                                                  # 10:00, 11:00, 12:00 (current)
        self.assertEqual(self.server.klines(symbol="NEWUSDT", endTime=mock_exchange.parse_time("2024-03-15T10:00Z"))[2], [])
        self.assertEqual(len(self.server.klines(symbol="BTCUSDT", interval="1d", startTime=0, limit=1000)[2]), 75)

    def test_every_interval_is_aligned_and_valid(self):
        self.server.control(binance_start="2021-06-01")
        for name in mock_exchange.INTERVAL_NAMES:
            status, _, rows = self.server.klines(interval=name, limit=30)
            self.assertEqual(status, 200, name)
            self.assertTrue(rows, name)
            for a, b in zip(rows, rows[1:]):
                self.assertEqual(a[6], b[0] - 1, name)
            for r in rows:
                self.assertTrue(ohlc_ok(*(float(r[k]) for k in (1, 2, 3, 4))), (name, r))
                opened = datetime.fromtimestamp(r[0] / 1000, timezone.utc)
                if name == "1w":
                    self.assertEqual((opened.weekday(), opened.hour), (0, 0))
                elif name == "1M":
                    self.assertEqual((opened.day, opened.hour), (1, 0))
                elif name == "1d":
                    self.assertEqual((opened.hour, opened.minute), (0, 0))
                elif name == "4h":
                    self.assertEqual((opened.hour % 4, opened.minute), (0, 0))
            self.assertLessEqual(rows[-1][0], NOW)
            self.assertGreater(rows[-1][6], NOW)
        _, _, months = self.server.klines(interval="1M", startTime=mock_exchange.parse_time("2024-01-01"))
        self.assertEqual([r[6] for r in months[:2]], [mock_exchange.parse_time("2024-02-01") - 1,
                                                      mock_exchange.parse_time("2024-03-01") - 1])

    def test_bars_do_not_depend_on_the_request(self):
        _, _, whole = self.server.klines(startTime=0, limit=1000)
        pieces = []
        for k in range(10):
            pieces += self.server.klines(startTime=whole[0][0] + k * 100 * MIN, limit=100)[2]
        self.assertEqual(pieces, whole)
        self.server.control(seed=8)
        self.assertNotEqual(self.server.klines(startTime=0, limit=5)[2], whole[:5])

    def test_moving_now_completes_the_current_bar(self):
        _, _, before = self.server.klines(limit=3)
        self.server.control(now=NOW + 2 * MIN)
        _, _, after = self.server.klines(startTime=before[0][0], limit=5)
        self.assertEqual(after[:2], before[:2])
        self.assertEqual(after[2][0], before[2][0])
        self.assertLess(after[2][6], NOW + 2 * MIN)       # complete now
        self.assertEqual(len(after), 5)
        self.assertGreater(after[4][6], NOW + 2 * MIN)

    def test_errors_as_binance_answers_them(self):
        self.server.control(unknown_symbols=["NOSUCHCOIN"])
        cases = [
            ({"symbol": "NOSUCHCOIN"}, 400, -1121),
            ({"symbol": "btcusdt"}, 400, -1100),
            ({"interval": "7m"}, 400, -1120),
            ({"symbol": ""}, 400, -1102),
            ({"startTime": 10, "endTime": 5}, 400, -1023),
            ({"startTime": "yesterday"}, 400, -1100),
        ]
        for params, status, code in cases:
            got = self.server.klines(**params)
            self.assertEqual((got[0], got[2]["code"]), (status, code), params)
        self.assertEqual(self.server.get("/api/v3/klines?symbol=A&symbol=B&interval=1m")[0], 400)
        status, _, body = self.server.json("/api/v3/klines?symbol=A&symbol=B&interval=1m")
        self.assertEqual(body["code"], -1101)
        self.assertEqual(self.server.get("/nothing")[0], 404)

    def test_other_endpoints(self):
        self.assertEqual(self.server.json("/api/v3/time")[2], {"serverTime": NOW})
        self.assertEqual(self.server.json("/api/v3/ping")[2], {})
        info = self.server.json("/api/v3/exchangeInfo", symbol="ETHBTC")[2]
        self.assertEqual(info["symbols"][0]["quoteAsset"], "BTC")
        self.assertEqual(info["rateLimits"][0]["limit"], 6000)

    def test_weight_headers_and_natural_rate_limit_then_ban(self):
        _, h1, _ = self.server.klines(limit=1)
        _, h2, _ = self.server.klines(limit=1)
        self.assertEqual((h1["x-mbx-used-weight-1m"], h2["x-mbx-used-weight-1m"]), ("2", "4"))
        self.server.control(reset=True, weight_limit=4, ban_after=1, ban_seconds=30)
        self.assertEqual(self.server.klines(limit=1)[0], 200)
        self.assertEqual(self.server.klines(limit=1)[0], 200)
        status, headers, body = self.server.klines(limit=1)
        self.assertEqual((status, body["code"]), (429, -1003))
        self.assertTrue(1 <= int(headers["Retry-After"]) <= 60)
        status, headers, _ = self.server.klines(limit=1)
        self.assertEqual((status, headers["Retry-After"]), (418, "30"))
        status, headers, _ = self.server.klines(limit=1)
        self.assertEqual(status, 418)
        self.assertLessEqual(int(headers["Retry-After"]), 30)
        self.assertEqual(self.server.stats()["by_status"], {"200": 2, "429": 1, "418": 2})


class FaultTests(ServerTestCase):
    def test_rate_limit_on_the_nth_request(self):
        self.server.control(faults=["rate_limit@2,retry_after=3"])
        self.assertEqual(self.server.klines(limit=1)[0], 200)
        status, headers, body = self.server.klines(limit=1)
        self.assertEqual((status, headers["Retry-After"], body["code"]), (429, "3", -1003))
        self.assertEqual(self.server.klines(limit=1)[0], 200)
        stats = self.server.stats()
        self.assertEqual(stats["by_fault"], {"rate_limit": 1})
        self.assertEqual(stats["faults"][0]["fired"], 1)

    def test_ban(self):
        self.server.control(faults=[{"kind": "ban", "request": 1, "retry_after": 60}])
        status, headers, body = self.server.klines(limit=1)
        self.assertEqual((status, headers["Retry-After"], body["code"]), (418, "60", -1003))

    def test_server_errors_k_times_then_success(self):
        self.server.control(faults=["server_error@2x3"])
        statuses = [self.server.get("/api/v3/klines", symbol="BTCUSDT", interval="1m", limit=1)[0]
                    for _ in range(5)]
        self.assertEqual(statuses, [200, 503, 503, 503, 200])
        self.server.control(reset=True, faults=["server_error@1+,status=500"])
        statuses = [self.server.get("/api/v3/klines", symbol="BTCUSDT", interval="1m", limit=1)[0]
                    for _ in range(3)]
        self.assertEqual(statuses, [500, 500, 500])

    def test_fault_counted_on_one_path_only(self):
        self.server.control(faults=["server_error@2,api=/api/v3/klines"])
        self.assertEqual(self.server.get("/api/v3/time")[0], 200)
        self.assertEqual(self.server.get("/api/v3/klines", symbol="X", interval="1m")[0], 200)
        self.assertEqual(self.server.get("/api/v3/time")[0], 200)
        self.assertEqual(self.server.get("/api/v3/klines", symbol="X", interval="1m")[0], 503)

    def test_truncated_json_with_matching_length(self):
        self.server.control(faults=["truncate@1,fraction=0.3"])
        with urllib.request.urlopen(self.server.url("/api/v3/klines", symbol="BTCUSDT", interval="1m")) as r:
            self.assertEqual(r.status, 200)
            body = r.read()
            self.assertEqual(len(body), int(r.headers["Content-Length"]))
        with self.assertRaises(json.JSONDecodeError):
            json.loads(body)

    def test_truncated_body_shorter_than_declared(self):
        self.server.control(faults=["truncate@1,mode=short"])
        with urllib.request.urlopen(self.server.url("/api/v3/klines", symbol="BTCUSDT", interval="1m")) as r:
            with self.assertRaises(http.client.IncompleteRead):
                r.read()

    def test_slow_headers_trigger_a_client_timeout(self):
        self.server.control(faults=["slow@1,where=headers,seconds=1.5"])
        started = time.monotonic()
        with self.assertRaises((socket.timeout, urllib.error.URLError)):
            urllib.request.urlopen(self.server.url("/api/v3/ping"), timeout=0.3).read()
        self.assertLess(time.monotonic() - started, 1.2)
        self.assertEqual(self.server.get("/api/v3/ping", timeout=5)[0], 200)

    def test_slow_body_stalls_mid_body(self):
        self.server.control(faults=["slow@1,where=body,seconds=1.5"])
        r = urllib.request.urlopen(self.server.url("/api/v3/klines", symbol="BTCUSDT", interval="1m"), timeout=0.4)
        self.assertEqual(r.status, 200)
        with self.assertRaises(socket.timeout):
            r.read()
        r.close()
        self.server.control(reset=True, faults=["slow@1,where=body,seconds=0.3"])
        status, _, body = self.server.klines(limit=10)
        self.assertEqual((status, len(body)), (200, 10))

    def test_connection_reset_mid_body(self):
        self.server.control(faults=["reset@1"])
        with self.assertRaises((ConnectionResetError, http.client.IncompleteRead)):
            with urllib.request.urlopen(self.server.url("/api/v3/klines", symbol="BTCUSDT", interval="1m",
                                                        limit=1000)) as r:
                r.read()

    def test_connection_reset_before_any_byte(self):
        self.server.control(faults=["reset@1,where=headers"])
        with self.assertRaises((ConnectionResetError, http.client.RemoteDisconnected, urllib.error.URLError)):
            urllib.request.urlopen(self.server.url("/api/v3/ping")).read()
        self.assertEqual(self.server.get("/api/v3/ping")[0], 200)

    def test_close_without_an_answer(self):
        self.server.control(faults=["close@1"])
        with self.assertRaises((http.client.RemoteDisconnected, urllib.error.URLError)):
            urllib.request.urlopen(self.server.url("/api/v3/ping")).read()
        self.assertEqual(self.server.stats()["by_fault"], {"close": 1})

    def test_gzip_when_asked(self):
        self.server.control(gzip=True)
        plain = self.server.get("/api/v3/klines", symbol="BTCUSDT", interval="1m", limit=100)[2]
        req = urllib.request.Request(self.server.url("/api/v3/klines", symbol="BTCUSDT", interval="1m", limit=100),
                                     headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(req) as r:
            self.assertEqual(r.headers["Content-Encoding"], "gzip")
            packed = r.read()
        self.assertLess(len(packed), len(plain))
        self.assertEqual(gzip.decompress(packed), plain)

    def test_empty_page_and_raw_answer(self):
        self.server.control(faults=["empty@1", {"kind": "raw", "request": 2, "status": 200,
                                                "body": "[[1,2]]", "headers": {"X-Extra": "yes"}}])
        self.assertEqual(self.server.klines()[2], [])
        status, headers, body = self.server.get("/api/v3/klines", symbol="BTCUSDT", interval="1m")
        self.assertEqual((status, headers["x-extra"], body), (200, "yes", b"[[1,2]]"))

    def test_bad_fault_specs_are_refused(self):
        for spec in ("explode@1", "rate_limit@0", "slow@1,seconds"):
            req = urllib.request.Request(self.server.base + "/_control", method="POST",
                                         data=json.dumps({"faults": [spec]}).encode())
            with self.assertRaises(urllib.error.HTTPError) as ctx:
                urllib.request.urlopen(req)
            self.assertEqual(ctx.exception.code, 400, spec)

    def test_request_log_and_stats(self):
        self.server.control(faults=["rate_limit@2"])
        self.server.klines(startTime=123, limit=2)
        self.server.klines(startTime=456, limit=2)
        self.server.json("/query", function="TIME_SERIES_DAILY", symbol="IBM", apikey="k")
        entries = self.server.json("/_requests")[2]
        self.assertEqual([(e["seq"], e["api"], e["status"], e["fault"]) for e in entries],
                         [(1, "binance", 200, None), (2, "binance", 429, "rate_limit"), (3, "alphavantage", 200, None)])
        self.assertEqual(entries[1]["query"], {"symbol": "BTCUSDT", "interval": "1m", "startTime": "456", "limit": "2"})
        self.assertTrue(entries[0]["peer"].startswith("127.0.0.1:"))
        self.assertEqual([e["seq"] for e in self.server.json("/_requests", since=2)[2]], [3])
        with open(self.server.log) as f:
            lines = [json.loads(line) for line in f]
        self.assertEqual(lines[-3:], entries)
        stats = self.server.stats()
        self.assertEqual(stats["requests"], {"total": 3, "binance": 2, "alphavantage": 1, "other": 0})
        self.assertEqual(stats["by_path"], {"/api/v3/klines": 2, "/query": 1})


class AlphaVantageTests(ServerTestCase):
    def query(self, **params):
        params.setdefault("function", "TIME_SERIES_DAILY")
        params.setdefault("symbol", "IBM")
        params.setdefault("apikey", "demo")
        return self.server.json("/query", **params)

    def test_daily_compact_and_full(self):
        status, _, body = self.query()
        self.assertEqual(status, 200)
        meta = body["Meta Data"]
        self.assertEqual(list(meta), ["1. Information", "2. Symbol", "3. Last Refreshed", "4. Output Size", "5. Time Zone"])
        self.assertEqual((meta["2. Symbol"], meta["3. Last Refreshed"], meta["4. Output Size"]), ("IBM", "2024-03-14", "Compact"))
        days = body["Time Series (Daily)"]
        self.assertEqual(len(days), 100)
        dates = list(days)
        self.assertEqual(dates, sorted(dates, reverse=True))          # newest first
        self.assertEqual(list(days[dates[0]]), ["1. open", "2. high", "3. low", "4. close", "5. volume"])
        for d, f in days.items():
            self.assertLess(datetime.strptime(d, "%Y-%m-%d").weekday(), 5)
            o, h, l, c = (float(f[k]) for k in ("1. open", "2. high", "3. low", "4. close"))
            self.assertTrue(ohlc_ok(o, h, l, c), (d, f))
            self.assertRegex(f["1. open"], r"^\d+\.\d{4}$")
            self.assertRegex(f["5. volume"], r"^\d+$")
        full = self.query(outputsize="full")[2]
        self.assertEqual(full["Meta Data"]["4. Output Size"], "Full size")
        self.assertEqual(list(full["Time Series (Daily)"])[-1], "2014-01-02")
        self.assertEqual(list(full["Time Series (Daily)"].items())[:100], list(days.items()))

    def test_adjusted_series_back_adjusts_splits_and_dividends(self):
        body = self.query(function="TIME_SERIES_DAILY_ADJUSTED", outputsize="full")[2]
        self.assertEqual(body["Meta Data"]["1. Information"], "Daily Time Series with Splits and Dividend Events")
        rows = list(reversed(list(body["Time Series (Daily)"].items())))   # oldest first
        self.assertEqual(list(rows[0][1]), ["1. open", "2. high", "3. low", "4. close", "5. adjusted close",
                                            "6. volume", "7. dividend amount", "8. split coefficient"])
        splits = [i for i, (_, f) in enumerate(rows) if f["8. split coefficient"] != "1.0"]
        dividends = [i for i, (_, f) in enumerate(rows) if f["7. dividend amount"] != "0.0000"]
        self.assertEqual(splits, [1000, 2500])
        self.assertGreater(len(dividends), 30)
        last = rows[-1][1]
        self.assertEqual(last["5. adjusted close"], last["4. close"])
        factor = 1.0
        for k in range(len(rows) - 1, 0, -1):
            f = rows[k][1]
            self.assertAlmostEqual(float(f["5. adjusted close"]), float(f["4. close"]) * factor, delta=6e-5)
            dividend, split = float(f["7. dividend amount"]), float(f["8. split coefficient"])
            factor *= (1 - dividend / float(rows[k - 1][1]["4. close"])) / split
        i = splits[0]
        self.assertLess(float(rows[i][1]["1. open"]), 0.6 * float(rows[i - 1][1]["4. close"]))

    def test_key_function_and_symbol_errors(self):
        self.assertIn("Error Message", self.query(apikey="")[2])
        self.server.control(av_api_key="secret", unknown_symbols=["NOPE"])
        self.assertIn("Error Message", self.query(apikey="other")[2])
        self.assertIn("Time Series (Daily)", self.query(apikey="secret")[2])
        self.assertIn("Error Message", self.query(apikey="secret", function="TIME_SERIES_HOURLY")[2])
        status, _, body = self.query(apikey="secret", symbol="NOPE")
        self.assertEqual((status, list(body)), (200, ["Error Message"]))

    def test_note_and_information_faults(self):
        self.server.control(faults=["av_note@1", "av_information@2", "invalid_symbol@3,api=alphavantage"])
        self.assertEqual(list(self.query()[2]), ["Note"])
        self.assertEqual(list(self.query()[2]), ["Information"])
        self.assertEqual(list(self.query()[2]), ["Error Message"])
        self.assertIn("Time Series (Daily)", self.query()[2])

    def test_natural_limits_and_premium_answers(self):
        self.server.control(av_calls_per_day=2)
        self.assertIn("Time Series (Daily)", self.query()[2])
        self.assertIn("Time Series (Daily)", self.query()[2])
        self.assertEqual(list(self.query()[2]), ["Information"])
        self.server.control(reset=True, av_calls_per_day=0, av_calls_per_minute=1)
        self.assertIn("Time Series (Daily)", self.query()[2])
        self.assertEqual(list(self.query()[2]), ["Note"])
        self.server.control(reset=True, av_calls_per_minute=0, av_premium_full=True, av_premium_adjusted=True)
        self.assertEqual(list(self.query(outputsize="full")[2]), ["Information"])
        self.assertEqual(list(self.query(function="TIME_SERIES_DAILY_ADJUSTED")[2]), ["Information"])
        self.assertIn("Time Series (Daily)", self.query()[2])

    def test_csv_datatype(self):
        _, headers, body = self.server.get("/query", function="TIME_SERIES_DAILY_ADJUSTED", symbol="IBM",
                                           apikey="k", datatype="csv")
        lines = body.decode().splitlines()
        self.assertEqual(lines[0], "timestamp,open,high,low,close,adjusted_close,volume,dividend_amount,split_coefficient")
        self.assertEqual(len(lines), 101)
        self.assertTrue(lines[1].startswith("2024-03-14,"))

    def test_todays_bar_appears_at_the_open_and_grows(self):
        self.server.control(now="2024-03-15T15:00:00Z")
        days = self.query()[2]["Time Series (Daily)"]
        self.assertEqual(list(days)[0], "2024-03-15")
        partial = days["2024-03-15"]
        self.server.control(now="2024-03-15T22:00:00Z")
        complete = self.query()[2]["Time Series (Daily)"]["2024-03-15"]
        self.assertEqual(partial["1. open"], complete["1. open"])
        self.assertLess(int(partial["5. volume"]), int(complete["5. volume"]))
        self.server.control(now="2024-03-16T12:00:00Z")            # Saturday
        self.assertEqual(list(self.query()[2]["Time Series (Daily)"])[0], "2024-03-15")


if __name__ == "__main__":
    unittest.main(verbosity=2)
