#!/usr/bin/env python3
"""Converts the ob-analytics 0.1.0 Bitstamp BTC/USD sample into bt's import formats.

Standard library only (CI runs it with the system python3). The input is the wheel fetched by
fetch_ob_analytics.sh (GPL-2.0-or-later: read at test time, never committed). Writes into OUT:

  book.jsonl    bt book JSON lines: one snapshot, then one update per exchange millisecond in
                which some price level changed, carrying only the changed levels (qty 0 removes
                a level). Times are ISO-8601 UTC with milliseconds ("2026-05-02T02:36:20.521Z").
  trades.jsonl  bt trades JSON lines {"time", "price", "qty", "side"} (side = taker side; bt
                ignores it today); `bt data import --format trades --timeframe 1m` makes candles.
  candles.csv   the 1-minute candles those trades make (time,open,high,low,close,volume), for
                checking bt's aggregation.
  truth.csv     ground truth: for each 1-minute bar open time T at or after the snapshot, each
                side and each order size of the ladder, the cost in bps of a market order that
                walks the reconstructed book as of T (all events with time <= T applied):
                buy (VWAP / mid - 1) * 1e4, sell (1 - VWAP / mid) * 1e4, mid of the book at T.
  summary.json  counts and checks (placeholders dropped, stale orders, trade agreement).

Reconstruction (order by order, then aggregated to price levels):
  * Event time is the exchange timestamp (ms); rows are applied in file order (the exchange
    timestamps are non-decreasing in it). Orders are keyed by id; an order rests at the price of
    its `created` row. A `changed` row sets the remaining volume (Bitstamp reports the fill price
    of a taker's partial fills in `changed` rows, so its price is not the resting price); a
    `deleted` row removes the order. Changes and deletes of unknown ids are counted and ignored.
  * Placeholder prices 0, 999999999 and 483980000 and rows with volume <= 0 are dropped.
  * The last exchange millisecond holds only the capture's synthetic deletes of everything still
    resting (meta.json: synthetic_deleted); they are dropped, so the book does not vanish at the
    end of the capture.
  * Stale snapshot orders: the REST snapshot is taken before the live stream starts, so an
    order cancelled or filled in between stays in the reconstruction forever. The matching
    engine never leaves the book crossed once a millisecond's events are applied, so whenever
    the reconstruction is crossed or locked (best bid >= best ask) at the end of a millisecond,
    the older of the orders at the two touches (file position) is stale. A first pass finds
    them; each must be a snapshot order that no live row ever touched (else the script fails);
    the second pass removes them from the snapshot itself (they left the book before the live
    stream began, or their cancel or fill would be in it). On this sample: two asks.
    The second pass asserts the book is never crossed at the end of a millisecond.
  * Quantities are kept as integer satoshis (1e-8 BTC), so level sums are exact.

Trade check: for each trade (maker order id from trades.csv), the maker order's fill row is
located in the stream (the first `changed`/`deleted` row of that id at the trade's millisecond
or later); the trade agrees with the book when, just before that row is applied, the maker
order rests in the reconstruction at the trade price and that price is the best price of its
side (the touch). Also counted: makers resting at the touch of the book as of the end of the
previous millisecond (the first fill of each taker sweep should be).

With --keep-stale the two stale asks stay in the book (so book.jsonl has crossed and locked
updates, for testing that the importer counts them; summary.json gives the count of update
events after which best bid >= best ask) and truth.csv is the cost on that crossed book.

Usage: convert_ob_analytics.py [--keep-stale] WHEEL_OR_SAMPLE_DIR OUT_DIR
"""

import bisect
import csv
import gzip
import io
import json
import os
import sys
import time
import zipfile

PLACEHOLDER_PRICES = {0.0, 999999999.0, 483980000.0}
LADDER = [0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0]
SAT = 100_000_000
SAMPLE = "ob_analytics/_sample_data/"


