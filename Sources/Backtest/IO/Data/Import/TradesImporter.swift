import BacktestAnalysis
import BacktestCore

/// Reads trade prints as JSON lines (`{"time": ..., "price": ..., "qty": ..., "side": ...}`;
/// Binance's `T`/`p`/`q`/`m` names also work) and aggregates them into candles of `timeframe`:
/// calendar-aligned UTC buckets, first price open, max high, min low, last close, summed quantity
/// as volume. Prints are ordered by time to the millisecond (stable, so same-millisecond prints
/// keep file order: the open and close of a bar are its first and last prints even when the file
/// lists them out of order within a second) and kept with the taker's side when given (`"side": "buy"|"sell"`, or
/// Binance's `"m": true` when the buyer was the maker, i.e. the taker sold), for `bt calibrate`.
/// - Complexity: O(n log n) for the sort, O(n) otherwise.
enum TradesImporter {
    /// Timeframe used when `--timeframe` is not given.
    static let defaultTimeframe = Timeframe.minute1

    static func read(_ text: InputText, timeframe: Timeframe) throws -> (candles: ParsedCandles, prints: [TradePrint]) {
        var prints: [TradePrint] = [], lines: [Int] = []
        var unit: (unit: DecimalParsing.EpochUnit, line: Int)?
        try JSONLines.forEachObject(text) { object, line in
            guard let rawTime = object["time", "T", "timestamp", "ts"] else {
                throw InputError("missing \"time\"", file: text.file, line: line)
            }
            guard let time = milliseconds(rawTime) else {
                throw InputError("time is not an epoch number or ISO-8601 date-time", file: text.file, line: line)
            }
            if let u = time.unit {
                if let first = unit, first.unit != u {
                    throw InputError("time is an epoch in \(u.rawValue) but line \(first.line) has one in \(first.unit.rawValue); "
                                         + "a file must use one unit", file: text.file, line: line)
                }
                if unit == nil { unit = (u, line) }
            }
            guard UTCTime.supportedRange.contains(time.seconds) else {
                throw InputError("time \(UTCTime.describe(time.seconds)) is outside the supported range 1970-01-01 to 9999-12-31",
                                 file: text.file, line: line)
            }
            let t = time.milliseconds
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
            let price = try JSONLines.amount(rawPrice, "price", file: text.file, line: line)
            let qty = try JSONLines.amount(rawQty, "qty", file: text.file, line: line)
            if max(price, qty) > ParsedCandles.largestMagnitude {
                let (name, v) = price > qty ? ("price", price) : ("qty", qty)
                throw InputError("\(name) \(v) is beyond 1e250 (sums of it could overflow)", file: text.file, line: line)
            }
            prints.append(TradePrint(timeMs: t, price: price, quantity: qty, side: side))
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
        // The aggregation `bt live` uses too (`TradeBarBuilder`); each bar carries the line of its first print.
        var builder = TradeBarBuilder(timeframe: timeframe)
        var barLine = 0
        func emit(_ bar: TradeBar) {
            out.append(line: barLine, time: bar.time, open: bar.open, high: bar.high, low: bar.low, close: bar.close, volume: bar.volume)
        }
        for (k, p) in prints.enumerated() {
            if let closed = builder.add(p) { emit(closed) }
            if builder.forming?.trades == 1 { barLine = lines[k] }
            if let v = builder.forming?.volume, !v.isFinite {
                throw InputError("the \(timeframe.rawValue) bar at \(UTCTime.iso(builder.forming!.time)) overflows: its quantities sum past "
                                     + "the largest number", file: text.file, line: lines[k])
            }
        }
        if let last = builder.finish() { emit(last) }
        return (out, prints)
    }

    /// A time value in milliseconds with its epoch unit: epoch seconds, milliseconds or
    /// microseconds (by size, as `DecimalParsing.EpochUnit`) as a number or numeric string, or an
    /// ISO-8601 string (fraction kept to the millisecond).
    static func milliseconds(_ value: JSONValue) -> DecimalParsing.Time? {
        switch value {
        case .number(let v):
            guard v.isFinite, v >= 0, v < 9e18 else { return nil }
            let unit = DecimalParsing.EpochUnit(Int64(v))
            let ms: Double = switch unit {
            case .seconds: v * 1000
            case .milliseconds: v
            case .microseconds: v / 1000
            case .nanoseconds: v / 1_000_000
            }
            return DecimalParsing.Time(milliseconds: Int64(ms.rounded(.down)), unit: unit)
        case .string(let s):
            return DecimalParsing.parsedTime(s)
        default:
            return nil
        }
    }
}
