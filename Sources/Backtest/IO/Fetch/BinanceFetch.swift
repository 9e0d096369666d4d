import BacktestCore
import Foundation

/// Fetches klines from Binance's public spot API (or a mirror), page by page, into validated
/// candles ready to be written in one transaction.
///
/// Requests: `GET /api/v3/exchangeInfo?symbol=` once (the symbol, the server's clock and the
/// request-weight limit), then `GET /api/v3/klines` pages of `BinanceKlines.pageLimit` bars from
/// the start time on. A stored series is resumed after its last bar. The bar still forming at
/// the server's time is never kept. When the used weight (`x-mbx-used-weight-1m`) would pass the
/// limit with the next request, the fetch waits one whole weight window first.
public enum BinanceFetch {
    public static let defaultBaseURL = "https://api.binance.com"

    /// The timeframes bt stores that Binance serves (3m 2h 6h 8h 12h 3d are not bt timeframes).
    public static let intervals: [Timeframe] = Timeframe.allCases

    /// `text` as a kline interval.
    /// - Throws: `InputError` (setting `.interval`).
    public static func interval(_ text: String) throws -> Timeframe {
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
    public static func fetch(symbol: String, interval: Timeframe, from: Int64? = nil, to: Int64? = nil,
                             store: CandleStore? = nil, baseURL: URL, policy: FetchPolicy = FetchPolicy(),
                             events: @escaping (FetchEvent) -> Void = { _ in }) throws -> FetchResult {
        let client = RetryingClient(policy: policy, events: events)
        let exchange = try exchangeInfo(symbol: symbol, baseURL: baseURL, client: client)
        var startMs = (from ?? 0) * 1000
        var resumedAfter: Int64?
        if let stored = try FetchSettings.stored(store, symbol: symbol, timeframe: interval), (from ?? stored.first) >= stored.first {
            resumedAfter = stored.last
            startMs = max(startMs, stored.last * 1000 + 1)
        }
        let endMs = to.map { $0 * 1000 + 999 }
        var series = CandleSeries(symbol: symbol, timeframe: interval)
        var pages = 0
        var estimate: Int?
        var used = exchange.usedWeight
        while endMs.map({ startMs <= $0 }) ?? true {
            pace(used: used, limit: exchange.weightLimit, client: client)
            let url = BinanceKlines.url(base: baseURL, symbol: symbol, interval: interval, startMs: startMs, endMs: endMs,
                                        limit: BinanceKlines.pageLimit)
            let reply = try client.get(url, page: pages + 1)
            guard reply.status == 200 else { throw FetchSettings.refusal(reply, url: url, service: "Binance") }
            pages += 1
            let page: BinanceKlines.Page
            let bars: CandleSeries
            do {
                page = try BinanceKlines.page(reply.body, name: url.shown, interval: interval, serverTimeMs: exchange.serverTimeMs)
                bars = page.bars.series.isEmpty ? page.bars.series : try page.bars.validated().series
            } catch let e as InputError {
                throw FetchError(.badAnswer, url: url.shown, page: pages, reason: e.detail)
            }
            if let last = series.time.last, let first = bars.time.first, first <= last {
                throw FetchError(.badAnswer, url: url.shown, page: pages,
                                 reason: "its first bar \(UTCTime.iso(first)) is not after the previous page's last \(UTCTime.iso(last))")
            }
            append(bars, to: &series)
            if estimate == nil, let first = page.bars.series.time.first {
                let until = min(endMs ?? .max, exchange.serverTimeMs) / 1000
                estimate = max(1, Int((until - first) / interval.seconds / Int64(BinanceKlines.pageLimit)) + 1)
            }
            events(.page(number: pages, estimatedPages: estimate.map { max($0, pages) }, bars: series.count))
            guard page.rows == BinanceKlines.pageLimit, !page.reachedPresent, let lastOpen = page.lastOpenMs else { break }
            startMs = lastOpen + 1
            used = usedWeight(reply)
        }
        let file = series.isEmpty ? nil
            : ImportedFile(file: "binance \(symbol) \(interval.rawValue)", format: .binance, symbol: symbol, content: .candles(series))
        return FetchResult(file: file, pages: pages, requests: client.requests, retries: client.retries,
                           waitedSeconds: client.waited, resumedAfter: resumedAfter)
    }

    /// What `exchangeInfo` tells about the symbol and the limits.
    struct ExchangeInfo {
        var serverTimeMs: Int64
        /// Request weight allowed per window, and the window in seconds.
        var weightLimit: (weight: Int, seconds: Double)?
        /// The weight used so far in the window, after this request.
        var usedWeight: Int?
    }

    static func exchangeInfo(symbol: String, baseURL: URL, client: RetryingClient) throws -> ExchangeInfo {
        let url = baseURL.endpoint("api/v3/exchangeInfo", query: [("symbol", symbol)])
        let reply = try client.get(url)
        guard reply.status == 200 else { throw FetchSettings.refusal(reply, url: url, service: "Binance") }
        func bad(_ reason: String) -> FetchError { FetchError(.badAnswer, url: url.shown, reason: reason) }
        guard let root = try? reply.body.withUnsafeBufferPointer({ try JSONParser.parse($0) }) else {
            throw bad("the answer is not JSON")
        }
        guard case .number(let now)? = root["serverTime"], now > 0, now < 1e15 else { throw bad("no \"serverTime\" in the answer") }
        var info = ExchangeInfo(serverTimeMs: Int64(now), usedWeight: usedWeight(reply))
        if case .array(let limits)? = root["rateLimits"] {
            for item in limits {
                guard case .string("REQUEST_WEIGHT")? = item["rateLimitType"], case .string(let unit)? = item["interval"],
                      case .number(let n)? = item["intervalNum"], case .number(let limit)? = item["limit"], n >= 1, limit >= 1
                else { continue }
                let unitSeconds: Double? = ["SECOND": 1, "MINUTE": 60, "HOUR": 3600, "DAY": 86_400][unit]
                guard let unitSeconds else { continue }
                // Several windows: the one that allows the least weight per second governs.
                let candidate = (weight: Int(limit), seconds: n * unitSeconds)
                if let current = info.weightLimit,
                   Double(current.weight) / current.seconds <= Double(candidate.weight) / candidate.seconds { continue }
                info.weightLimit = candidate
            }
        }
        return info
    }

    /// The request weight used in the current window, from the answer's headers.
    static func usedWeight(_ reply: HTTPReply) -> Int? {
        guard let text = reply.header("x-mbx-used-weight-1m") ?? reply.header("x-mbx-used-weight") else { return nil }
        return Int(text.trimmingCharacters(in: .whitespaces))
    }

    /// Waits out one whole weight window when the next klines request would pass the limit.
    /// A window longer than the policy allows to wait is not waited for: a 429 then decides.
    static func pace(used: Int?, limit: (weight: Int, seconds: Double)?, client: RetryingClient) {
        guard let used, let limit, used + BinanceKlines.weight > limit.weight else { return }
        guard limit.seconds <= client.policy.maxWaitSeconds else { return }
        client.pause(limit.seconds, reason: "request weight \(used) of \(limit.weight) used")
    }

    private static func append(_ bars: CandleSeries, to series: inout CandleSeries) {
        for i in 0..<bars.count {
            series.append(time: bars.time[i], open: bars.open[i], high: bars.high[i], low: bars.low[i],
                          close: bars.close[i], volume: bars.volume[i])
        }
    }
}