def read_sample(path):
    """Returns (order rows, trade rows, meta) from the wheel or an unpacked _sample_data dir."""
    if os.path.isdir(path):
        with open(os.path.join(path, "orders.csv.gz"), "rb") as f:
            orders_gz = f.read()
        with open(os.path.join(path, "trades.csv"), "rb") as f:
            trades_csv = f.read()
        with open(os.path.join(path, "meta.json"), "rb") as f:
            meta = json.load(f)
    else:
        with zipfile.ZipFile(path) as z:
            orders_gz = z.read(SAMPLE + "orders.csv.gz")
            trades_csv = z.read(SAMPLE + "trades.csv")
            meta = json.loads(z.read(SAMPLE + "meta.json"))
    orders = list(csv.DictReader(io.StringIO(gzip.decompress(orders_gz).decode("utf-8"))))
    trades = list(csv.DictReader(io.StringIO(trades_csv.decode("utf-8"))))
    return orders, trades, meta


def iso_ms(ms):
    s, frac = divmod(ms, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(s)) + ".%03dZ" % frac


def num(x):
    """Shortest JSON text for a price (integers without a fraction)."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def qty_text(sat):
    whole, frac = divmod(sat, SAT)
    return str(whole) if frac == 0 else ("%d.%08d" % (whole, frac)).rstrip("0")


class Book:
    """Orders by id plus price levels per side in satoshis."""

    def __init__(self):
        self.orders = {}  # id -> [side, price, sat, seq, touched_live]
        self.levels = {"bid": {}, "ask": {}}
        self.at = {"bid": {}, "ask": {}}  # price -> set of ids
        self.prices = {"bid": [], "ask": []}  # level prices, ascending
        self.dirty = set()  # (side, price) of levels changed since the last clear

    def _level(self, side, price, delta):
        lv = self.levels[side]
        self.dirty.add((side, price))
        q = lv.get(price, 0) + delta
        if q < 0:
            raise SystemExit("internal error: negative level %s %s" % (side, price))
        if q == 0:
            if lv.pop(price, None) is not None:
                ps = self.prices[side]
                del ps[bisect.bisect_left(ps, price)]
        else:
            if price not in lv:
                bisect.insort(self.prices[side], price)
            lv[price] = q

    def add(self, oid, side, price, sat, seq):
        self.orders[oid] = [side, price, sat, seq, False]
        self._level(side, price, sat)
        self.at[side].setdefault(price, set()).add(oid)

    def change(self, oid, sat):
        o = self.orders[oid]
        o[4] = True
        if sat <= 0:
            self.remove(oid)
        else:
            self._level(o[0], o[1], sat - o[2])
            o[2] = sat

    def remove(self, oid):
        side, price, sat, _, _ = self.orders.pop(oid)
        self._level(side, price, -sat)
        ids = self.at[side][price]
        ids.discard(oid)
        if not ids:
            del self.at[side][price]

    def best(self, side):
        ps = self.prices[side]
        if not ps:
            return None
        return ps[-1] if side == "bid" else ps[0]

    def crossed(self):
        b, a = self.best("bid"), self.best("ask")
        return b is not None and a is not None and b >= a


def parse_rows(rows):
    """Typed rows; the final millisecond's synthetic deletes split off."""
    out = []
    for seq, r in enumerate(rows):
        out.append((int(r["exchange_timestamp"]), r["id"], float(r["price"]),
                    round(float(r["volume"]) * SAT), r["action"], r["direction"], seq))
    last = out[-1][0]
    k = len(out)
    while k > 0 and out[k - 1][0] == last:
        k -= 1
    tail = out[k:]
    if not all(r[4] == "deleted" for r in tail):
        raise SystemExit("error: the last millisecond is not only deletes; not the expected capture")
    return out[:k], len(tail)


