#!/usr/bin/python3
"""A local stand-in for Binance's public market data, live side, for bt live's tests.

Debian's python3 with python3-websockets (10.x). One loopback port serves both the REST
endpoints and the WebSocket stream; prints `PORT <n>` (flushed) once it listens and exits 0
on SIGTERM or SIGINT.

A session is generated from --seed: --warmup-bars klines of history before a timeline of
exchange time that starts one bar before --start and runs --bars bars after it. The timeline
holds depth diffs every 100 ms (consecutive update ids U..u, absolute quantities, 0 removes a
level) and trades (consecutive ids, prices at the touch). The exchange clock starts half a bar
before --start, at the first request, and runs --speed times faster than the wall clock.

REST (as Binance answers):
  GET /api/v3/exchangeInfo?symbol=   serverTime = the exchange clock
  GET /api/v3/time
  GET /api/v3/klines                 history bars, then bars aggregated from the timeline's
                                     trades up to the clock (the forming bar incomplete)
  GET /api/v3/depth?symbol=&limit=   the book after the last diff at or before the clock
WebSocket:
  /stream?streams=<sym>@trade/<sym>@depth@100ms   combined-stream frames
      {"stream": ..., "data": {...}} from the clock's position on
For tests:
  GET /_expected/trades.jsonl        every timeline trade, as bt data import --format trades reads
  GET /_stats                        connections, frames sent, snapshots served, faults fired

--futures serves Binance's USD-M market instead of spot: the REST paths are /fapi/v1/... (the
/api/v3/ ones answer 404), depth diffs carry `pu` (the previous diff's `u`) and ids that are not
consecutive (each id doubled, so a spot client would see a gap at every diff), and the stream
subscription adds <sym>@markPrice@1s: a markPriceUpdate every second of exchange time (p the
mid, r a funding rate drawn from --seed, T the next funding time, the first after E of the times
k x --funding-every + --funding-offset seconds). GET /_expected/funding.json then lists each
funding time of the timeline with the rate and mark of the last update naming it at or before it.

--other SYMBOL (repeatable) lists another symbol with a generated session of its own, from its
own generator: --warmup-bars klines of history, then trades over the same timeline (consecutive
ids, no book), interleaved with the first symbol's events in time order on the same connection
(`<other>@trade` must then be subscribed to as well); a minute in every --other-quiet-every
(default 4; 0: none) has no trade of it, so a client waits for its next bar, or asks its klines.
GET /_expected/other.jsonl then lists its timeline trades. --listed SYMBOL (repeatable) is a
symbol exchangeInfo knows and that has no klines and no trades. exchangeInfo answers HTTP 400
(code -1121, "Invalid symbol.") for a symbol it does not know, as Binance does.

--l2 DIR replays a recorded session instead: the converted ob-analytics L2 sample (Bitstamp
BTC/USD, 30 minutes: its book events as depth diffs, its prints as trades; see load_l2).

Faults (--fault KIND@SECONDS_AFTER_START[,key=value], repeatable; once each, on the first
connection that reaches that exchange time):
  gap       one depth diff is not sent (the next one's U skips): the client must resync
  drop      the connection is closed (code 1001)
  stale     nothing is sent for wall=S seconds (default 3), the connection kept open
  burst     n=N depth diffs (default 100,000, even) at once, setting and removing a level far
            below the book: the book is unchanged, later ids move up by N
  junk      a malformed frame, an event of another symbol, a trade with a negative quantity
            and one with a non-numeric price are sent
  future    the next trade and the next depth diff each come first as a copy dated years=Y
            (default 100) ahead, with the same ids: the client must skip the copies
  huge      the next trade comes first as copies with price 1e300, price 1e-320, quantity
            1e300 and quantity 1e-320, and the next depth diff as copies with a level priced
            1e300 and one of quantity 1e-320 (same ids): the client must skip the copies

Hostile servers (for the whole session):
  --snapshots MODE   every depth snapshot is: behind (older than the stream), bad (cut-off
                     JSON), negative (a negative quantity), junk (random bytes), error (HTTP 500),
                     limited (HTTP 429 with Retry-After: 2) or silent (never answered)
  --depth-weight-used N   depth answers say N of the minute's weight is used
                     (X-MBX-USED-WEIGHT-1M; the limit exchangeInfo states is 6,000)
  --close-after-frames N  every stream connection is closed (code 1001) after N frames
  --oversized        every stream connection first sends a 17 MiB frame (over bt's 16 MiB limit)
  --rest-fault MODE  a second port, printed as `REST <n>` after the `PORT` line, answers every
                     REST request with: silent (nothing, the connection held open) or trickle
                     (a 200 whose 100,000-byte body comes one byte a second)
"""

