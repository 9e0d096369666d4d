#!/usr/bin/env python3
"""Dev-only: writes the goldens of `bt replay` (event-level replay of quotes with queue position
and latency) from hftbacktest 2.4.4 (PyPI `hftbacktest`), the reference the replay equals.

Not run by CI or the test suite; the Swift tests read the committed files. From the repository
root (the environment is git-ignored by its own `.gitignore`):

    python3 -m venv .venv-replay && echo '*' > .venv-replay/.gitignore
    .venv-replay/bin/pip install hftbacktest==2.4.4 numpy
    .venv-replay/bin/python Tests/Fixtures/replay/make_goldens.py [--l2 OUT_DIR]

Writes beside this file:
  synthetic_book.jsonl, synthetic_trades.jsonl  a seeded synthetic market (bt's book and trades
                                                 import formats), made by this script
  goldens.json                                   the synthetic market's cases
  latency_synthetic.csv, latency_l2.csv          seeded recorded latencies (bt's --latency-file
                                                 CSV) of the latency_file_cases
  goldens_l2.json (with --l2 OUT_DIR)            the ob-analytics Bitstamp sample's cases: OUT_DIR
                                                 is what Tests/Fixtures/l2/convert_ob_analytics.py
                                                 wrote (GPL data, read at generation time and never
                                                 committed: only the fills computed from it are)

How the events reach hftbacktest (the conventions of docs/guide/replay.md, which bt follows):
- One timestamp per event: exch_ts = local_ts = the millisecond x 1e6 (feed latency 0), except
  the sided prints of a millisecond after the first: the k-th of n gets (ms x 1e6) - (n - k)
  nanoseconds. They keep their order and come before the millisecond's depth messages, steps
  and orders as before (all at whole milliseconds), but each execution they make gets its own
  exchange time, so that hftbacktest's answers, read one at a time (below), show every partial
  piece; an execution's exchange time is rounded up to its millisecond. The whole-fill goldens
  are the same with and without this.
- Within a millisecond the trade prints come before the depth messages; each source keeps its
  order. Prints without a taker side are left out (bt does not match them against quotes).
- A depth message is its levels one by one, bids then asks in the message's order, each a
  DEPTH_EVENT (quantity 0 removes). A snapshot is the changes that make the book equal to it:
  per side, the levels it no longer holds removed (best first), then its levels set.
- tick_size 0.01 (every price of both data sets is a whole number), lot_size the data's lot.
- Constant order latency (entry, response), or (latency_file_cases) intp_order_latency over the
  rows of the latency file; risk_adverse_queue_model (--queue riskaverse),
  power_prob_queue_model(n) (prob:N) or log_prob_queue_model (logprob); no_partial_fill_exchange
  (--fills whole) or partial_fill_exchange (--fills partial); trading_value_fee_model(maker, taker).

The strategy loop (bt's conventions, done by hand around hftbacktest's elapse):
- Steps at t0 + k * every (t0 the first event) while a later event exists: elapse(0), then
  elapse(every) between steps; after the last step elapse to the end of the data.
- At a step, per side (bid, then ask): the wanted price (NaN: none); none when a fill of the
  quote size would take |position| (the fills seen, in lots) beyond the maximum. The working
  quote is kept while its request is in flight (req NEW: hftbacktest cannot cancel it) or its
  price is the wanted one; else it is cancelled. A new quote (GTX, post-only) is sent unless it
  crosses the step's book (counted as not placed). Order ids 1, 2, ... in the order sent.
- With partial fills, between steps the backtest runs with wait_next_feed(include_order_resp=True), so the orders
  are read after every feed event and every answer: an execution is a change of an order's
  (exch_timestamp, leaves_qty) with status PARTIALLY_FILLED or FILLED, of exec_qty (checked:
  the pieces of an order sum to qty - leaves_qty). Position and PnL are computed from every
  execution (cash + position x final mid): hftbacktest 2.4.4's local state counts a partially
  filled order only by its last piece (upstream #299, #316), so its state_values are checked
  against exactly that (the last piece of each order that ended FILLED).
- hftbacktest 2.4.4's PartialFillExchange keeps an order whose piece was exactly what was left
  in its book (status FILLED) and stops with InvalidOrderStatus (code 14) when anything reaches
  it again; bt ends such an order (check_upstream_partial_fills shows both defects on a
  hand-made book). With partial fills, every order read FILLED is cancelled at once (a cancel
  of an order the exchange no longer holds is refused and changes nothing; one it kept is taken
  out), not counted in cancels_sent. A case where something reaches such an order before the
  cancel does fails here (none of the committed ones).
"""

