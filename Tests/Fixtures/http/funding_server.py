#!/usr/bin/env python3
"""A local stand-in for Binance USD-M's funding-rate history, for bt's funding fetch tests.

Python 3 standard library only. Binds 127.0.0.1 (port 0), prints `PORT <n>` once listening,
and exits on SIGTERM, when its standard input closes (--exit-on-stdin-eof) or after
--max-lifetime seconds.

  GET /fapi/v1/fundingRate?symbol=&startTime=&endTime=&limit=   settlements of --symbol with
      startTime <= fundingTime <= endTime, oldest first, at most limit (default 100, at most
      1000), as Binance answers. Settlement i (from 0) is at --start + i * 8 h, rate
      ((i * 37) % 21 - 10) * 1e-5 written "%.8f", markPrice "%.2f" % (42000 + i / 2), empty
      when i % 4 == 3. --set I:FIELD:JSON replaces a field of settlement I with raw JSON.
      Another symbol: HTTP 400 {"code": -1121, "msg": "Invalid symbol."}.
  GET /fapi/v1/exchangeInfo   every symbol, as Binance answers (the fields bt reads): --symbol
      with contractType --contract-type (PERPETUAL), a PRICE_FILTER with tickSize --tick-size
      ("0.10") and a LOT_SIZE with stepSize --step-size ("0.001"), then ETHUSDT's. Not counted
      in /_requests.
  GET /_requests   the fundingRate queries served so far, as a JSON array of objects.
"""
import argparse, json, os, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse, parse_qs

EIGHT_HOURS = 8 * 3600 * 1000


def settlement(i, start, overrides):
    """Settlement i as JSON text, with its overridden fields' raw JSON put in verbatim."""
    row = {"symbol": ARGS.symbol, "fundingTime": start + i * EIGHT_HOURS,
           "fundingRate": "%.8f" % (((i * 37) % 21 - 10) * 1e-5),
           "markPrice": "" if i % 4 == 3 else "%.2f" % (42000 + i / 2)}
    for field, _ in overrides.get(i, []):
        row[field] = "@%s@" % field
    text = json.dumps(row)
    for field, raw in overrides.get(i, []):
        text = text.replace('"@%s@"' % field, raw)
    return text


class Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        pass

    def answer(self, status, body):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        if url.path == "/_requests":
            return self.answer(200, json.dumps(REQUESTS))
        if url.path == "/fapi/v1/exchangeInfo":
            def entry(symbol, contract, tick, step):
                return {"symbol": symbol, "pair": symbol, "contractType": contract, "status": "TRADING", "filters": [
                    {"filterType": "PRICE_FILTER", "minPrice": "0.10", "maxPrice": "1000000", "tickSize": tick},
                    {"filterType": "LOT_SIZE", "minQty": step, "maxQty": "1000", "stepSize": step},
                    {"filterType": "MIN_NOTIONAL", "notional": "100"}]}
            symbols = [entry(ARGS.symbol, ARGS.contract_type, ARGS.tick_size, ARGS.step_size),
                       entry("ETHUSDT", "CURRENT_QUARTER", "0.01", "0.01")]
            return self.answer(200, json.dumps({"timezone": "UTC", "serverTime": int(time.time() * 1000), "symbols": symbols}))
        if url.path != "/fapi/v1/fundingRate":
            return self.answer(404, json.dumps({"code": -1, "msg": "not found"}))
        REQUESTS.append(query)
        if query.get("symbol") != ARGS.symbol:
            return self.answer(400, json.dumps({"code": -1121, "msg": "Invalid symbol."}))
        start = int(query.get("startTime", "0"))
        end = int(query.get("endTime", str(2**62)))
        limit = min(int(query.get("limit", "100")), 1000)
        rows = []
        for i in range(ARGS.rows):
            t = ARGS.start + i * EIGHT_HOURS
            if start <= t <= end and len(rows) < limit:
                rows.append(settlement(i, ARGS.start, OVERRIDES))
        self.answer(200, "[" + ",".join(rows) + "]")


def main():
    global ARGS, OVERRIDES, REQUESTS
    p = argparse.ArgumentParser()
    p.add_argument("--symbol", default="BTCUSDT")
    p.add_argument("--rows", type=int, default=2500)
    p.add_argument("--start", type=int, default=1704067200000, help="the first settlement, ms (2024-01-01)")
    p.add_argument("--set", action="append", default=[], help="I:FIELD:JSON")
    p.add_argument("--contract-type", default="PERPETUAL")
    p.add_argument("--tick-size", default="0.10")
    p.add_argument("--step-size", default="0.001")
    p.add_argument("--exit-on-stdin-eof", action="store_true")
    p.add_argument("--max-lifetime", type=float, default=0)
    ARGS = p.parse_args()
    OVERRIDES, REQUESTS = {}, []
    for spec in ARGS.set:
        i, field, raw = spec.split(":", 2)
        OVERRIDES.setdefault(int(i), []).append((field, raw))
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("PORT %d" % server.server_address[1], flush=True)
    if ARGS.exit_on_stdin_eof:
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    if ARGS.max_lifetime > 0:
        threading.Thread(target=lambda: (time.sleep(ARGS.max_lifetime), os._exit(0)), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