def groups(rows):
    """Yields (time, rows) per exchange millisecond, in file order."""
    i, n = 0, len(rows)
    while i < n:
        t = rows[i][0]
        j = i
        while j < n and rows[j][0] == t:
            j += 1
        if j < n and rows[j][0] < t:
            raise SystemExit("error: exchange timestamps go back in the file")
        yield t, rows[i:j]
        i = j


def replay(rows, n_snapshot, stale, on_group=None, on_row=None, before_group=None, fix_crossing=True):
    """Applies the rows; returns (book, counts, stale orders found by the crossing rule).

    Hooks: before_group(book, t) before a millisecond's rows, on_row(book, row) before each row,
    on_group(book, t, rows) after the millisecond (stale orders removed)."""
    book = Book()
    counts = {"placeholder_rows": 0, "zero_volume_creates": 0, "unknown_changes": 0,
              "unknown_deletes": 0, "stale_snapshot_orders_skipped": 0}
    found = []
    for t, grp in groups(rows):
        if before_group:
            before_group(book, t)
        for row in grp:
            ts, oid, price, sat, action, side, seq = row
            if on_row:
                on_row(book, row)
            if action == "created":
                if price in PLACEHOLDER_PRICES:
                    counts["placeholder_rows"] += 1
                elif sat <= 0:
                    counts["zero_volume_creates"] += 1
                elif oid in stale:
                    counts["stale_snapshot_orders_skipped"] += 1
                else:
                    book.add(oid, side, price, sat, seq)
            elif oid in book.orders:
                if action == "changed":
                    book.change(oid, sat)
                else:
                    book.orders[oid][4] = True
                    book.remove(oid)
            elif price in PLACEHOLDER_PRICES:
                counts["placeholder_rows"] += 1
            elif oid not in stale:
                counts["unknown_changes" if action == "changed" else "unknown_deletes"] += 1
        while fix_crossing and book.crossed():
            b, a = book.best("bid"), book.best("ask")
            ids = book.at["bid"][b] | book.at["ask"][a]
            oid = min(ids, key=lambda k: book.orders[k][3])
            o = book.orders[oid]
            found.append({"id": oid, "side": o[0], "price": o[1], "qty": o[2] / SAT,
                          "crossed_at": iso_ms(t), "snapshot": o[3] < n_snapshot, "touched_live": o[4]})
            book.remove(oid)
        if on_group:
            on_group(book, t, grp)
    return book, counts, found


def walk_cost(levels, side, size, mid):
    """Cost in bps of a market order of `size` BTC walking `levels` (price -> sat); None if short."""
    prices = sorted(levels, reverse=(side == "sell"))
    left, notional = round(size * SAT), 0
    for p in prices:
        take = min(left, levels[p])
        notional += take * p
        left -= take
        if left == 0:
            break
    if left > 0:
        return None
    vwap = notional / round(size * SAT)
    return (vwap / mid - 1) * 1e4 if side == "buy" else (1 - vwap / mid) * 1e4


