#!/usr/bin/python3
"""bt live end to end against the local exchange (live_exchange.py) on 127.0.0.1.

Run by scripts/test-live.sh (make test-live) with BT set to the bt binary. Each case starts
its own server (stopped by its PID), runs bt live with a bounded --duration (or a signal),
and checks the session from the outside:

- the replay: `bt run ... --depth book --from START` over what the session stored gives the
  session's fills, field by field, to the last digit (the issue's correctness proof);
- the bars built from trades equal `bt data import --format trades` of the same trades;
- faults: a depth-id gap (resync), a dropped connection (reconnect, kline backfill, and the
  same fills as the clean session), a stale stream, malformed and foreign frames, SIGINT,
  and kill -9 with a resume of the journal (no fill lost or repeated).
"""

import csv
import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BT = os.environ.get("BT", os.path.join(HERE, "..", "..", "..", ".build", "debug", "bt"))
STRATEGY = ["ma-cross", "BTCUSDT", "--param", "fast=2", "--param", "slow=4", "--fee-bps", "10", "--size", "20%"]


class Exchange:
    """One live_exchange.py process; stopped (and waited for) by its PID."""

    def __init__(self, *args):
        self.proc = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "live_exchange.py"), *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            self.stop()
            raise RuntimeError("the exchange did not start: " + line + self.proc.stderr.read())
        self.port = int(line.split()[1])

    def url(self, scheme="http"):
        return "%s://127.0.0.1:%d" % (scheme, self.port)

    def get(self, path):
        import urllib.request
        with urllib.request.urlopen(self.url() + path, timeout=10) as r:
            return r.read()

    def stop(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


def live_args(exchange, db, *extra):
    return [BT, "live", *STRATEGY, "--exchange", "binance", "--ws-url", exchange.url("ws"), "--base-url", exchange.url(),
            "--db", db, "--warmup-bars", "50", "--max-backoff", "0.1", *extra]


def run_live(exchange, db, *extra, timeout=60):
    p = subprocess.run(live_args(exchange, db, "--json", *extra), capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise AssertionError("bt live failed (%d): %s" % (p.returncode, p.stderr[-3000:]))
    return json.loads(p.stdout), p.stderr


def replay_fills(summary, tmp):
    """The fills of the summary's replay command, read from the report's fills.csv."""
    words = shlex.split(summary["replay"])
    assert words[:2] == ["bt", "run"], summary["replay"]
    out = os.path.join(tmp, "replay-%d" % time.monotonic_ns())
    p = subprocess.run([BT] + words[1:] + ["--out", out, "--no-chart", "--no-costs"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise AssertionError("the replay failed: " + p.stderr[-2000:])
    with open(os.path.join(out, "fills.csv")) as f:
        return list(csv.DictReader(f))


FIELDS = ["reference_price", "vwap", "quantity_asked", "quantity_filled", "fee"]


def same_fills(test, live, replay):
    test.assertEqual(len(live), len(replay), "live %s\nreplay %s" % (live, replay))
    for a, b in zip(live, replay):
        test.assertEqual(a["time"], b["time"])
        test.assertEqual(a["side"], b["side"])
        for k in FIELDS:
            test.assertEqual(float(a[k]), float(b[k]), "%s at %s" % (k, a["time"]))


def export(db, symbol="BTCUSDT", *extra):
    p = subprocess.run([BT, "data", "export", symbol, "--db", db, *extra], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise AssertionError(p.stderr)
    return list(csv.DictReader(p.stdout.splitlines()))


class LiveTests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bt-live-")
        self.db = os.path.join(self.tmp, "live.sqlite")
        self.exchanges = []

    def tearDown(self):
        for e in self.exchanges:
            e.stop()

    def bars_equal_the_trades_import(self, ex, summary):
        """The session's stored bars equal `bt data import --format trades` of every trade the
        exchange sent (all but the last bar, which the end of the session cut short); returns
        how many bars were compared."""
        trades = os.path.join(self.tmp, "trades.jsonl")
        with open(trades, "wb") as f:
            f.write(ex.get("/_expected/trades.jsonl"))
        imported = os.path.join(self.tmp, "import.sqlite")
        p = subprocess.run([BT, "data", "import", trades, "--format", "trades", "--symbol", "BTCUSDT", "--timeframe", "1m",
                            "--db", imported], capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        live_bars = {r["time"]: r for r in export(self.db, "BTCUSDT", "--from", summary["start"])}
        import_bars = {r["time"]: r for r in export(imported)}
        compared = sorted(live_bars)[:-1]
        for t in compared:
            self.assertEqual(live_bars[t], import_bars[t], t)
        return len(compared)

    def exchange(self, *args):
        e = Exchange("--bars", "12", "--speed", "120", *args)
        self.exchanges.append(e)
        return e

    def test_clean_session_replays_exactly_and_bars_equal_the_trades_import(self):
        ex = self.exchange()
        summary, log = run_live(ex, self.db, "--duration", "6s")
        self.assertGreaterEqual(summary["bars"], 8, log)
        self.assertGreaterEqual(len(summary["fills"]), 2, log)
        self.assertEqual(summary["stream"]["gaps"], 0)
        self.assertEqual(summary["stream"]["reconnects"], 0)
        self.assertEqual(summary["stream"]["syncs"], 1)
        self.assertEqual(summary["divergences"], 0)
        same_fills(self, summary["fills"], replay_fills(summary, self.tmp))
        self.assertGreaterEqual(self.bars_equal_the_trades_import(ex, summary), 6)
        self.assertIn("bar ", log)
        self.assertIn("fill ", log)

    @unittest.skipUnless(os.environ.get("BT_L2_DATA"), "needs the converted L2 sample (BT_L2_DATA; make test-live fetches it)")
    def test_recorded_l2_session_replays_exactly(self):
        # The real Bitstamp book and prints of the ob-analytics sample, streamed as Binance would.
        ex = Exchange("--l2", os.environ["BT_L2_DATA"], "--speed", "150")
        self.exchanges.append(ex)
        summary, log = run_live(ex, self.db, "--duration", "13s")
        self.assertGreaterEqual(summary["bars"], 15, log)
        self.assertGreaterEqual(summary["stream"]["depth_updates"], 20_000, summary["stream"])
        self.assertEqual(summary["stream"]["gaps"], 0)
        self.assertGreaterEqual(len(summary["fills"]), 1, log)
        same_fills(self, summary["fills"], replay_fills(summary, self.tmp))
        self.assertGreaterEqual(self.bars_equal_the_trades_import(ex, summary), 10)

    def test_sequence_gap_resyncs_the_book_and_still_replays(self):
        ex = self.exchange("--fault", "gap@100")
        summary, log = run_live(ex, self.db, "--duration", "5s")
        self.assertGreaterEqual(summary["stream"]["gaps"], 1, log)
        self.assertGreaterEqual(summary["stream"]["syncs"], 2, log)
        self.assertIn("depth stream gap", log)
        same_fills(self, summary["fills"], replay_fills(summary, self.tmp))

    def test_dropped_connection_reconnects_backfills_and_gives_the_clean_fills(self):
        clean, _ = run_live(self.exchange(), os.path.join(self.tmp, "clean.sqlite"), "--duration", "6s")
        ex = self.exchange("--fault", "drop@150")
        summary, log = run_live(ex, self.db, "--duration", "6s")
        self.assertGreaterEqual(summary["stream"]["reconnects"], 1, log)
        self.assertGreaterEqual(summary["bars_from_klines"], 2, log)  # the first bar, and the one the drop cut
        self.assertIn("disconnected", log)
        same_fills(self, summary["fills"], replay_fills(summary, self.tmp))
        # The backfill made the bars complete, and no bar opened while the book was unknown:
        # the fills the clean session made in the same span are the same.
        n = min(len(clean["fills"]), len(summary["fills"]))
        self.assertGreaterEqual(n, 2)
        same_fills(self, summary["fills"][:n], clean["fills"][:n])

    def test_a_burst_of_100000_depth_updates_is_kept_up_with(self):
        ex = self.exchange("--fault", "burst@60,n=100000")
        began = time.monotonic()
        summary, log = run_live(ex, self.db, "--duration", "6s")
        stream = summary["stream"]
        self.assertGreaterEqual(stream["depth_updates"], 100_000, stream)
        self.assertEqual(stream["gaps"], 0, log)
        self.assertEqual(stream["syncs"], 1, log)
        self.assertLess(time.monotonic() - began, 40, "the burst was not worked through in time")
        same_fills(self, summary["fills"], replay_fills(summary, self.tmp))
        print("\nburst: %d depth updates in a %.1f s session (debug build)" % (stream["depth_updates"], summary["seconds"]),
              file=sys.stderr)

    def test_stale_stream_counts_as_lost(self):
        ex = self.exchange("--fault", "stale@90,wall=2")
        summary, log = run_live(ex, self.db, "--duration", "5s", "--stale-seconds", "0.5")
        self.assertGreaterEqual(summary["stream"]["reconnects"], 1, log)
        self.assertIn("no message for", log)
        same_fills(self, summary["fills"], replay_fills(summary, self.tmp))

    def test_malformed_and_foreign_frames_are_counted_and_skipped(self):
        ex = self.exchange("--fault", "junk@60")
        summary, log = run_live(ex, self.db, "--duration", "4s")
        skipped = summary["stream"]["skipped"]
        self.assertGreaterEqual(skipped.get("malformed", 0), 1, skipped)
        self.assertGreaterEqual(skipped.get("other_symbol", 0), 1, skipped)
        self.assertGreaterEqual(skipped.get("bad_number", 0), 2, skipped)
        self.assertIn("skipped a frame", log)
        same_fills(self, summary["fills"], replay_fills(summary, self.tmp))

    def test_sigint_ends_cleanly_with_the_summary(self):
        ex = self.exchange()
        p = subprocess.Popen(live_args(ex, self.db, "--json"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(4)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 0, err)
        summary = json.loads(out)
        self.assertGreaterEqual(summary["bars"], 3, err)
        same_fills(self, summary["fills"], replay_fills(summary, self.tmp))

    def test_kill_9_and_resume_lose_and_repeat_no_fill(self):
        ex = self.exchange("--bars", "16")
        p = subprocess.Popen(live_args(ex, self.db, "--journal", "k", "--duration", "60s"), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        time.sleep(3.5)
        os.kill(p.pid, signal.SIGKILL)
        _, err1 = p.communicate(timeout=30)
        self.assertIn("fill ", err1, "the first run should have filled before the kill")
        summary, err2 = run_live(ex, self.db, "--journal", "k", "--duration", "4s")
        self.assertIn("resuming journal 'k'", err2)
        with sqlite3.connect(self.db) as db:
            journal = [dict(zip(["time", "side", "quantity", "vwap", "fee"], row)) for row in db.execute(
                "SELECT time, side, quantity, vwap, fee FROM live_fills WHERE journal = 'k' ORDER BY seq")]
        replay = replay_fills(summary, self.tmp)
        self.assertEqual(len(journal), len(replay), "journal %s\nreplay %s" % (journal, replay))
        for j, r in zip(journal, replay):
            self.assertEqual(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(j["time"])), r["time"])
            self.assertEqual(j["side"], r["side"])
            self.assertEqual(j["quantity"], float(r["quantity_filled"]))
            self.assertEqual(j["vwap"], float(r["vwap"]))
            self.assertEqual(j["fee"], float(r["fee"]))
        self.assertEqual(len({(j["time"], j["side"]) for j in journal}), len(journal), "a fill was journaled twice")
        self.assertEqual(summary["divergences"], 0)

    def test_bad_usage_exits_2(self):
        ex = self.exchange()
        for extra, words in [(["--depth", "synthetic"], "live order book"), (["--max-participation", "0.1"], "volume"),
                             (["--duration", "soon"], "duration"), (["--exchange", "kraken"], "exchange"),
                             (["--fps", "0"], "--fps must be 1 to 30")]:
            p = subprocess.run(live_args(ex, self.db, *extra), capture_output=True, text=True, timeout=30)
            self.assertEqual(p.returncode, 2, (extra, p.stderr))
            self.assertIn(words, p.stderr)
            self.assertFalse(os.path.exists(self.db), "a refused command must not create the store")


if __name__ == "__main__":
    unittest.main(verbosity=2)