import argparse
import json
import math
import os
import random
import sys

import numpy as np
from hftbacktest import BacktestAsset, HashMapMarketDepthBacktest
from hftbacktest.order import BUY, SELL, NONE, NEW, FILLED, PARTIALLY_FILLED, EXPIRED, CANCELED, GTX, LIMIT
from hftbacktest.types import (event_dtype, EXCH_EVENT, LOCAL_EVENT, BUY_EVENT, SELL_EVENT,
                               DEPTH_EVENT, TRADE_EVENT)

HERE = os.path.dirname(os.path.abspath(__file__))
TICK = 0.01
INVALID_MIN, INVALID_MAX = -(2 ** 63), 2 ** 63 - 1
START_MS = 1_700_000_000_000  # 2023-11-14T22:13:20Z


def iso(ms):
    import datetime
    t = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def parse_iso(text):
    import datetime
    t = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return int(round(t.timestamp() * 1000))


# ---------------------------------------------------------------- the synthetic market

def synthetic_market(seed=47, n=6000):
    """A seeded market of whole-number prices and quantities in lots of 0.001: level changes,
    queue growth, cancels at the touch, new levels inside the spread, trades at the touch
    (sometimes sweeping it) followed by the depth message they cause, prints without a side,
    several events per millisecond, and a snapshot now and then."""
    rng = random.Random(seed)
    lot = 0.001

    def q():
        return rng.randint(1, 3000) * lot

    bids = {p: q() for p in range(990, 1000)}
    asks = {p: q() for p in range(1001, 1011)}
    t = START_MS
    book, trades = [], []
    book.append({"time": iso(t), "type": "snapshot",
                 "bids": sorted(([p, v] for p, v in bids.items()), reverse=True),
                 "asks": sorted([p, v] for p, v in asks.items())})
    for k in range(n):
        t += rng.choice([0, 0, 0, 1, 1, 2, 3, 5, 8, 13, 21, 40, 75, 120])
        bb, ba = max(bids), min(asks)
        r = rng.random()
        if k % 1500 == 1499:
            # A snapshot: the book with a few levels changed, one dropped.
            for side in (bids, asks):
                for p in rng.sample(sorted(side), 2):
                    side[p] = q()
                far = max(side) if side is asks else min(side)
                if len(side) > 4:
                    del side[far]
            book.append({"time": iso(t), "type": "snapshot",
                         "bids": sorted(([p, v] for p, v in bids.items()), reverse=True),
                         "asks": sorted([p, v] for p, v in asks.items())})
        elif r < 0.30:
            side, best, sign = (bids, bb, -1) if rng.random() < 0.5 else (asks, ba, 1)
            p = best + sign * rng.randint(0, 4)
            if p in side and len(side) > 3 and rng.random() < 0.3:
                side[p] = 0
            else:
                side[p] = q()
            msg = [[p, side[p]]]
            if side[p] == 0:
                del side[p]
            book.append({"time": iso(t), "type": "update",
                         "bids": msg if side is bids else [], "asks": msg if side is asks else []})
        elif r < 0.55:
            buy = rng.random() < 0.5
            side, p = (asks, ba) if buy else (bids, bb)
            level = side[p]
            sweep = rng.random() < 0.25
            qty = level if sweep else round(rng.randint(1, max(1, int(round(level / lot)))) * lot, 3)
            # One or two prints at the touch, then the depth message.
            parts = [qty] if qty < 2 * lot or rng.random() < 0.6 else [round(qty / 2, 3), round(qty - round(qty / 2, 3), 3)]
            for part in parts:
                trades.append({"time": iso(t), "price": p, "qty": part, "side": "buy" if buy else "sell"})
            left = round(level - qty, 3)
            if left <= 0 and len(side) <= 3:
                left = q()
            if left <= 0:
                del side[p]
            else:
                side[p] = left
            msg = [[p, max(left, 0)]]
            # Sometimes a new level on the other side of the emptied touch (the mid moves).
            if left <= 0 and rng.random() < 0.5:
                np_ = p + (1 if buy else -1)
                if (buy and np_ not in asks) or (not buy and np_ not in bids):
                    side[np_] = q()
                    msg.append([np_, side[np_]])
            book.append({"time": iso(t), "type": "update",
                         "bids": [] if buy else msg, "asks": msg if buy else []})
        elif r < 0.60:
            trades.append({"time": iso(t), "price": rng.choice([bb, ba]), "qty": q()})  # no side
        elif r < 0.72:
            if ba - bb > 1:
                side, p = (bids, bb + 1) if rng.random() < 0.5 else (asks, ba - 1)
                side[p] = q()
                book.append({"time": iso(t), "type": "update",
                             "bids": [[p, side[p]]] if side is bids else [], "asks": [[p, side[p]]] if side is asks else []})
        elif r < 0.82:
            side, p = (bids, bb) if rng.random() < 0.5 else (asks, ba)
            if len(side) > 3:
                del side[p]
                book.append({"time": iso(t), "type": "update",
                             "bids": [[p, 0]] if side is bids else [], "asks": [[p, 0]] if side is asks else []})
        else:
            side, best, sign = (bids, bb, -1) if rng.random() < 0.5 else (asks, ba, 1)
            p = best + sign * rng.randint(0, 2)
            side[p] = round(side.get(p, 0) + q(), 3)
            book.append({"time": iso(t), "type": "update",
                         "bids": [[p, side[p]]] if side is bids else [], "asks": [[p, side[p]]] if side is asks else []})
        assert max(bids) < min(asks), "the synthetic book never crosses"
    return book, trades, lot


