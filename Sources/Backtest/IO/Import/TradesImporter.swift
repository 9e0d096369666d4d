import BacktestAnalysis
import BacktestCore

/// Reads trade prints as JSON lines (`{"time": ..., "price": ..., "qty": ..., "side": ...}`;
/// Binance's `T`/`p`/`q`/`m` names also work) and aggregates them into candles of `timeframe`:
/// calendar-aligned UTC buckets, first price open, max high, min low, last close, summed quantity
/// as volume. Prints are ordered by time (stable, so same-millisecond prints keep file order) and
/// kept at millisecond precision with the taker's side when given (`"side": "buy"|"sell"`, or
/// Binance's `"m": true` when the buyer was the maker, i.e. the taker sold), for `bt calibrate`.
/// - Complexity: O(n log n) for the sort, O(n) otherwise.
enum TradesImporter {
    /// Timeframe used when `--timeframe` is not given.
    static let defaultTimeframe = Timeframe.minute1

    static func read(_ text: InputText, timeframe: Timeframe) throws -> (candles: ParsedCandles, prints: [TradePrint]) {
        var prints: [TradePrint] = [], lines: [Int] = []
        try JSONLines.forEachObject(text) { object, line in
            guard let rawTime = object["time", "T", "timestamp", "ts"] else {
                throw InputError("missing \"time\"", file: text.file, line: line)
            }
            guard let t = JSONLines.timeMs(rawTime) else {
                throw InputError("time is not an epoch number or ISO-8601 date-time", file: text.file, line: line)
            }
            guard let rawPrice = object["price", "p"] else { throw InputError("missing \"price\"", file: text.file, line: line) }
            guard let rawQty = object["qty", "q", "quantity", "size", "amount"] else {
                throw InputError("missing \"qty\"", file: text.file, line: line)
            }
            var side: OrderSide?
            if let rawSide = object["side"] {
                switch rawSide {
                case .string(let s) where s.lowercased() == "buy": side = .buy
                case .string(let s) where s.lowercased() == "sell": side = .sell
                case .null: side = nil
                default: throw InputError("side must be \"buy\" or \"sell\" (the taker's side)", file: text.file, line: line)
                }
            } else if case .bool(let buyerIsMaker)? = object["m"] {
                side = buyerIsMaker ? .sell : .buy
            }
            prints.append(TradePrint(timeMs: t, price: try JSONLines.amount(rawPrice, "price", file: text.file, line: line),
                                     quantity: try JSONLines.amount(rawQty, "qty", file: text.file, line: line), side: side))
            lines.append(line)
        }
        guard !prints.isEmpty else { throw InputError("file is empty", at: text.file) }
        if zip(prints, prints.dropFirst()).contains(where: { $0.timeMs > $1.timeMs }) {
            let order = prints.indices.sorted { prints[$0].timeMs != prints[$1].timeMs ? prints[$0].timeMs < prints[$1].timeMs : $0 < $1 }
            prints = order.map { prints[$0] }
            lines = order.map { lines[$0] }
        }
        var out = ParsedCandles(file: text.file)
        out.series.timeframe = timeframe
        var k = 0
        while k < prints.count {
            let first = prints[k]
            let bucket = timeframe.bucketStart(floorDiv(first.timeMs, 1000))
            var h = first.price, l = first.price, c = first.price, v = first.quantity
            let line = lines[k]
            k += 1
            while k < prints.count, timeframe.bucketStart(floorDiv(prints[k].timeMs, 1000)) == bucket {
                let p = prints[k]
                h = max(h, p.price); l = min(l, p.price); c = p.price; v += p.quantity
                k += 1
            }
            out.append(line: line, time: bucket, open: first.price, high: h, low: l, close: c, volume: v)
        }
        return (out, prints)
    }
}
