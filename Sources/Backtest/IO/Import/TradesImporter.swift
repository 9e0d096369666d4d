import BacktestAnalysis
import BacktestCore

/// Reads trade prints as JSON lines (`{"time": ..., "price": ..., "qty": ...}`; Binance's
/// `T`/`p`/`q` names also work) and aggregates them into candles of `timeframe`: calendar-aligned
/// UTC buckets, first price open, max high, min low, last close, summed quantity as volume.
/// Prints are ordered by time to the millisecond (stable, so prints in the same millisecond keep
/// file order): the open and close of a bar are its first and last prints even when the file
/// lists them out of order within a second.
/// - Complexity: O(n log n) for the sort, O(n) otherwise.
enum TradesImporter {
    /// Timeframe used when `--timeframe` is not given.
    static let defaultTimeframe = Timeframe.minute1

    static func read(_ text: InputText, timeframe: Timeframe) throws -> ParsedCandles {
        var times: [Int64] = [], prices: [Double] = [], quantities: [Double] = [], lines: [Int] = []
        var unit: (unit: DecimalParsing.EpochUnit, line: Int)?
        try JSONLines.forEachObject(text) { object, line in
            guard let rawTime = object["time", "T", "timestamp", "ts"] else {
                throw InputError("missing \"time\"", file: text.file, line: line)
            }
            guard let t = milliseconds(rawTime) else {
                throw InputError("time is not an epoch number or ISO-8601 date-time", file: text.file, line: line)
            }
            if let u = t.unit {
                if let first = unit, first.unit != u {
                    throw InputError("time is an epoch in \(u.rawValue) but line \(first.line) has one in \(first.unit.rawValue); "
                                         + "a file must use one unit", file: text.file, line: line)
                }
                if unit == nil { unit = (u, line) }
            }
            guard UTCTime.supportedRange.contains(t.seconds) else {
                throw InputError("time \(UTCTime.describe(t.seconds)) is outside the supported range 1970-01-01 to 9999-12-31",
                                 file: text.file, line: line)
            }
            guard let rawPrice = object["price", "p"] else { throw InputError("missing \"price\"", file: text.file, line: line) }
            guard let rawQty = object["qty", "q", "quantity", "size", "amount"] else {
                throw InputError("missing \"qty\"", file: text.file, line: line)
            }
            let price = try JSONLines.amount(rawPrice, "price", file: text.file, line: line)
            let qty = try JSONLines.amount(rawQty, "qty", file: text.file, line: line)
            if max(price, qty) > ParsedCandles.largestMagnitude {
                let (name, v) = price > qty ? ("price", price) : ("qty", qty)
                throw InputError("\(name) \(v) is beyond 1e250 (sums of it could overflow)", file: text.file, line: line)
            }
            times.append(t.milliseconds)
            prices.append(price)
            quantities.append(qty)
            lines.append(line)
        }
        guard !times.isEmpty else { throw InputError("file is empty", at: text.file) }
        var order = Array(0..<times.count)
        if zip(times, times.dropFirst()).contains(where: { $0 > $1 }) {
            order.sort { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
        }
        var out = ParsedCandles(file: text.file)
        out.series.timeframe = timeframe
        var k = 0
        while k < order.count {
            let first = order[k]
            let bucket = timeframe.bucketStart(floorDiv(times[first], 1000))
            var h = prices[first], l = prices[first], c = prices[first], v = quantities[first]
            k += 1
            while k < order.count, timeframe.bucketStart(floorDiv(times[order[k]], 1000)) == bucket {
                let i = order[k]
                h = max(h, prices[i]); l = min(l, prices[i]); c = prices[i]; v += quantities[i]
                guard v.isFinite else {
                    throw InputError("the \(timeframe.rawValue) bar at \(UTCTime.iso(bucket)) overflows: its quantities sum past "
                                         + "the largest number", file: text.file, line: lines[i])
                }
                k += 1
            }
            out.append(line: lines[first], time: bucket, open: prices[first], high: h, low: l, close: c, volume: v)
        }
        return out
    }

    /// A time value in milliseconds: epoch seconds, milliseconds or microseconds (by size, as
    /// `DecimalParsing.EpochUnit`) as a number or numeric string, or an ISO-8601 string.
    static func milliseconds(_ value: JSONValue) -> DecimalParsing.Time? {
        switch value {
        case .number(let v):
            guard v.isFinite, v >= 0, v < 9e18 else { return nil }
            let unit = DecimalParsing.EpochUnit(Int64(v))
            let ms: Double = switch unit {
            case .seconds: v * 1000
            case .milliseconds: v
            case .microseconds: v / 1000
            }
            return DecimalParsing.Time(milliseconds: Int64(ms.rounded(.down)), unit: unit)
        case .string(let s):
            return DecimalParsing.parsedTime(s)
        default:
            return nil
        }
    }
}