def write_jsonl(path, rows):
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


# ---------------------------------------------------------------- conversion to hftbacktest

def to_hbt(book, trades):
    """bt's book and trade rows as hftbacktest events (module docstring)."""
    def ms(r):
        return parse_iso(r["time"])

    rows = []
    live = {"bids": {}, "asks": {}}
    first_ms = min(ms(book[0]), ms(trades[0]) if trades else 2**62)
    sided = {}
    for tr in trades:
        if "side" in tr:
            sided[ms(tr)] = sided.get(ms(tr), 0) + 1
    seen_in_ms = {}
    bi = ti = 0
    while bi < len(book) or ti < len(trades):
        if ti < len(trades) and (bi >= len(book) or ms(trades[ti]) <= ms(book[bi])):
            tr = trades[ti]
            ti += 1
            if "side" not in tr:
                continue
            m = ms(tr)
            k = seen_in_ms.get(m, 0)
            seen_in_ms[m] = k + 1
            ns = m * 1_000_000 - (0 if m == first_ms else sided[m] - k)
            flag = BUY_EVENT if tr["side"] == "buy" else SELL_EVENT
            rows.append((EXCH_EVENT | LOCAL_EVENT | TRADE_EVENT | flag, ns, ns, float(tr["price"]), float(tr["qty"])))
            continue
        b = book[bi]
        bi += 1
        ns = ms(b) * 1_000_000
        for key, flag in (("bids", BUY_EVENT), ("asks", SELL_EVENT)):
            levels = b[key]
            side = live[key]
            if b["type"] == "snapshot":
                kept = {p for p, v in levels if round(v / LOT) != 0}
                for p in sorted(side, reverse=(key == "bids")):
                    if p not in kept:
                        rows.append((EXCH_EVENT | LOCAL_EVENT | DEPTH_EVENT | flag, ns, ns, float(p), 0.0))
                        del side[p]
            for p, v in levels:
                rows.append((EXCH_EVENT | LOCAL_EVENT | DEPTH_EVENT | flag, ns, ns, float(p), float(v)))
                if round(v / LOT) == 0:
                    side.pop(p, None)
                else:
                    side[p] = v
    arr = np.zeros(len(rows), dtype=event_dtype)
    for i, (ev, ex, lo, px, qty) in enumerate(rows):
        arr[i]["ev"], arr[i]["exch_ts"], arr[i]["local_ts"], arr[i]["px"], arr[i]["qty"] = ev, ex, lo, px, qty
    return arr