import argparse
import asyncio
import copy
import datetime
import http
import json
import os
import random
import signal
import sys
import time
import urllib.parse

import websockets

DEPTH_STEP_MS = 100
TICK = 0.01


def iso_ms(text):
    t = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return int(t.timestamp() * 1000)


def price_text(ticks):
    return "%.2f" % (ticks * TICK)


class Session:
    def __init__(self, args):
        self.symbol = args.symbol.upper()
        self.bar_ms = args.interval_seconds * 1000
        self.futures = args.futures
        self.funding_every_ms = int(args.funding_every * 1000)
        self.funding_offset_ms = int(args.funding_offset * 1000)
        if args.l2:
            self.load_l2(args)
            return
        self.start_ms = iso_ms(args.start)
        self.begin_ms = self.start_ms - self.bar_ms
        self.end_ms = self.start_ms + args.bars * self.bar_ms
        rng = random.Random(args.seed)
        # History: a random walk of closes, one bar per interval, ending where the timeline begins.
        self.history = []
        mid = 10000  # ticks: 100.00
        t = self.begin_ms - args.warmup_bars * self.bar_ms
        for _ in range(args.warmup_bars):
            o = mid
            mid = max(2000, mid + rng.randint(-40, 40))
            h = max(o, mid) + rng.randint(0, 15)
            l = min(o, mid) - rng.randint(0, 15)
            vol = round(rng.uniform(5, 50), 5)
            self.history.append((t, price_text(o), price_text(h), price_text(l), price_text(mid), repr(vol)))
            t += self.bar_ms
        # Timeline: the book around the mid, a diff every 100 ms, trades between them.
        self.bids = {mid - k: round(rng.uniform(0.5, 5), 4) for k in range(1, 21)}
        self.asks = {mid + k: round(rng.uniform(0.5, 5), 4) for k in range(1, 21)}
        self.events = []      # (time_ms, kind, payload) in time order
        update_id = 1_000_000
        trade_id = 500_000
        self.first_update_id = update_id
        book_bids, book_asks = dict(self.bids), dict(self.asks)
        # The mark price updates draw from their own generator: a spot session is the same with or without them.
        marks = random.Random(args.seed + 1)
        for step in range((self.end_ms + self.bar_ms - self.begin_ms) // DEPTH_STEP_MS):
            now = self.begin_ms + step * DEPTH_STEP_MS
            if self.futures and now % 1000 == 0:
                rate = "%.8f" % (marks.randint(-5, 10) * 0.0001)
                self.events.append((now, "mark", {"p": price_text(mid), "r": rate, "T": self.next_funding(now)}))
            # Trades in this step, at the touch, before the diff.
            times = sorted(now + rng.randint(1, DEPTH_STEP_MS - 2) for _ in range(rng.choice([0, 0, 0, 1, 1, 2])))
            for tms in times:
                trade_id += 1
                buy = rng.random() < 0.5
                ticks = min(book_asks) if buy else max(book_bids)
                qty = round(rng.uniform(0.001, 0.8), 5)
                self.events.append((tms, "trade", {"t": trade_id, "p": price_text(ticks), "q": repr(qty), "m": not buy}))
            # The diff: the mid drifts now and then; a few levels change, appear or vanish.
            if rng.random() < 0.08:
                mid += rng.choice([-1, 1])
            changes_b, changes_a = {}, {}
            best_b, best_a = mid - 1, mid + 1
            for k in list(book_bids):
                if k >= best_a or k < mid - 25:
                    changes_b[k] = 0.0
            for k in list(book_asks):
                if k <= best_b or k > mid + 25:
                    changes_a[k] = 0.0
            for _ in range(rng.randint(1, 4)):
                side = rng.random() < 0.5
                k = (mid - rng.randint(1, 20)) if side else (mid + rng.randint(1, 20))
                q = 0.0 if rng.random() < 0.2 else round(rng.uniform(0.2, 6), 4)
                (changes_b if side else changes_a)[k] = q
            for k, q in changes_b.items():
                if q == 0:
                    book_bids.pop(k, None)
                else:
                    book_bids[k] = q
            for k, q in changes_a.items():
                if q == 0:
                    book_asks.pop(k, None)
                else:
                    book_asks[k] = q
            if not book_bids:
                book_bids[mid - 1] = 1.0
                changes_b[mid - 1] = 1.0
            if not book_asks:
                book_asks[mid + 1] = 1.0
                changes_a[mid + 1] = 1.0
            n = len(changes_b) + len(changes_a)
            first, last = update_id, update_id + n - 1
            update_id = last + 1
            ems = now + DEPTH_STEP_MS - 1
            self.events.append((ems, "depth", {
                "U": first, "u": last,
                "b": [[price_text(k), repr(q)] for k, q in sorted(changes_b.items(), reverse=True)],
                "a": [[price_text(k), repr(q)] for k, q in sorted(changes_a.items())]}))
        self.others = {}
        for k, other in enumerate(args.other):
            self.others[other.upper()] = self.other_session(other.upper(), args, random.Random(args.seed * 1000 + 17 + k))
        self.listed = [x.upper() for x in args.listed]
        self.events.sort(key=lambda e: e[0])
        self.finish()

    def other_session(self, symbol, args, rng):
        """Another symbol's history klines and timeline trades (added to self.events as "otrade")."""
        history, trades = [], []
        mid = 5000  # ticks: 50.00
        t = self.begin_ms - args.warmup_bars * self.bar_ms
        for _ in range(args.warmup_bars):
            o = mid
            mid = max(1000, mid + rng.randint(-30, 30))
            h, l = max(o, mid) + rng.randint(0, 10), min(o, mid) - rng.randint(0, 10)
            history.append((t, price_text(o), price_text(h), price_text(l), price_text(mid), repr(round(rng.uniform(5, 50), 5))))
            t += self.bar_ms
        trade_id = 900_000
        for step in range((self.end_ms + self.bar_ms - self.begin_ms) // DEPTH_STEP_MS):
            now = self.begin_ms + step * DEPTH_STEP_MS
            minute = (now - self.begin_ms) // self.bar_ms
            if args.other_quiet_every and minute % args.other_quiet_every == args.other_quiet_every - 1:
                continue
            if rng.random() < 0.3:
                mid = max(1000, mid + rng.choice([-2, -1, 1, 2]))
                trade_id += 1
                tms = now + rng.randint(1, DEPTH_STEP_MS - 2)
                p = {"s": symbol, "t": trade_id, "p": price_text(mid), "q": repr(round(rng.uniform(0.01, 3), 4)),
                     "m": rng.random() < 0.5}
                trades.append((tms, p))
                self.events.append((tms, "otrade", p))
        return {"history": history, "trades": trades}

    def load_l2(self, args):
        """A recorded session: the L2 sample the calibration tests convert (ob-analytics'
        Bitstamp BTC/USD, Tests/Fixtures/l2/convert_ob_analytics.py: book.jsonl and trades.jsonl),
        as Binance would stream it. The first book event is the book at the timeline's start;
        each later one a diff with consecutive ids (one per level it sets); each print a trade
        with consecutive ids (`m` from the taker's side). The session starts at the first whole
        bar after the snapshot; the klines before it are a random walk ending at the first price."""
        rng = random.Random(args.seed)
        with open(os.path.join(args.l2, "book.jsonl")) as f:
            book = [json.loads(line) for line in f if line.strip()]
        with open(os.path.join(args.l2, "trades.jsonl")) as f:
            prints = [json.loads(line) for line in f if line.strip()]
        first = book[0]
        assert first["type"] == "snapshot", "the sample starts with a snapshot"
        self.begin_ms = iso_ms(first["time"])
        self.start_ms = (self.begin_ms // self.bar_ms + 1) * self.bar_ms
        last_ms = max(iso_ms(book[-1]["time"]), iso_ms(prints[-1]["time"]))
        self.end_ms = (last_ms // self.bar_ms) * self.bar_ms
        self.bids = {round(p / TICK): float(q) for p, q in first["bids"]}
        self.asks = {round(p / TICK): float(q) for p, q in first["asks"]}
        self.events = []
        update_id = self.first_update_id = 3_000_000
        for e in book[1:]:
            n = len(e["bids"]) + len(e["asks"])
            if n == 0:
                continue
            self.events.append((iso_ms(e["time"]), "depth", {
                "U": update_id, "u": update_id + n - 1,
                "b": [[price_text(round(p / TICK)), repr(float(q))] for p, q in e["bids"]],
                "a": [[price_text(round(p / TICK)), repr(float(q))] for p, q in e["asks"]]}))
            update_id += n
        trade_id = 9_000_000
        for p in prints:
            trade_id += 1
            self.events.append((iso_ms(p["time"]), "trade", {"t": trade_id, "p": price_text(round(p["price"] / TICK)),
                                                            "q": repr(float(p["qty"])), "m": p.get("side") == "sell"}))
        self.events.sort(key=lambda e: e[0])
        price = round(prints[0]["price"] / TICK)
        self.history = []
        t = (self.begin_ms // self.bar_ms) * self.bar_ms - args.warmup_bars * self.bar_ms
        walk = [price]
        for _ in range(args.warmup_bars):
            walk.append(walk[-1] + rng.randint(-800, 800))
        walk.reverse()
        for k in range(args.warmup_bars):
            o, c = walk[k], walk[k + 1]
            h, l = max(o, c) + rng.randint(0, 300), min(o, c) - rng.randint(0, 300)
            self.history.append((t, price_text(o), price_text(h), price_text(l), price_text(c), repr(round(rng.uniform(1, 20), 5))))
            t += self.bar_ms
        self.begin_ms = (self.begin_ms // self.bar_ms) * self.bar_ms
        self.finish()

    def next_funding(self, ms):
        every, offset = self.funding_every_ms, self.funding_offset_ms
        return ((ms - offset) // every + 1) * every + offset

    def expected_funding(self):
        """Each funding time of the timeline: the rate and mark of the last update naming it, at or before it."""
        rows = {}
        for tms, kind, p in self.events:
            if kind == "mark" and tms <= p["T"]:
                rows[p["T"]] = {"time_ms": p["T"], "rate": float(p["r"]), "mark_price": float(p["p"])}
        return [rows[t] for t in sorted(rows) if t <= self.events[-1][0]]

    def burst(self, tms, first_id, n):
        """`n` depth diffs (n even) at `tms` that set a level far below the book and take it away
        again, with consecutive ids: the book is the same after them, and every later id moves
        up by `n`."""
        low = price_text(round(min(self.bids) * 0.5))
        first = first_id + self.id_offset
        for k in range(n):
            yield json.dumps({"stream": self.symbol.lower() + "@depth@100ms", "data": {
                "e": "depthUpdate", "E": tms, "s": self.symbol, "U": first + k, "u": first + k,
                "b": [[low, "1.5" if k % 2 == 0 else "0"]], "a": []}})
        self.id_offset += n

    def finish(self):
        """The trades for klines and the expected import, and the replay cursor of snapshots."""
        self.trades = [(e[0], e[2]) for e in self.events if e[1] == "trade"]
        self.cursor = 0
        self.id_offset = 0
        self.book = (dict(self.bids), dict(self.asks))
        self.book_id = self.first_update_id - 1

    def frame(self, event):
        tms, kind, p = event
        if kind == "otrade":
            data = {"e": "trade", "E": tms + 2, "s": p["s"], "t": p["t"], "p": p["p"], "q": p["q"], "T": tms, "m": p["m"], "M": True}
            stream = p["s"].lower() + "@trade"
        elif kind == "trade":
            data = {"e": "trade", "E": tms + 2, "s": self.symbol, "t": p["t"], "p": p["p"], "q": p["q"],
                    "T": tms, "m": p["m"], "M": True}
            stream = self.symbol.lower() + "@trade"
        elif kind == "mark":
            data = {"e": "markPriceUpdate", "E": tms, "s": self.symbol, "p": p["p"], "i": p["p"], "P": p["p"], "r": p["r"],
                    "T": p["T"]}
            stream = self.symbol.lower() + "@markPrice@1s"
        elif self.futures:
            data = {"e": "depthUpdate", "E": tms, "T": tms - 1, "s": self.symbol, "U": p["U"] * 2, "u": p["u"] * 2,
                    "pu": (p["U"] - 1) * 2, "b": p["b"], "a": p["a"]}
            stream = self.symbol.lower() + "@depth@100ms"
        else:
            data = {"e": "depthUpdate", "E": tms, "s": self.symbol, "U": p["U"] + self.id_offset, "u": p["u"] + self.id_offset,
                    "b": p["b"], "a": p["a"]}
            stream = self.symbol.lower() + "@depth@100ms"
        return json.dumps({"stream": stream, "data": data})

    def klines(self, start, end, limit, now, symbol=None):
        if symbol is not None and symbol != self.symbol:
            other = self.others.get(symbol, {"history": [], "trades": []})
            return self.kline_rows(other["history"], other["trades"], start, end, limit, now)
        return self.kline_rows(self.history, self.trades, start, end, limit, now)

    def kline_rows(self, history, trades, start, end, limit, now):
        rows = []
        for (t, o, h, l, c, v) in history:
            if start <= t <= end:
                rows.append([t, o, h, l, c, v, t + self.bar_ms - 1, "0", 1, "0", "0", "0"])
        bars = {}
        for (tms, p) in trades:
            if tms > now:
                break
            b = (tms // self.bar_ms) * self.bar_ms
            price = float(p["p"])
            qty = float(p["q"])
            if b not in bars:
                bars[b] = [price, price, price, price, qty, 1]
            else:
                bar = bars[b]
                bar[1] = max(bar[1], price)
                bar[2] = min(bar[2], price)
                bar[3] = price
                bar[4] += qty
                bar[5] += 1
        for b in sorted(bars):
            if start <= b <= end and b >= self.begin_ms:
                o, h, l, c, v, n = bars[b]
                rows.append([b, repr(o), repr(h), repr(l), repr(c), repr(v), b + self.bar_ms - 1, "0", n, "0", "0", "0"])
        return rows[:limit]

    def snapshot(self, now):
        """The book after every diff at or before `now` (asked for at increasing times)."""
        bids, asks = self.book
        while self.cursor < len(self.events) and self.events[self.cursor][0] <= now:
            tms, kind, p = self.events[self.cursor]
            self.cursor += 1
            if kind != "depth":
                continue
            for side, book in (("b", bids), ("a", asks)):
                for price, qty in p[side]:
                    k = round(float(price) / TICK)
                    if float(qty) == 0:
                        book.pop(k, None)
                    else:
                        book[k] = float(qty)
            self.book_id = p["u"]
        last = self.book_id * 2 if self.futures else self.book_id + self.id_offset
        return {"lastUpdateId": last,
                "bids": [[price_text(k), repr(q)] for k, q in sorted(bids.items(), reverse=True)],
                "asks": [[price_text(k), repr(q)] for k, q in sorted(asks.items())]}


class Server:
    def __init__(self, args):
        self.session = Session(args)
        self.speed = args.speed
        self.wall0 = None  # the clock starts with the first request (REST or stream)
        self.clock0 = self.session.start_ms - self.session.bar_ms // 2
        self.stats = {"connections": 0, "frames": 0, "snapshots": 0, "faults": []}
        self.snapshots = args.snapshots
        self.depth_weight_used = args.depth_weight_used
        self.close_after_frames = args.close_after_frames
        self.oversized = args.oversized
        self.rng = random.Random(args.seed)
        self.faults = []
        self.pending_copies = []  # (event, change): a changed copy to send just before the event
        for spec in args.fault:
            kind, _, rest = spec.partition("@")
            at, *opts = rest.split(",")
            fault = {"kind": kind, "at_ms": self.session.start_ms + int(float(at) * 1000), "fired": False}
            for o in opts:
                k, _, v = o.partition("=")
                fault[k] = float(v)
            self.faults.append(fault)

    def now(self):
        if self.wall0 is None:
            self.wall0 = time.monotonic()
        return int(self.clock0 + (time.monotonic() - self.wall0) * 1000 * self.speed)

    def due_fault(self, kind, tms):
        for f in self.faults:
            if f["kind"] == kind and not f["fired"] and tms >= f["at_ms"]:
                f["fired"] = True
                self.stats["faults"].append(kind)
                return f
        return None

    async def process_request(self, path, headers):
        url = urllib.parse.urlparse(path)
        if url.path == "/stream":
            return None
        q = dict(urllib.parse.parse_qsl(url.query))
        now = self.now() if not url.path.startswith("/_") else 0
        s = self.session
        prefix = "/fapi/v1/" if s.futures else "/api/v3/"
        if url.path.startswith(("/api/v3/", "/fapi/v1/")) and not url.path.startswith(prefix):
            return http.HTTPStatus.NOT_FOUND, [("Content-Type", "application/json")], b'{"code":-1,"msg":"not this market"}'
        path = "/api/v3/" + url.path[len(prefix):] if url.path.startswith(prefix) else url.path
        known = [s.symbol] + list(getattr(s, "others", {})) + getattr(s, "listed", [])
        if path == "/api/v3/exchangeInfo" and q.get("symbol", s.symbol).upper() not in known:
            return http.HTTPStatus.BAD_REQUEST, [("Content-Type", "application/json")], b'{"code":-1121,"msg":"Invalid symbol."}'
        if path == "/api/v3/exchangeInfo":
            body = {"timezone": "UTC", "serverTime": now,
                    "rateLimits": [{"rateLimitType": "REQUEST_WEIGHT", "interval": "MINUTE", "intervalNum": 1, "limit": 6000}],
                    "exchangeFilters": [], "symbols": [{"symbol": s.symbol, "status": "TRADING"}]}
        elif path == "/api/v3/time":
            body = {"serverTime": now}
        elif path == "/api/v3/klines":
            start = int(q.get("startTime", 0))
            end = int(q.get("endTime", 2 ** 62))
            body = s.klines(start, end, int(q.get("limit", 500)), now, q.get("symbol", s.symbol).upper())
        elif path == "/api/v3/depth":
            self.stats["snapshots"] += 1
            body = s.snapshot(now)
            headers = [("Content-Type", "application/json")]
            if self.depth_weight_used is not None:
                headers.append(("X-MBX-USED-WEIGHT-1M", str(self.depth_weight_used)))
            mode = self.snapshots
            if mode == "silent":
                await asyncio.sleep(3600)
            elif mode == "error":
                return http.HTTPStatus.INTERNAL_SERVER_ERROR, headers, b'{"code":-1000,"msg":"internal error"}'
            elif mode == "limited":
                return http.HTTPStatus.TOO_MANY_REQUESTS, headers + [("Retry-After", "2")], b'{"code":-1003,"msg":"too many"}'
            elif mode == "behind":
                body["lastUpdateId"] = 1
            elif mode == "bad":
                return http.HTTPStatus.OK, headers, json.dumps(body).encode()[:40]
            elif mode == "negative":
                body["bids"][0][1] = "-1.5"
            elif mode == "junk":
                return http.HTTPStatus.OK, headers, bytes(self.rng.randrange(256) for _ in range(300))
            return http.HTTPStatus.OK, headers, json.dumps(body).encode()
        elif url.path == "/_expected/trades.jsonl":
            lines = "".join(json.dumps({"T": t, "p": p["p"], "q": p["q"], "m": p["m"]}) + "\n" for t, p in s.trades)
            return http.HTTPStatus.OK, [("Content-Type", "application/x-ndjson")], lines.encode()
        elif url.path == "/_expected/other.jsonl":
            lines = "".join(json.dumps({"T": t, "p": p["p"], "q": p["q"], "m": p["m"]}) + "\n"
                            for t, p in next(iter(s.others.values()))["trades"])
            return http.HTTPStatus.OK, [("Content-Type", "application/x-ndjson")], lines.encode()
        elif url.path == "/_expected/funding.json":
            body = s.expected_funding()
        elif url.path == "/_stats":
            body = self.stats
        else:
            return http.HTTPStatus.NOT_FOUND, [("Content-Type", "application/json")], b'{"code":-1,"msg":"not found"}'
        return http.HTTPStatus.OK, [("Content-Type", "application/json")], json.dumps(body).encode()

    async def stream(self, ws, path):
        self.stats["connections"] += 1
        s = self.session
        sent = 0
        if self.oversized:
            try:
                await ws.send("x" * (17 << 20))
            except websockets.ConnectionClosed:
                return
        q = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(path).query))
        wanted = {s.symbol.lower() + "@trade", s.symbol.lower() + "@depth@100ms"} | ({s.symbol.lower() + "@markPrice@1s"} if s.futures else set())
        wanted |= {o.lower() + "@trade" for o in getattr(s, "others", {})}
        if set(q.get("streams", "").split("/")) != wanted:
            await ws.close(code=1008, reason="unknown streams")
            return
        now = self.now()
        i = 0
        while i < len(s.events) and s.events[i][0] <= now:
            i += 1
        try:
            while True:
                now = self.now()
                batch = []
                while i < len(s.events) and s.events[i][0] <= now:
                    event = s.events[i]
                    i += 1
                    if self.due_fault("drop", event[0]):
                        await ws.close(code=1001, reason="going away")
                        return
                    stale = self.due_fault("stale", event[0])
                    if stale:
                        await asyncio.sleep(stale.get("wall", 3.0))
                        # What happened meanwhile is lost to this connection.
                        now = self.now()
                        while i < len(s.events) and s.events[i][0] <= now:
                            i += 1
                        break
                    if event[1] == "depth" and self.due_fault("gap", event[0]):
                        continue
                    burst = self.due_fault("burst", event[0]) if event[1] == "depth" else None
                    if burst:
                        # The burst goes just before this diff, taking its first id on.
                        for f in batch:
                            await ws.send(f)
                        batch = []
                        for f in s.burst(event[0] - 1, event[2]["U"], int(burst.get("n", 100_000))):
                            await ws.send(f)
                        self.stats["frames"] += int(burst.get("n", 100_000))
                    ahead = self.due_fault("future", event[0])
                    if ahead:
                        # A copy of this event and of the next of the other kind, dated years ahead.
                        shift = int(ahead.get("years", 100) * 365.25 * 86_400_000)
                        for e in [event] + [next((x for x in s.events[i:] if x[1] != event[1]), None)]:
                            if e is not None:
                                self.pending_copies.append((e, lambda d, shift=shift: d.update(
                                    {k: d[k] + shift for k in ("E", "T") if k in d})))
                    huge = self.due_fault("huge", event[0])
                    if huge:
                        for e in [event] + [next((x for x in s.events[i:] if x[1] != event[1]), None)]:
                            if e is None:
                                continue
                            if e[1] == "trade":
                                for k, v in (("p", "1e300"), ("p", "1e-320"), ("q", "1e300"), ("q", "1e-320")):
                                    self.pending_copies.append((e, lambda d, k=k, v=v: d.update({k: v})))
                            else:
                                self.pending_copies.append((e, lambda d: d["b"].append(["1e300", "1.0"])))
                                self.pending_copies.append((e, lambda d: d["a"].append([d["a"][0][0] if d["a"] else "150.00", "1e-320"])))
                    # Copies go just before the event they copy, with its ids.
                    for e, change in [c for c in self.pending_copies if c[0] is event]:
                        data = json.loads(s.frame(e))
                        change(data["data"])
                        batch.append(json.dumps(data))
                    self.pending_copies = [c for c in self.pending_copies if c[0] is not event]
                    if self.due_fault("junk", event[0]):
                        batch += ['{"stream": "x", "data": {"e": "trade", ', json.dumps({"stream": "ethusdt@trade", "data": {
                            "e": "trade", "E": event[0], "s": "ETHUSDT", "t": 1, "p": "1.0", "q": "1.0", "T": event[0], "m": False}}),
                            json.dumps({"data": {"e": "trade", "E": event[0], "s": s.symbol, "t": 2, "p": "1.0", "q": "-3",
                                                 "T": event[0], "m": False}}),
                            json.dumps({"data": {"e": "trade", "E": event[0], "s": s.symbol, "t": 3, "p": "abc", "q": "1",
                                                 "T": event[0], "m": False}})]
                    batch.append(s.frame(event))
                for f in batch:
                    if self.close_after_frames is not None and sent >= self.close_after_frames:
                        await ws.close(code=1001, reason="going away")
                        return
                    await ws.send(f)
                    sent += 1
                self.stats["frames"] += len(batch)
                await asyncio.sleep(0.005)
        except websockets.ConnectionClosed:
            return


async def faulty_rest(mode, reader, writer):
    """One REST connection of --rest-fault: the request is read, then nothing is answered
    (silent) or a 200 trickles its body one byte a second (trickle)."""
    try:
        await reader.readuntil(b"\r\n\r\n")
        if mode == "trickle":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
            await writer.drain()
            for _ in range(100_000):
                await asyncio.sleep(1)
                writer.write(b" ")
                await writer.drain()
        else:
            await asyncio.sleep(3600)
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def main(args):
    server = Server(args)
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    async with websockets.serve(server.stream, "127.0.0.1", args.port, process_request=server.process_request,
                                max_size=2 ** 20, ping_interval=5, ping_timeout=20) as ws:
        port = ws.sockets[0].getsockname()[1]
        print("PORT %d" % port, flush=True)
        if args.rest_fault:
            rest = await asyncio.start_server(lambda r, w: faulty_rest(args.rest_fault, r, w), "127.0.0.1", 0)
            print("REST %d" % rest.sockets[0].getsockname()[1], flush=True)
        await stop


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--symbol", default="BTCUSDT")
    p.add_argument("--interval-seconds", type=int, default=60)
    p.add_argument("--start", default="2024-03-15T12:00:00Z")
    p.add_argument("--bars", type=int, default=20)
    p.add_argument("--warmup-bars", type=int, default=200)
    p.add_argument("--speed", type=float, default=120.0)
    p.add_argument("--fault", action="append", default=[])
    p.add_argument("--l2", help="replay the converted L2 sample in this folder (book.jsonl, trades.jsonl)")
    p.add_argument("--snapshots", choices=["behind", "bad", "negative", "junk", "error", "limited", "silent"])
    p.add_argument("--depth-weight-used", type=int)
    p.add_argument("--close-after-frames", type=int)
    p.add_argument("--oversized", action="store_true")
    p.add_argument("--rest-fault", choices=["silent", "trickle"])
    p.add_argument("--futures", action="store_true")
    p.add_argument("--funding-every", type=float, default=180)
    p.add_argument("--funding-offset", type=float, default=30)
    p.add_argument("--other", action="append", default=[])
    p.add_argument("--other-quiet-every", type=int, default=4)
    p.add_argument("--listed", action="append", default=[])
    asyncio.run(main(p.parse_args()))
    sys.exit(0)