def main(argv):
    keep_stale = "--keep-stale" in argv
    argv = [a for a in argv if a != "--keep-stale"]
    if len(argv) != 3:
        print(__doc__.split("\n\n")[-1].strip(), file=sys.stderr)
        return 2
    src, out = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    raw_orders, raw_trades, meta = read_sample(src)
    rows, synthetic_deletes = parse_rows(raw_orders)
    snap_t = rows[0][0]
    n_snapshot = 0
    while n_snapshot < len(rows) and rows[n_snapshot][0] == snap_t and rows[n_snapshot][4] == "created":
        n_snapshot += 1

    # Pass 1: find stale snapshot orders by the crossing rule.
    _, _, found = replay(rows, n_snapshot, set())
    bad = [f for f in found if not f["snapshot"] or f["touched_live"]]
    if bad:
        raise SystemExit("error: a live order crosses the book at the end of a millisecond: %s" % bad)
    stale = set() if keep_stale else {f["id"] for f in found}
    crossed_updates = [0]

    # Trades, sorted by exchange time then trade id.
    trades = sorted(({"id": int(r["trade_id"]), "t": int(r["exchange_timestamp"]), "price": float(r["price"]),
                      "sat": round(float(r["amount"]) * SAT), "side": r["side"],
                      "maker": r["sell_order_id"] if r["side"] == "buy" else r["buy_order_id"]}
                     for r in raw_trades), key=lambda d: (d["t"], d["id"]))
    pending = {}  # maker id -> trades waiting for their fill row, in order
    for tr in trades:
        pending.setdefault(tr["maker"], []).append(tr)
    check = {"trades": len(trades), "fill_row_found": 0, "maker_resting_at_price": 0, "at_touch": 0,
             "first_fill_of_sweep": 0, "first_fill_at_previous_ms_touch": 0}
    prev_touch = {"bid": None, "ask": None}
    seen_taker_ms = set()

    def on_row(book, row):
        ts, oid, price, sat, action, side, seq = row
        waiting = pending.get(oid)
        if not waiting or action == "created" or waiting[0]["t"] > ts:
            return
        tr = waiting.pop(0)
        check["fill_row_found"] += 1
        o = book.orders.get(oid)
        if o is not None and o[1] == tr["price"]:
            check["maker_resting_at_price"] += 1
            if book.best(o[0]) == o[1]:
                check["at_touch"] += 1
        key = (tr["t"], tr["side"])
        if key not in seen_taker_ms:
            seen_taker_ms.add(key)
            check["first_fill_of_sweep"] += 1
            if prev_touch["ask" if tr["side"] == "buy" else "bid"] == tr["price"]:
                check["first_fill_at_previous_ms_touch"] += 1

    # Bars: 1-minute buckets of the trades; ground truth at each bar open at or after the snapshot.
    bars = {}
    for tr in trades:
        b = tr["t"] // 60000 * 60000
        p = tr["price"]
        if b not in bars:
            bars[b] = [p, p, p, p, 0]
        c = bars[b]
        c[1], c[2], c[3] = max(c[1], p), min(c[2], p), p
        c[4] += tr["sat"]
    bar_times = sorted(bars)
    truth_times = [b for b in bar_times if b >= snap_t]
    truth = []
    state = {"next": 0}
    book_lines = []
    max_levels = {"bid": 0, "ask": 0}

    def snapshot_truth(book, upto):
        while state["next"] < len(truth_times) and truth_times[state["next"]] < upto:
            T = truth_times[state["next"]]
            state["next"] += 1
            if shadow != book.levels:
                raise SystemExit("internal error: book.jsonl does not rebuild the book at %s" % iso_ms(T))
            bb, ba = book.best("bid"), book.best("ask")
            mid = (bb + ba) / 2
            for side in ("buy", "sell"):
                lv = book.levels["ask" if side == "buy" else "bid"]
                for size in LADDER:
                    truth.append((T, side, size, walk_cost(lv, side, size, mid), mid, bb, ba))

    def on_group(book, t, grp):
        # Levels changed in this millisecond, at the orders' resting prices (a taker's `changed`
        # and `deleted` rows carry fill prices, not the price it rests at).
        touched = book.dirty
        book.dirty = set()
        if t == snap_t:
            event = (t, "snapshot", sorted(book.levels["bid"].items(), reverse=True),
                     sorted(book.levels["ask"].items()))
        else:
            changed = {s: sorted((p, book.levels[s].get(p, 0)) for side, p in touched if side == s
                                 and book.levels[s].get(p, 0) != last_levels[s].get(p, 0)) for s in ("bid", "ask")}
            changed["bid"].reverse()
            event = (t, "update", changed["bid"], changed["ask"]) if changed["bid"] or changed["ask"] else None
        for s, p in touched:
            q = book.levels[s].get(p, 0)
            if q:
                last_levels[s][p] = q
            else:
                last_levels[s].pop(p, None)
        if event:
            book_lines.append(event)
            # The shadow book is what a reader of book.jsonl rebuilds; checked at every bar open.
            if event[1] == "snapshot":
                shadow["bid"], shadow["ask"] = {}, {}
            for s, levels in (("bid", event[2]), ("ask", event[3])):
                for p, q in levels:
                    if q:
                        shadow[s][p] = q
                    else:
                        shadow[s].pop(p, None)
        if book.crossed():
            if not keep_stale:
                raise SystemExit("error: the reconstruction is crossed at %s" % iso_ms(t))
            if event:
                crossed_updates[0] += 1
        for s in ("bid", "ask"):
            max_levels[s] = max(max_levels[s], len(book.levels[s]))
            prev_touch[s] = book.best(s)

    last_levels = {"bid": {}, "ask": {}}
    shadow = {"bid": {}, "ask": {}}

    # Pass 2. Before the rows of millisecond t the book holds every event before t, so it is the
    # book "as of T" for each pending bar open T < t (earlier ones were taken at earlier groups).
    book, counts, found2 = replay(rows, n_snapshot, stale, on_group=on_group, on_row=on_row,
                                  before_group=snapshot_truth, fix_crossing=not keep_stale)
    if found2:
        raise SystemExit("error: crossed after removing stale orders: %s" % found2)
    # Bars after the last event see the final book.
    snapshot_truth(book, float("inf"))
    if shadow != book.levels:
        raise SystemExit("internal error: book.jsonl does not rebuild the final book")

    with open(os.path.join(out, "book.jsonl"), "w") as f:
        for t, kind, bids, asks in book_lines:
            f.write('{"time":"%s","type":"%s","bids":[%s],"asks":[%s]}\n' % (
                iso_ms(t), kind, ",".join("[%s,%s]" % (num(p), qty_text(q)) for p, q in bids),
                ",".join("[%s,%s]" % (num(p), qty_text(q)) for p, q in asks)))
    with open(os.path.join(out, "trades.jsonl"), "w") as f:
        for tr in trades:
            f.write('{"time":"%s","price":%s,"qty":%s,"side":"%s"}\n'
                    % (iso_ms(tr["t"]), num(tr["price"]), qty_text(tr["sat"]), tr["side"]))
    with open(os.path.join(out, "candles.csv"), "w") as f:
        f.write("time,open,high,low,close,volume\n")
        for b in bar_times:
            o, h, l, c, v = bars[b]
            f.write("%s,%s,%s,%s,%s,%s\n" % (iso_ms(b)[:-5] + "Z", num(o), num(h), num(l), num(c), qty_text(v)))
    with open(os.path.join(out, "truth.csv"), "w") as f:
        f.write("time,side,size,cost_bps,mid,best_bid,best_ask\n")
        for T, side, size, cost, mid, bb, ba in truth:
            f.write("%s,%s,%s,%s,%s,%s,%s\n" % (iso_ms(T)[:-5] + "Z", side, repr(size),
                                              "" if cost is None else "%.6f" % cost, repr(mid), num(bb), num(ba)))
    summary = {
        "source": "ob-analytics 0.1.0 _sample_data (Bitstamp BTC/USD)",
        "capture": {"started_at": meta.get("started_at"), "ended_at": meta.get("ended_at")},
        "order_rows": len(raw_orders), "snapshot_orders": n_snapshot,
        "synthetic_final_deletes_dropped": synthetic_deletes,
        "snapshot_time": iso_ms(snap_t), "last_event_time": iso_ms(rows[-1][0]),
        "book_events": len(book_lines), "max_levels": max_levels,
        "stale_snapshot_orders": found, "stale_orders_kept": keep_stale,
        "crossed_or_locked_updates": crossed_updates[0], **counts,
        "trades_check": dict(check, agreement_rate=check["at_touch"] / check["trades"]),
        "bars": len(bar_times), "truth_bars": len(truth_times),
        "ladder": LADDER,
    }
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    json.dump(summary, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