# ---------------------------------------------------------------- one case through hftbacktest

def run_case(events, first_ms, last_ms, case):
    asset = BacktestAsset().data([events]).linear_asset(1.0)
    if "latency_rows" in case:
        # Kept alive on the case: hftbacktest reads the array through its pointer.
        asset = asset.intp_order_latency(case["latency_rows"])
    else:
        entry, resp = case["latency_ns"]
        asset = asset.constant_order_latency(entry, resp)
    queue = case["queue"]
    if queue == "riskaverse":
        asset = asset.risk_adverse_queue_model()
    elif queue == "logprob":
        asset = asset.log_prob_queue_model()
    else:
        asset = asset.power_prob_queue_model(float(queue.split(":")[1]))
    asset = asset.partial_fill_exchange() if case["exchange"] == "partial" else asset.no_partial_fill_exchange()
    asset = (asset
             .trading_value_fee_model(case["maker_bps"] / 1e4, 0.0)
             .tick_size(TICK).lot_size(LOT).last_trades_capacity(0))
    hbt = HashMapMarketDepthBacktest([asset])
    every = case["every_ms"] * 1_000_000
    size, max_pos = case["quote_size"], case["max_position"]
    want = {"touch": lambda d: (d.best_bid, d.best_ask),
            "behind": lambda d: (d.best_bid - 1, d.best_ask + 1)}[case["strategy"]]
    slot = {BUY: None, SELL: None}
    slot_price = {}
    seen = set()
    fills = []
    last = {}  # order id -> (exch_timestamp, leaves_qty) of its last execution read
    last_piece = {}  # order id -> its last execution's quantity
    hbt_filled = set()  # orders that ended FILLED
    lingered = set()  # of those, the ones the exchange kept (their cancel succeeded)
    counts = {"orders_sent": 0, "cancels_sent": 0, "not_placed_crossing": 0, "rejected_post_only": 0, "steps": 0}
    next_id = 0

    def position():
        return sum(f[3] if f[1] == "buy" else -f[3] for f in fills)

    def collect():
        orders = hbt.orders(0)
        it = orders.values()
        while it.has_next():
            o = it.get()
            oid = int(o.order_id)
            if oid in hbt_filled and o.status == CANCELED:
                lingered.add(oid)
            if oid in seen:
                continue
            if o.status in (FILLED, PARTIALLY_FILLED) and last.get(oid) != (int(o.exch_timestamp), float(o.leaves_qty)):
                last[oid] = (int(o.exch_timestamp), float(o.leaves_qty))
                exch_ms = -(-int(o.exch_timestamp) // 1_000_000)
                fills.append((exch_ms * 1_000_000, "buy" if o.side == BUY else "sell", slot_price[oid], float(o.exec_qty), oid))
                last_piece[oid] = float(o.exec_qty)
                done = sum(f[3] for f in fills if f[4] == oid)
                assert abs(done - (float(o.qty) - float(o.leaves_qty))) < 1e-9, ("a piece not read", oid, done, o.qty, o.leaves_qty)
            if o.status == FILLED:
                seen.add(oid)
                hbt_filled.add(oid)
                if partial and o.req == NONE:
                    # The exchange may keep it (module docstring): a cancel takes it out. It
                    # changes nothing else; had anything reached the order first, the backtest
                    # would have stopped with code 14.
                    assert hbt.cancel(0, oid, False) == 0
            elif o.status == EXPIRED:
                seen.add(oid)
                counts["rejected_post_only"] += 1
            elif o.status == CANCELED:
                seen.add(oid)
            if oid in seen:
                for s in (BUY, SELL):
                    if slot[s] == oid:
                        slot[s] = None
        hbt.clear_inactive_orders(0)

    partial = case["exchange"] == "partial"

    def run_for(duration):
        """Runs the backtest `duration` on, reading the orders after every feed event and answer
        (with partial fills; whole fills need no more than the steps); False at the end of the data."""
        if not partial:
            code = hbt.elapse(duration)
            assert code in (0, 1), f"{case['name']}: hftbacktest stopped with code {code}"
            collect()
            return code == 0
        target = hbt.current_timestamp + duration
        while True:
            code = hbt.wait_next_feed(True, target - hbt.current_timestamp)
            assert code in (0, 1, 2, 3), f"{case['name']}: hftbacktest stopped with code {code}"
            collect()
            if code == 1:
                return False
            if code == 0 or hbt.current_timestamp >= target:
                return True

    assert hbt.elapse(0) == 0
    t = hbt.current_timestamp
    assert t == first_ms * 1_000_000, (t, first_ms)
    last_ns = last_ms * 1_000_000
    while True:
        collect()
        counts["steps"] += 1
        d = hbt.depth(0)
        bid, ask = want(d)
        # An empty side: hftbacktest's INVALID_MIN / INVALID_MAX ticks (bt: NaN, no quote).
        if d.best_bid_tick == INVALID_MIN or d.best_ask_tick == INVALID_MAX:
            bid = bid if d.best_bid_tick != INVALID_MIN else math.nan
            ask = ask if d.best_ask_tick != INVALID_MAX else math.nan
        pos_lots = round(position() / LOT)
        max_lots = round(max_pos / LOT)
        size_lots = round(size / LOT)
        for side, price in ((BUY, bid), (SELL, ask)):
            sign = 1 if side == BUY else -1
            allowed = math.isfinite(price) and abs(pos_lots + sign * size_lots) <= max_lots
            price = price if allowed else None
            oid = slot[side]
            if oid is not None:
                o = hbt.orders(0).get(oid)
                if o.req == NEW or slot_price[oid] == price:
                    continue
                assert hbt.cancel(0, oid, False) == 0
                counts["cancels_sent"] += 1
                slot[side] = None
            if price is None:
                continue
            if (side == BUY and price >= d.best_ask) or (side == SELL and price <= d.best_bid):
                counts["not_placed_crossing"] += 1
                continue
            next_id += 1
            counts["orders_sent"] += 1
            submit = hbt.submit_buy_order if side == BUY else hbt.submit_sell_order
            assert submit(0, next_id, price, size, GTX, LIMIT, False) == 0
            slot[side] = next_id
            slot_price[next_id] = price
        if t + every >= last_ns:
            break
        assert run_for(every)
        assert hbt.current_timestamp == t + every
        t += every
    while run_for(3_600_000_000_000):
        pass
    collect()
    d = hbt.depth(0)
    mid = (d.best_bid + d.best_ask) / 2
    fills.sort(key=lambda f: (f[0], f[4]))
    pos = position()
    fee_rate = case["maker_bps"] / 1e4
    cash = -sum((1 if f[1] == "buy" else -1) * f[2] * f[3] + f[2] * f[3] * fee_rate for f in fills)
    pnl = cash + pos * mid
    # hftbacktest's local state: the last piece of each order that ended FILLED, counted again
    # by the refusal of the cancel of an order the exchange no longer held (the refusal echoes
    # the local order, FILLED, and the local state counts every FILLED answer).
    counted = {}
    for f in fills:
        if f[4] in hbt_filled:
            counted[f[4]] = f
    times = {o: 1 if not partial or o in lingered else 2 for o in counted}
    hbt_pos = sum(times[o] * last_piece[o] * (1 if f[1] == "buy" else -1) for o, f in counted.items())
    hbt_cash = -sum(times[o] * ((1 if f[1] == "buy" else -1) * f[2] * last_piece[o] + f[2] * last_piece[o] * fee_rate)
                    for o, f in counted.items())
    sv = hbt.state_values(0)
    assert abs(sv.position - hbt_pos) < 1e-9, (sv.position, hbt_pos)
    hbt_equity = sv.balance + sv.position * mid - sv.fee
    assert abs(hbt_equity - (hbt_cash + hbt_pos * mid)) < 1e-6 * max(1, abs(pnl)), (hbt_equity, hbt_cash + hbt_pos * mid)
    hbt.close()
    if lingered:
        print(f"  {case['name']}: hftbacktest kept {len(lingered)} filled order(s) in its book; each was cancelled before anything reached it",
              file=sys.stderr)
    return {"fills": [[f[0], f[1], f[2], f[3], f[4]] for f in fills], "final_position": pos, "pnl": pnl,
            "final_mid": mid, **counts}


def check_upstream_partial_fills():
    """What the guide says of hftbacktest 2.4.4's PartialFillExchange, shown on a hand-made book
    (bid 5 at 100): a bid of 2 at 100; sells at 100 of 5.5 (a piece of 0.5), 1.5 (a piece of 1.5,
    exactly what was left) and 1. The local state counts only the last piece (position 1.5, not
    2), and the order, kept in the exchange's book, stops the backtest with InvalidOrderStatus
    (14) when the third print reaches it."""
    ms = 1_000_000
    d, t = EXCH_EVENT | LOCAL_EVENT | DEPTH_EVENT, EXCH_EVENT | LOCAL_EVENT | TRADE_EVENT | SELL_EVENT
    rows = [(d | BUY_EVENT, 1, 100.0, 5.0), (d | SELL_EVENT, 1, 101.0, 4.0), (t, 10 * ms, 100.0, 5.5),
            (t, 20 * ms, 100.0, 1.5), (t, 30 * ms, 100.0, 1.0), (d | SELL_EVENT, 40 * ms, 101.0, 3.0)]
    arr = np.zeros(len(rows), dtype=event_dtype)
    for i, (ev, ts, px, qty) in enumerate(rows):
        arr[i]["ev"], arr[i]["exch_ts"], arr[i]["local_ts"], arr[i]["px"], arr[i]["qty"] = ev, ts, ts, px, qty
    asset = (BacktestAsset().data([arr]).linear_asset(1.0).constant_order_latency(0, 0).risk_adverse_queue_model()
             .partial_fill_exchange().trading_value_fee_model(0.0, 0.0).tick_size(TICK).lot_size(0.001).last_trades_capacity(0))
    hbt = HashMapMarketDepthBacktest([asset])
    assert hbt.elapse(0) == 0 and hbt.submit_buy_order(0, 1, 100.0, 2.0, GTX, LIMIT, False) == 0
    codes = [hbt.elapse(10 * ms) for _ in range(3)]
    o = hbt.orders(0).get(1)
    assert codes == [0, 0, 14] and o.status == FILLED and hbt.state_values(0).position == 1.5, (codes, o.status)
    hbt.close()


CASES = [
    # (strategy, every ms, latency entry/response ms, quote size, max position, maker bps, queue)
    ("touch", 100, (0, 0), 1, 5, 0.0, "riskaverse"),
    ("touch", 100, (5, 5), 1, 5, -1.0, "riskaverse"),
    ("behind", 100, (0, 0), 1, 5, 2.0, "riskaverse"),
    ("behind", 100, (5, 5), 1, 5, 0.0, "riskaverse"),
    ("touch", 37, (1, 3), 0.5, 2, 1.5, "riskaverse"),
    ("behind", 250, (20, 40), 2, 4, 0.0, "riskaverse"),
    ("touch", 100, (0, 0), 1, 5, 0.0, "prob:2"),
    ("behind", 100, (5, 5), 1, 5, 0.0, "prob:3"),
    ("touch", 37, (1, 3), 0.5, 2, 1.5, "logprob"),
    ("behind", 250, (20, 40), 2, 4, 0.0, "logprob"),
]

# --fills partial on the synthetic market: every queue model x two constant latencies x a quote
# at the touch and one a tick behind, quotes of two units (a print passes the queue by less than
# that often, so orders fill in pieces).
SYNTHETIC_PARTIAL = [(strategy, 100, latency, 2, 8, maker, queue)
                     for queue, maker in (("riskaverse", 0.0), ("prob:2", -1.0), ("logprob", 1.5))
                     for latency in ((0, 0), (5, 5))
                     for strategy in ("touch", "behind")]


def cases_for(lot_scale, partial):
    """CASES with the whole-fill exchange, then `partial` with the partial-fill one."""
    out = []
    for exchange, (strategy, every, (e, r), size, maxp, maker, queue) in \
            [("whole", c) for c in CASES] + [("partial", c) for c in partial]:
        suffix = "_partial" if exchange == "partial" else ""
        out.append({"name": f"{strategy}_every{every}ms_lat{e}ms_{r}ms_{queue.replace(':', '')}{suffix}", "queue": queue,
                    "exchange": exchange,
                    "strategy": strategy, "quote_bid": "best_bid" if strategy == "touch" else "best_bid - 1",
                    "quote_ask": "best_ask" if strategy == "touch" else "best_ask + 1",
                    "every_ms": every, "latency": f"{e}ms,{r}ms", "latency_ns": [e * 1_000_000, r * 1_000_000],
                    "quote_size": size * lot_scale, "max_position": maxp * lot_scale, "maker_bps": maker})
    return out


def goldens(book, trades, lot_scale, source, partial):
    events = to_hbt(book, trades)
    first_ms = min(parse_iso(book[0]["time"]), parse_iso(trades[0]["time"]) if trades else 2**62)
    last_ms = max(parse_iso(book[-1]["time"]), parse_iso(trades[-1]["time"]) if trades else 0)
    out = {"source": source, "reference": "hftbacktest 2.4.4 (HashMapMarketDepthBacktest, constant_order_latency | intp_order_latency, "
           "risk_adverse_queue_model | power_prob_queue_model | log_prob_queue_model, no_partial_fill_exchange | "
           "partial_fill_exchange, trading_value_fee_model)",
           "lot": LOT, "tick_size": TICK, "first_ms": first_ms, "last_ms": last_ms, "cases": []}
    for case in cases_for(lot_scale, partial):
        result = run_case(events, first_ms, last_ms, case)
        case = {k: v for k, v in case.items() if k not in ("latency_ns", "strategy")}
        case.update(result)
        out["cases"].append(case)
        print(f"{source[:20]} {case['name']}: {len(result['fills'])} fills, position {result['final_position']:.6g}, "
              f"pnl {result['pnl']:.6g}, steps {result['steps']}", file=sys.stderr)
    return out


# ---------------------------------------------------------------- interpolated latency (--latency-file)

LATENCY_DTYPE = np.dtype([("req_ts", "i8"), ("exch_ts", "i8"), ("resp_ts", "i8"), ("_padding", "i8")], align=True)

# (strategy, every ms, quote size, max position, maker bps, queue): each run with the
# latency file instead of a constant latency (hftbacktest's intp_order_latency).
LATENCY_FILE_CASES = [
    ("touch", 100, 1, 5, 0.0, "riskaverse"),
    ("behind", 100, 1, 5, -1.0, "riskaverse"),
    ("touch", 37, 0.5, 2, 1.5, "prob:2"),
    ("behind", 250, 2, 4, 0.0, "logprob"),
]


def latency_rows(first_ms, last_ms, seed, step_ms):
    """Recorded requests, seeded: one every step_ms (jittered, whole nanoseconds), from a little
    after the first event to a little before the last (so the replay also uses the first row's
    latency before it and the last row's after it); entry and response latencies of 0.2 to 30
    ms, now and then a spike to 60-90 ms, so later messages are raised to earlier ones' times.
    Request and exchange times never go back (the spikes are shorter than the step)."""
    rng = random.Random(seed)
    rows = []
    t = first_ms * 1_000_000 + step_ms * 700_000 + rng.randint(0, 999_999)
    end = last_ms * 1_000_000 - step_ms * 500_000
    while t < end:
        def lat():
            return rng.randint(60_000_000, 90_000_000) if rng.random() < 0.08 else rng.randint(200_000, 30_000_000)
        entry, resp = lat(), lat()
        rows.append((t, t + entry, t + entry + resp))
        t += rng.randint(step_ms * 500_000, step_ms * 1_500_000)
    assert all(b[0] >= a[0] and b[1] >= a[1] for a, b in zip(rows, rows[1:]))
    return rows


def write_latency_csv(path, rows, iso_times):
    """The rows as bt's --latency-file CSV: epoch nanoseconds, or ISO-8601 with nine digits."""
    def fmt(ns):
        if not iso_times:
            return str(ns)
        return iso(ns // 1_000_000)[:-4] + f"{ns % 1_000_000_000:09d}Z"
    with open(path, "w") as f:
        f.write("req_ts,exch_ts,resp_ts\n")
        for r in rows:
            f.write(",".join(fmt(v) for v in r) + "\n")


def latency_file_goldens(book, trades, lot_scale, source, csv_name, step_ms, iso_times):
    """The LATENCY_FILE_CASES with a seeded latency file written beside this script."""
    events = to_hbt(book, trades)
    first_ms = min(parse_iso(book[0]["time"]), parse_iso(trades[0]["time"]) if trades else 2**62)
    last_ms = max(parse_iso(book[-1]["time"]), parse_iso(trades[-1]["time"]) if trades else 0)
    rows = latency_rows(first_ms, last_ms, 4747, step_ms)
    write_latency_csv(os.path.join(HERE, csv_name), rows, iso_times)
    array = np.zeros(len(rows), dtype=LATENCY_DTYPE)
    for i, (a, b, c) in enumerate(rows):
        array[i]["req_ts"], array[i]["exch_ts"], array[i]["resp_ts"] = a, b, c
    out = []
    for strategy, every, size, maxp, maker, queue in LATENCY_FILE_CASES:
        case = {"name": f"{strategy}_every{every}ms_latfile_{queue.replace(':', '')}", "queue": queue,
                "exchange": "whole", "strategy": strategy, "quote_bid": "best_bid" if strategy == "touch" else "best_bid - 1",
                "quote_ask": "best_ask" if strategy == "touch" else "best_ask + 1",
                "every_ms": every, "latency_file": csv_name, "latency_rows": array,
                "quote_size": size * lot_scale, "max_position": maxp * lot_scale, "maker_bps": maker}
        result = run_case(events, first_ms, last_ms, case)
        case = {k: v for k, v in case.items() if k not in ("latency_rows", "strategy")}
        case.update(result)
        out.append(case)
        print(f"{source[:20]} {case['name']}: {len(result['fills'])} fills, position {result['final_position']:.6g}, "
              f"pnl {result['pnl']:.6g}, steps {result['steps']}", file=sys.stderr)
    return out


def dump(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


def main():
    global LOT
    ap = argparse.ArgumentParser()
    ap.add_argument("--l2", help="what convert_ob_analytics.py wrote (book.jsonl, trades.jsonl)")
    a = ap.parse_args()
    check_upstream_partial_fills()
    book, trades, LOT = synthetic_market()
    write_jsonl(os.path.join(HERE, "synthetic_book.jsonl"), book)
    write_jsonl(os.path.join(HERE, "synthetic_trades.jsonl"), trades)
    data = goldens(book, trades, 1.0, "synthetic_book.jsonl + synthetic_trades.jsonl", SYNTHETIC_PARTIAL)
    data["latency_file_cases"] = latency_file_goldens(book, trades, 1.0, "synthetic", "latency_synthetic.csv", 250, False)
    dump(os.path.join(HERE, "goldens.json"), data)
    if a.l2:
        LOT = 1e-8
        book = read_jsonl(os.path.join(a.l2, "book.jsonl"))
        trades = read_jsonl(os.path.join(a.l2, "trades.jsonl"))
        data = goldens(book, trades, 0.01, "ob-analytics 0.1.0 Bitstamp BTC/USD sample (convert_ob_analytics.py)", CASES)
        data["latency_file_cases"] = latency_file_goldens(book, trades, 0.01, "bitstamp", "latency_l2.csv", 1000, True)
        dump(os.path.join(HERE, "goldens_l2.json"), data)


LOT = 0.001
if __name__ == "__main__":
    main()
