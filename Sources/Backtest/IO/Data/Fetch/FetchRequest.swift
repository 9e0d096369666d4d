import BacktestCore
import Foundation

/// The services bars (and funding rates) are fetched from.
package enum FetchSource: String, CaseIterable, Sendable {
    case binance, alphavantage
    /// Binance USD-M perpetual futures: funding rates only for now (futures candles come later).
    case binanceFutures = "binance-futures"

    /// The source named `text` (any case).
    /// - Throws: `InputError` naming the sources there are.
    package init(parsing text: String) throws {
        guard let source = FetchSource(rawValue: text.lowercased()) else {
            throw InputError("unknown source '\(Excerpt.shortened(text, limit: 40))' (one of: \(Self.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = source
    }
}

/// One fetch as a job (`bt data fetch`): the service, the symbol and what the service needs,
/// run against the stored series it may resume, and what it reports.
package struct FetchRequest: Sendable {
    package var source: FetchSource
    /// The service's symbol; the bars are stored under it.
    package var symbol: String
    /// Binance: the bar interval, as given (required).
    package var interval: String?
    /// Binance: the first and last bar times, inclusive (epoch seconds; nil: open).
    package var from: Int64?
    package var to: Int64?
    /// Binance futures: the funding rates (the only data it serves for now).
    package var funding = false
    /// Alpha Vantage: the adjusted daily series.
    package var adjusted = false
    /// Alpha Vantage: the API key given (nil: `$ALPHAVANTAGE_API_KEY`).
    package var apiKey: String?
    /// The service's address (nil: its own).
    package var baseURL: String?
    package var policy: FetchPolicy

    package init(source: FetchSource, symbol: String, policy: FetchPolicy) {
        self.source = source
        self.symbol = symbol
        self.policy = policy
    }

    /// Fetches the bars, resuming what `store` (nil: no store yet) holds of the series.
    /// - Throws: `InputError` for a missing or bad interval, key or address and for a refused
    ///   request; `FetchError` for a fetch that failed.
    package func fetch(store: CandleStore?, environment: [String: String],
                       events: @escaping (FetchEvent) -> Void) throws -> FetchResult {
        if funding && source != .binanceFutures {
            throw InputError("\(source.rawValue) serves no funding rates; they come from binance-futures", setting: .funding)
        }
        switch source {
        case .binance:
            let interval = try binanceInterval()
            return try BinanceFetch.fetch(symbol: symbol, interval: interval, from: from, to: to, store: store,
                                          baseURL: FetchSettings.baseURL(baseURL ?? BinanceFetch.defaultBaseURL),
                                          policy: policy, events: events)
        case .binanceFutures:
            guard funding else {
                throw InputError(.needsSetting, "binance-futures serves funding rates only for now (futures candles come later)",
                                 setting: .funding)
            }
            if interval != nil { throw InputError("funding rates have their own times: leave out the interval", setting: .interval) }
            return try BinanceFundingFetch.fetch(symbol: symbol, from: from, to: to, store: store,
                                                 baseURL: FetchSettings.baseURL(baseURL ?? BinanceFundingFetch.defaultBaseURL),
                                                 policy: policy, events: events)
        case .alphavantage:
            let key = try AlphaVantageFetch.apiKey(apiKey, environment: environment)
            return try AlphaVantageFetch.fetch(symbol: symbol, adjusted: adjusted, apiKey: key, store: store,
                                               baseURL: FetchSettings.baseURL(baseURL ?? AlphaVantageFetch.defaultBaseURL),
                                               policy: policy, events: events)
        }
    }

    /// The Binance interval, checked.
    /// - Throws: `InputError` when it is missing (kind `.needsSetting`) or not a bt timeframe Binance serves.
    package func binanceInterval() throws -> Timeframe {
        guard let interval = try interval.map(BinanceFetch.interval) else {
            throw InputError(.needsSetting, "Binance klines need a bar interval", setting: .interval)
        }
        return interval
    }

    /// The line of a fetch that brought nothing new.
    package func nothingNew(_ result: FetchResult) -> String {
        let since = result.resumedAfter.map { " after \(UTCTime.iso($0))" } ?? ""
        return "\(symbol): no new \(funding ? "funding rates" : "bars")\(since) (\(source.rawValue), \(result.tally))"
    }

    /// What `bt data fetch` prints after `written` (`CandleStore.write(fetched:symbol:)`; nil:
    /// nothing was written): a line per series written, else `nothingNew`; then the instrument
    /// settings the service gave, when they were stored (`BTCUSDT instrument: instrument perp,
    /// tick 0.1, lot 0.001 (binance-futures)`).
    package func lines(_ written: (reports: [ImportReport], instrument: [Setting: ExecutionValue]?)?, _ result: FetchResult) -> [String] {
        let reports = written?.reports ?? []
        var out = reports.isEmpty ? [nothingNew(result)] : reports.map { self.written($0, result) }
        if written?.instrument != nil {
            let given = ExecutionRequest.instrumentSettings.compactMap { s -> String? in
                switch result.instrument[s] {
                case .number(let v)?: "\(s.name) \(NumberText.shortest(v))"
                case .text(let t)?: "\(s.name) \(t)"
                default: nil
                }
            }
            out.append("\(symbol) instrument: \(given.joined(separator: ", ")) (\(source.rawValue))")
        }
        return out
    }

    /// The line of a series the fetched bars were written into.
    package func written(_ report: ImportReport, _ result: FetchResult) -> String {
        let resumed = result.resumedAfter.map { "; resumed after \(UTCTime.iso($0))" } ?? ""
        return "\(report.symbol) \(report.timeframe): \(report.added) \(funding ? "rates" : "bars") added, \(report.updated) updated, "
            + "\(report.unchanged) unchanged (\(source.rawValue), \(result.tally)\(resumed))"
    }
}
