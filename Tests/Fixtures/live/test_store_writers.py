#!/usr/bin/python3
"""Several bt processes writing one store at once: every write of each lands, the store whole.

Run by scripts/test-store-writers.sh (make test-writers, part of make test) with BT set to the
bt binary. Every pair and every triple of the four kinds of writer runs at the same time on one
store that already holds GOOG (the shipped daily bars) and a synthetic symbol with its book:

- live:      `bt live` against the local exchange (live_exchange.py on 127.0.0.1), writing each
             bar, its book and its journal as the session goes;
- import:    `bt data import` of the shipped EURUSD under a new symbol, again and again;
- fetch:     `bt data fetch binance` from a second local exchange whose clock runs, so each
             fetch resumes the stored series and adds the bars closed since;
- calibrate: `bt calibrate` of the synthetic symbol, storing its depth profile each time.

After each case: SQLite's integrity check is "ok"; GOOG and the synthetic symbol read back
exactly as they were stored before; every writer exited 0 every time; everything each one wrote
is there (the live session's bars, every imported symbol, the fetched series, the profile).
The code before this was fixed left the store damaged, or the live session dead, in these
cases: bt read a store's header through descriptors of its own, and closing one dropped the SQLite
locks of its open connections. Every server is stopped by its PID; each case is bounded by the
live session's --duration (or a fixed time without it).
"""

import itertools
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_live import BT, Exchange  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
KINDS = ["live", "import", "fetch", "calibrate"]
SECONDS = 8.0


def bt(*args, timeout=120):
    return subprocess.run([BT, *args], capture_output=True, text=True, timeout=timeout)


class Writers(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bt-writers-")
        self.db = os.path.join(self.tmp, "store.sqlite")
        self.exchanges = []
        for args in (["data", "import", os.path.join(ROOT, "data", "GOOG.csv")],
                     ["data", "synth", "--symbols", "1", "--bars", "300", "--book"]):
            r = bt(*args, "--db", self.db)
            self.assertEqual(r.returncode, 0, r.stderr)
        self.before = {s: self.export(s) for s in ("GOOG", "SYN0001")}

    def tearDown(self):
        for e in self.exchanges:
            e.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def export(self, symbol):
        r = bt("data", "export", symbol, "--db", self.db)
        self.assertEqual(r.returncode, 0, "export %s: %s" % (symbol, r.stderr))
        return r.stdout

    def exchange(self, *args):
        e = Exchange(*args)
        self.exchanges.append(e)
        return e

    def run_case(self, kinds):
        failures = []
        done = threading.Event()
        written = {"import": [], "fetch": 0, "calibrate": 0}
        live = None
        if "live" in kinds:
            ex = self.exchange("--bars", "30", "--speed", "120")
            live = subprocess.Popen([BT, "live", "ma-cross", "BTCUSDT", "--param", "fast=2", "--param", "slow=4",
                                     "--exchange", "binance", "--ws-url", ex.url("ws"), "--base-url", ex.url(),
                                     "--db", self.db, "--warmup-bars", "50", "--max-backoff", "0.1", "--json",
                                     "--duration", "%gs" % SECONDS],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        fetch_url = self.exchange("--symbol", "ETHUSDT", "--bars", "60", "--speed", "120").url() if "fetch" in kinds else None

        def loop(kind):
            i = 0
            while not done.is_set() and i < 200:
                i += 1
                if kind == "import":
                    symbol = "IMP%d" % i
                    r = bt("data", "import", os.path.join(ROOT, "data", "EURUSD.csv"), "--symbol", symbol, "--db", self.db)
                    if r.returncode == 0:
                        written["import"].append(symbol)
                elif kind == "fetch":
                    r = bt("data", "fetch", "binance", "ETHUSDT", "--interval", "1m", "--base-url", fetch_url,
                           "--timeout", "10", "--db", self.db)
                    written["fetch"] += r.returncode == 0
                else:
                    r = bt("calibrate", "SYN0001", "--db", self.db)
                    written["calibrate"] += r.returncode == 0
                if r.returncode != 0:
                    failures.append("%s #%d exited %d: %s" % (kind, i, r.returncode, r.stderr[-1500:]))
                    return

        threads = [threading.Thread(target=loop, args=(k,)) for k in kinds if k != "live"]
        for t in threads:
            t.start()
        summary = None
        if live is not None:
            try:
                out, err = live.communicate(timeout=SECONDS + 60)
            except subprocess.TimeoutExpired:
                live.kill()
                out, err = live.communicate()
                failures.append("bt live did not end")
            if live.returncode != 0:
                failures.append("bt live exited %d: %s" % (live.returncode, err[-3000:]))
            else:
                summary = json.loads(out)
        else:
            time.sleep(SECONDS)
        done.set()
        for t in threads:
            t.join(timeout=180)
        name = "+".join(kinds)
        self.assertEqual(failures, [], name)

        # The store is whole, and nothing stored before the writers changed.
        with sqlite3.connect("file:%s?mode=ro" % self.db, uri=True) as c:
            self.assertEqual(c.execute("PRAGMA integrity_check").fetchall(), [("ok",)], name)
            profiles = c.execute("SELECT count(*) FROM depth_profiles WHERE symbol = 'SYN0001'").fetchone()[0]
        for symbol, text in self.before.items():
            self.assertEqual(self.export(symbol), text, "%s: %s changed" % (name, symbol))
        listed = bt("data", "list", "--json", "--db", self.db)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        symbols = {row["symbol"] for row in json.loads(listed.stdout)["series"]}
        # Everything each writer wrote is there.
        if summary is not None:
            self.assertGreater(summary["bars"], 0, name)
            self.assertIn("BTCUSDT", symbols, name)
        if "import" in kinds:
            self.assertGreater(len(written["import"]), 0, name)
            self.assertTrue(set(written["import"]) <= symbols, name)
            self.assertEqual(self.export(written["import"][-1]).splitlines()[1:], self.export_eurusd()[1:], name)
        if "fetch" in kinds:
            self.assertGreater(written["fetch"], 0, name)
            self.assertIn("ETHUSDT", symbols, name)
        if "calibrate" in kinds:
            self.assertGreater(written["calibrate"], 0, name)
            self.assertEqual(profiles, 1, name)

    def export_eurusd(self):
        if not hasattr(self, "_eurusd"):
            db = os.path.join(self.tmp, "eurusd.sqlite")
            r = bt("data", "import", os.path.join(ROOT, "data", "EURUSD.csv"), "--symbol", "IMP0", "--db", db)
            self.assertEqual(r.returncode, 0, r.stderr)
            out = bt("data", "export", "IMP0", "--db", db)
            self.assertEqual(out.returncode, 0, out.stderr)
            self._eurusd = out.stdout.splitlines()
        return self._eurusd


def add_cases():
    for n in (2, 3):
        for kinds in itertools.combinations(KINDS, n):
            def case(self, kinds=kinds):
                self.run_case(list(kinds))
            setattr(Writers, "test_" + "_and_".join(kinds), case)


add_cases()

if __name__ == "__main__":
    unittest.main(verbosity=2)
