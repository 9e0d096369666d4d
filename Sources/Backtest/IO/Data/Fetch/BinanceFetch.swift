import BacktestCore
import Foundation

/// Fetches klines from Binance's public spot API (or a mirror), page by page, into validated
/// candles ready to be written in one transaction.
///
/// Requests: `GET /api/v3/exchangeInfo?symbol=` once (the symbol, the server's clock and the
/// request-weight limit), then `GET /api/v3/klines` pages of `BinanceKlines.pageLimit` bars from
/// the start time on. A stored series is resumed after its last bar. The bar still forming at
/// the server's time (or the local time, when the server's clock is ahead) is never kept, nor
/// a bar outside the asked range; a page that adds no bar ends the fetch. When the used weight
/// (`x-mbx-used-weight-1m`) would pass the limit with the next request, the fetch waits one
/// whole weight window first. Every number the server sends is range-checked (`NetworkNumber`).
package enum BinanceFetch {
    package static let defaultBaseURL = "https://api.binance.com"

    /// The timeframes bt stores that Binance serves (3m 2h 6h 8h 12h 3d are not bt timeframes).
    package static let intervals: [Timeframe] = Timeframe.allCases

    /// `text` as a kline interval.
    /// - Throws: `InputError` (setting `.interval`).
    package static func interval(_ text: String) throws -> Timeframe {
        guard let tf = Timeframe(rawValue: text), intervals.contains(tf) else {
            throw InputError("must be one of " + intervals.map(\.rawValue).joined(separator: " ")
                                 + " (Binance's 1s 3m 2h 6h 8h 12h 3d are not bt timeframes)",
                             setting: .interval, value: text)
        }
        return tf
    }

    /// Fetches `symbol` bars of `interval` with open times in [`from`, `to`] (seconds; from the
    /// listing to the present when nil). When `store` holds the series and `from` is not before
    /// its first bar, only bars after its last bar are asked for.
    /// - Throws: `InputError` when the service refuses the request (unknown symbol, bad range),
    ///   `FetchError` when it cannot be fetched (after the policy's attempts) or a page is not
    ///   valid data.
    package static func fetch(symbol: String, interval: Timeframe, from: Int64? = nil, to: Int64? = nil,
                             store: CandleStore? = nil, baseURL: URL, market: BinanceMarket = .spot, policy: FetchPolicy = FetchPolicy(),
                             events: @escaping (FetchEvent) -> Void = { _ in }) throws -> FetchResult {
        let client = RetryingClient(policy: policy, events: events)
        let exchange = try exchangeInfo(symbol: symbol, baseURL: baseURL, market: market, client: client)
        var startMs = (from ?? 0) * 1000
        var resumedAfter: Int64?
        if let stored = try FetchSettings.stored(store, symbol: symbol, timeframe: interval), (from ?? stored.first) >= stored.first {
            resumedAfter = stored.last
            startMs = max(startMs, stored.last * 1000 + 1)
        }
        let endMs = to.map { $0 * 1000 + 999 }
        // Bars the server sends outside the asked range are not kept.
        let wantedMs = startMs...max(startMs, endMs ?? .max)
        // The present: the server's clock, never past the local one (a server claiming a
        // far-future clock would otherwise be paged through for ever).
        let nowMs = min(exchange.serverTimeMs, policy.clockMs())
        var series = CandleSeries(symbol: symbol, timeframe: interval)
        var pages = 0
        var estimate: Int?
        var used = exchange.usedWeight
        while startMs <= min(endMs ?? .max, nowMs) {
            pace(used: used, limit: exchange.weightLimit, client: client)
            let url = BinanceKlines.url(base: baseURL, market: market, symbol: symbol, interval: interval, startMs: startMs, endMs: endMs,
                                        limit: BinanceKlines.pageLimit)
            let reply = try client.get(url, page: pages + 1)
            guard reply.status == 200 else { throw FetchSettings.refusal(reply, url: url, service: "Binance") }
            pages += 1
            let page: BinanceKlines.Page
            let bars: CandleSeries
            do {
                page = try BinanceKlines.page(reply.body, name: url.shown, interval: interval, serverTimeMs: nowMs, keeping: wantedMs)
                bars = page.bars.series.isEmpty ? page.bars.series : try page.bars.validated().series
                used = try usedWeight(usedWeightHeader(reply))
            } catch let e as InputError {
                throw FetchError(.badAnswer, url: url.shown, page: pages, reason: e.detail)
            }
            if let last = series.time.last, let first = bars.time.first, first <= last {
                throw FetchError(.badAnswer, url: url.shown, page: pages,
                                 reason: "its first bar \(UTCTime.iso(first)) is not after the previous page's last \(UTCTime.iso(last))")
            }
            append(bars, to: &series)
            if estimate == nil, let first = bars.time.first {
                let until = min(endMs ?? .max, nowMs) / 1000
                estimate = max(1, Int((until - first) / interval.seconds / Int64(BinanceKlines.pageLimit)) + 1)
            }
            events(.page(number: pages, estimatedPages: estimate.map { max($0, pages) }, bars: series.count))
            // A page that adds nothing ends the fetch, as does one that reaches the present.
            guard !bars.isEmpty, page.rows == BinanceKlines.pageLimit, !page.reachedPresent, let lastOpen = page.lastOpenMs,
                  lastOpen >= startMs else { break }
            startMs = lastOpen + 1
        }
        let file = series.isEmpty ? nil
            : ImportedFile(file: "binance \(symbol) \(interval.rawValue)", format: .binance, symbol: symbol, content: .candles(series))
        return FetchResult(file: file, pages: pages, requests: client.requests, retries: client.retries,
                           waitedSeconds: client.waited, resumedAfter: resumedAfter)
    }

    /// What `exchangeInfo` tells about the symbol and the limits.
    package struct ExchangeInfo {
        package var serverTimeMs: Int64
        /// Request weight allowed per window, and the window in seconds.
        package var weightLimit: (weight: Int, seconds: Double)?
        /// The weight used so far in the window, after this request.
        package var usedWeight: Int?
    }

    /// The largest request weight bt believes a server allows or reports (Binance's is 6,000 a
    /// minute): a limit or a used weight beyond it is refused, so sums of them cannot overflow.
    package static let largestWeight: Int64 = 1_000_000_000
    /// The most windows of one unit a `rateLimits` entry may name (`intervalNum`).
    static let largestIntervalCount: Int64 = 1_000_000

    /// `GET /api/v3/exchangeInfo?symbol=` (`/fapi/v1/...` on the futures market, which ignores the symbol).
    package static func exchangeInfo(symbol: String, baseURL: URL, market: BinanceMarket = .spot,
                                     client: RetryingClient) throws -> ExchangeInfo {
        try info(at: market.endpoint(baseURL, "exchangeInfo", query: [("symbol", symbol)]), client: client)
    }

    /// The server's clock alone (`GET /api/v3/time`, weight 1), as an `ExchangeInfo` without limits.
    package static func serverTime(baseURL: URL, market: BinanceMarket = .spot, client: RetryingClient) throws -> ExchangeInfo {
        try info(at: baseURL.appendingPathComponent(market.restPrefix + "/time"), client: client)
    }

    private static func info(at url: URL, client: RetryingClient) throws -> ExchangeInfo {
        let reply = try client.get(url)
        guard reply.status == 200 else { throw FetchSettings.refusal(reply, url: url, service: "Binance") }
        do {
            return try exchangeInfo(reply.body, usedWeight: usedWeightHeader(reply))
        } catch let e as InputError {
            throw FetchError(.badAnswer, url: url.shown, reason: e.detail)
        }
    }

    /// Reads an `exchangeInfo` answer and its used-weight header: the server's clock (ms, within
    /// bt's supported times) and the request-weight window that allows the least weight per
    /// second; entries of other kinds or units are skipped, numbers out of range refused.
    /// - Throws: `InputError` naming the field.
    package static func exchangeInfo(_ body: [UInt8], usedWeight header: String?) throws -> ExchangeInfo {
        guard let root = try? body.withUnsafeBufferPointer({ try JSONParser.parse($0) }) else {
            throw InputError("the answer is not JSON")
        }
        guard case .number(let now)? = root["serverTime"] else { throw InputError("no \"serverTime\" in the answer") }
        let serverTimeMs = try NetworkNumber.integer(now, "serverTime", in: 1...(UTCTime.supportedRange.upperBound * 1000 + 999))
        var info = ExchangeInfo(serverTimeMs: serverTimeMs, usedWeight: try usedWeight(header))
        if case .array(let limits)? = root["rateLimits"] {
            for item in limits {
                guard case .string("REQUEST_WEIGHT")? = item["rateLimitType"], case .string(let unit)? = item["interval"],
                      let unitSeconds = ["SECOND": 1, "MINUTE": 60, "HOUR": 3600, "DAY": 86_400][unit],
                      case .number(let n)? = item["intervalNum"], case .number(let limit)? = item["limit"]
                else { continue }
                let count = try NetworkNumber.integer(n, "rateLimits intervalNum", in: 1...largestIntervalCount)
                let weight = try NetworkNumber.integer(limit, "rateLimits limit", in: 1...largestWeight)
                // Several windows: the one that allows the least weight per second governs.
                let candidate = (weight: Int(weight), seconds: Double(count) * Double(unitSeconds))
                if let current = info.weightLimit,
                   Double(current.weight) / current.seconds <= Double(candidate.weight) / candidate.seconds { continue }
                info.weightLimit = candidate
            }
        }
        return info
    }

    /// A klines page as the fetch reads it (every row checked, bars still forming at
    /// `serverTimeMs` dropped, the rest validated): what the fuzz target feeds.
    /// - Throws: `InputError` naming the row.
    package static func klinesPage(_ body: [UInt8], interval: Timeframe, serverTimeMs: Int64) throws -> CandleSeries {
        let page = try BinanceKlines.page(body, name: "klines", interval: interval, serverTimeMs: serverTimeMs)
        var series = page.bars.series.isEmpty ? page.bars.series : try page.bars.validated().series
        series.timeframe = interval
        return series
    }

    /// The used-weight header of an answer (`x-mbx-used-weight-1m`, else `x-mbx-used-weight`).
    package static func usedWeightHeader(_ reply: HTTPReply) -> String? {
        reply.header("x-mbx-used-weight-1m") ?? reply.header("x-mbx-used-weight")
    }

    /// The request weight used in the current window, from the header's text.
    /// - Throws: `InputError` when it is not a whole number in 0...`largestWeight`.
    package static func usedWeight(_ header: String?) throws -> Int? {
        guard let header else { return nil }
        return Int(try NetworkNumber.integer(header, "the used-weight header", in: 0...largestWeight))
    }

    /// Waits out one whole weight window when the next klines request would pass the limit.
    /// A window longer than the policy allows to wait (or than its deadline leaves) is not
    /// waited for: a 429 then decides.
    static func pace(used: Int?, limit: (weight: Int, seconds: Double)?, client: RetryingClient) {
        guard let wait = weightWait(used: used, limit: limit, weight: BinanceKlines.weight), wait <= client.policy.maxWaitSeconds,
              client.fitsBeforeDeadline(wait) else { return }
        client.pause(wait, reason: "request weight \(used!) of \(limit!.weight) used")
    }

    /// The wait before a request of `weight` when `used` of the window's `limit` is used (the
    /// `x-mbx-used-weight-1m` of the last answer): one whole window when the request would pass
    /// the limit, else nil (also when either is unknown).
    package static func weightWait(used: Int?, limit: (weight: Int, seconds: Double)?, weight: Int) -> Double? {
        guard let used, let limit, used + weight > limit.weight else { return nil }
        return limit.seconds
    }

    private static func append(_ bars: CandleSeries, to series: inout CandleSeries) {
        for i in 0..<bars.count {
            series.append(time: bars.time[i], open: bars.open[i], high: bars.high[i], low: bars.low[i],
                          close: bars.close[i], volume: bars.volume[i])
        }
    }
}
