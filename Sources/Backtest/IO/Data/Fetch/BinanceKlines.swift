import BacktestCore
import Foundation

/// Binance's public klines endpoint (`GET /api/v3/klines`, the futures market's `/fapi/v1/klines`):
/// its request and its page.
///
/// A page is a JSON array of bars, oldest first: `[openTimeMs, "open", "high", "low", "close",
/// "volume", closeTimeMs, "quoteVolume", trades, "takerBase", "takerQuote", "ignore"]`.
/// A bar is returned when its open time is in `[startTime, endTime]`, at most `limit` per page.
enum BinanceKlines {
    /// The endpoint's largest `limit`: bars per page.
    static let pageLimit = 1000
    /// The request weight of one klines request.
    static let weight = 2

    /// One page of bars, `startMs` and `endMs` inclusive.
    static func url(base: URL, market: BinanceMarket = .spot, symbol: String, interval: Timeframe, startMs: Int64, endMs: Int64?,
                    limit: Int) -> URL {
        var query = [("symbol", symbol), ("interval", interval.rawValue), ("startTime", String(startMs))]
        if let endMs { query.append(("endTime", String(endMs))) }
        query.append(("limit", String(limit)))
        return market.endpoint(base, "klines", query: query)
    }

    /// One page read: its bars (times in seconds, rows named `row N`), and how many rows the
    /// server sent, the incomplete last bar included.
    struct Page {
        var bars: ParsedCandles
        var rows: Int
        /// The latest open time in ms of the rows sent (a page may come newest first).
        var lastOpenMs: Int64?
        /// True when a bar still open at `serverTimeMs` was sent (and dropped): the present.
        var reachedPresent: Bool
    }

    /// Reads a page. Bars whose close time is not before `serverTimeMs` are still forming: they
    /// are dropped (wherever they are in the page), and end the fetch. Bars whose open time is
    /// outside `wantedMs` are dropped too.
    /// - Throws: `InputError` naming the row and what is wrong with it.
    static func page(_ body: [UInt8], name: String, interval: Timeframe, serverTimeMs: Int64,
                     keeping wantedMs: ClosedRange<Int64> = Int64.min...Int64.max) throws -> Page {
        let root: JSONValue
        do { root = try body.withUnsafeBufferPointer { try JSONParser.parse($0) } } catch let e as JSONSyntaxError {
            throw InputError("invalid JSON: \(e.reason) (at byte \(e.offset) of \(body.count))", at: name)
        }
        guard case .array(let rows) = root else { throw InputError("expected a JSON array of bars, found \(root.kindName)", at: name) }
        var bars = ParsedCandles(file: name, capacity: rows.count)
        var page = Page(bars: bars, rows: rows.count, lastOpenMs: nil, reachedPresent: false)
        for (i, row) in rows.enumerated() {
            let key = "row \(i + 1)"
            func fail(_ reason: String) -> InputError { InputError(reason, file: name, key: key) }
            guard case .array(let fields) = row, fields.count >= 7 else { throw fail("expected an array of at least 7 fields") }
            func millis(_ k: Int, _ what: String) throws -> Int64 {
                guard case .number(let v) = fields[k], v == v.rounded(), abs(v) < 1e15 else {
                    throw fail("\(what) must be whole milliseconds, found \(fields[k].kindName)")
                }
                return Int64(v)
            }
            func number(_ k: Int, _ what: String) throws -> Double {
                let result: Result<Double, DecimalParsing.Failure>
                switch fields[k] {
                case .string(let s): result = DecimalParsing.double(s)
                case .number(let v): result = .success(v)
                default: throw fail("\(what) must be a number, found \(fields[k].kindName)")
                }
                guard case .success(let v) = result else { throw fail("\(what) is not a finite number") }
                return v
            }
            let openMs = try millis(0, "open time"), closeMs = try millis(6, "close time")
            page.lastOpenMs = max(page.lastOpenMs ?? openMs, openMs)
            guard openMs % 1000 == 0, interval.bucketStart(openMs / 1000) == openMs / 1000 else {
                throw fail("open time \(UTCTime.isoMs(openMs)) does not start a \(interval.rawValue) bar")
            }
            guard closeMs > openMs else { throw fail("close time \(UTCTime.isoMs(closeMs)) is not after the open time") }
            let o = try number(1, "open"), h = try number(2, "high"), l = try number(3, "low")
            let c = try number(4, "close"), v = try number(5, "volume")
            if closeMs >= serverTimeMs {
                page.reachedPresent = true
                continue
            }
            guard wantedMs.contains(openMs) else { continue }
            bars.append(line: 0, time: openMs / 1000, open: o, high: h, low: l, close: c, volume: v)
            bars.keys.append(key)
        }
        page.bars = bars
        return page
    }
}
