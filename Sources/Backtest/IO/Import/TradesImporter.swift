import BacktestAnalysis
import BacktestCore

/// Reads trade prints as JSON lines (`{"time": ..., "price": ..., "qty": ...}`; Binance's
/// `T`/`p`/`q` names also work) and aggregates them into candles of `timeframe`: calendar-aligned
/// UTC buckets, first price open, max high, min low, last close, summed quantity as volume.
/// Prints are ordered by time (stable, so same-second prints keep file order).
/// - Complexity: O(n log n) for the sort, O(n) otherwise.
enum TradesImporter {
    /// Timeframe used when `--timeframe` is not given.
    static let defaultTimeframe = Timeframe.minute1

    static func read(_ text: InputText, timeframe: Timeframe) throws -> ParsedCandles {
        var times: [Int64] = [], prices: [Double] = [], quantities: [Double] = [], lines: [Int] = []
        try JSONLines.forEachObject(text) { object, line in
            guard let rawTime = object["time", "T", "timestamp", "ts"] else {
                throw InputError("missing \"time\"", file: text.file, line: line)
            }
            guard let t = JSONLines.time(rawTime) else {
                throw InputError("time is not an epoch number or ISO-8601 date-time", file: text.file, line: line)
            }
            guard let rawPrice = object["price", "p"] else { throw InputError("missing \"price\"", file: text.file, line: line) }
            guard let rawQty = object["qty", "q", "quantity", "size", "amount"] else {
                throw InputError("missing \"qty\"", file: text.file, line: line)
            }
            times.append(t)
            prices.append(try JSONLines.amount(rawPrice, "price", file: text.file, line: line))
            quantities.append(try JSONLines.amount(rawQty, "qty", file: text.file, line: line))
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
            let bucket = timeframe.bucketStart(times[first])
            var h = prices[first], l = prices[first], c = prices[first], v = quantities[first]
            k += 1
            while k < order.count, timeframe.bucketStart(times[order[k]]) == bucket {
                let i = order[k]
                h = max(h, prices[i]); l = min(l, prices[i]); c = prices[i]; v += quantities[i]
                k += 1
            }
            out.append(line: lines[first], time: bucket, open: prices[first], high: h, low: l, close: c, volume: v)
        }
        return out
    }
}
