import BacktestCore
import Foundation

/// Fetches Alpha Vantage's daily series (`TIME_SERIES_DAILY`, or `TIME_SERIES_DAILY_ADJUSTED`
/// with `adjusted`) into validated candles, read by the Alpha Vantage importer.
///
/// Alpha Vantage has no start date: `outputsize=compact` gives the latest 100 days, `full` the
/// whole history. A new series is fetched `full`. A stored one is resumed with `compact` when
/// those 100 days reach back to its last bar, and the bars from that last bar on are kept (the
/// last stored day may have been taken while it was still trading). An adjusted series is
/// fetched `full` again when the overlapping days changed: a new dividend or split rescales the
/// whole adjusted history.
///
/// Every answer is HTTP 200; errors come as `"Error Message"` (unknown symbol, bad key: an
/// `InputError`), `"Note"` (calls per minute: `FetchError.rateLimited`) and `"Information"`
/// (calls per day, premium-only requests: `FetchError.information`). None is retried.
package enum AlphaVantageFetch {
    package static let defaultBaseURL = "https://www.alphavantage.co"
    /// The environment variable read when no key is given.
    package static let apiKeyVariable = "ALPHAVANTAGE_API_KEY"

    /// The API key: `given`, else `$ALPHAVANTAGE_API_KEY` from `environment`.
    /// - Throws: `InputError` (kind `.needsSetting`, setting `.apiKey`) when there is none.
    package static func apiKey(_ given: String?, environment: [String: String]) throws -> String {
        if let key = given ?? environment[apiKeyVariable], !key.isEmpty { return key }
        throw InputError(.needsSetting, "Alpha Vantage needs an API key (free at https://www.alphavantage.co/support/#api-key); "
                             + "set $\(apiKeyVariable) or pass it", setting: .apiKey)
    }

    /// Fetches the daily series of `symbol`, resuming what `store` holds of it.
    /// - Throws: `InputError` for an answer that blames the request, `FetchError` otherwise.
    package static func fetch(symbol: String, adjusted: Bool, apiKey: String, store: CandleStore? = nil, baseURL: URL,
                             policy: FetchPolicy = FetchPolicy(), events: @escaping (FetchEvent) -> Void = { _ in }) throws -> FetchResult {
        let client = RetryingClient(policy: policy, events: events)
        var pages = 0
        func page(_ size: String) throws -> CandleSeries {
            let url = baseURL.endpoint("query", query: [
                ("function", adjusted ? "TIME_SERIES_DAILY_ADJUSTED" : "TIME_SERIES_DAILY"), ("symbol", symbol),
                ("outputsize", size), ("datatype", "json"), ("apikey", apiKey),
            ])
            let series = try read(client.get(url), url: url, symbol: symbol, adjusted: adjusted, apiKey: apiKey)
            pages += 1
            events(.page(number: pages, estimatedPages: nil, bars: series.count))
            return series
        }
        var series: CandleSeries
        var resumedAfter: Int64?
        if let info = try FetchSettings.stored(store, symbol: symbol, timeframe: .day1), let store {
            let recent = try page("compact")
            let stored = try store.loadStored(symbol: symbol, timeframeKey: Timeframe.day1.rawValue)
            if let first = recent.time.first, first <= info.last, !adjusted || agrees(recent, stored, before: info.last) {
                resumedAfter = info.last
                series = recent.suffix(from: info.last)
            } else {
                series = try page("full")
            }
        } else {
            series = try page("full")
        }
        var file = series.isEmpty ? nil
            : ImportedFile(file: "alphavantage \(symbol) 1d", format: .alphavantage, symbol: symbol, content: .candles(series))
        file?.adjusted = adjusted
        return FetchResult(file: file, pages: pages, requests: client.requests, retries: client.retries,
                           waitedSeconds: client.waited, resumedAfter: resumedAfter)
    }

    /// One answer as validated daily candles. Text quoted from the answer has `apiKey` masked
    /// (a service may echo the key back in its error).
    static func read(_ reply: HTTPReply, url: URL, symbol: String, adjusted: Bool, apiKey: String? = nil) throws -> CandleSeries {
        guard reply.status == 200 else { throw FetchSettings.refusal(reply, url: url, service: "Alpha Vantage", secret: apiKey) }
        func bad(_ reason: String) -> FetchError { FetchError(.badAnswer, url: url.shown, reason: reason.masking(apiKey)) }
        let root: JSONValue
        do { root = try reply.body.withUnsafeBufferPointer { try JSONParser.parse($0) } } catch let e as JSONSyntaxError {
            throw bad("invalid JSON: \(e.reason) (at byte \(e.offset) of \(reply.body.count))")
        }
        guard case .object(let members) = root else { throw bad("expected a JSON object, found \(root.kindName)") }
        if !members.contains(where: { $0.key.hasPrefix("Time Series") }) {
            func message(_ key: String) -> String? {
                guard let value = root[key] else { return nil }
                if case .string(let s) = value { return Excerpt.quoted(s.masking(apiKey), limit: 300) }
                return value.kindName
            }
            if let text = message("Error Message") {
                throw InputError("Alpha Vantage answered with an error: \(text) (check the symbol and the API key)", at: url.shown)
            }
            if let text = message("Note") {
                throw FetchError(.rateLimited, url: url.shown, reason: "Alpha Vantage's rate limit: \(text)")
            }
            if let text = message("Information") {
                throw FetchError(.information, url: url.shown, reason: "Alpha Vantage answered with information instead of data: \(text)")
            }
        }
        let file: ImportedFile
        do {
            file = try Importer.read(bytes: reply.body, name: url.shown,
                                     options: ImportOptions(symbol: symbol, timeframe: .day1, format: .alphavantage, adjusted: adjusted))
        } catch let e as InputError {
            throw bad(e.detail)
        }
        guard case .candles(let series) = file.content else { throw bad("not candles") }
        return series
    }

    /// True when the days before `end` that `recent` shares with `stored` have the same values
    /// (the last stored day may have been taken while it was still trading).
    static func agrees(_ recent: CandleSeries, _ stored: CandleSeries, before end: Int64) -> Bool {
        var j = 0
        for i in 0..<recent.count where recent.time[i] < end {
            while j < stored.count && stored.time[j] < recent.time[i] { j += 1 }
            guard j < stored.count, stored.time[j] == recent.time[i] else { continue }
            if recent.open[i] != stored.open[j] || recent.high[i] != stored.high[j] || recent.low[i] != stored.low[j]
                || recent.close[i] != stored.close[j] || recent.volume[i] != stored.volume[j] { return false }
        }
        return true
    }
}

private extension CandleSeries {
    /// The bars at or after `time`.
    func suffix(from time: Int64) -> CandleSeries {
        var out = CandleSeries(symbol: symbol, timeframe: timeframe)
        for i in 0..<count where self.time[i] >= time {
            out.append(time: self.time[i], open: open[i], high: high[i], low: low[i], close: close[i], volume: volume[i])
        }
        return out
    }
}
