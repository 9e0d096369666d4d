import Backtest
import Foundation

extension Command {
    static let dataFetch = Command(
        path: ["data", "fetch"],
        help: EmbeddedAssets.dataFetchTXT,
        positionals: [
            PositionalSpec(name: "SOURCE", help: "binance, binance-futures (with --funding) or alphavantage"),
            PositionalSpec(name: "SYMBOL", help: "The service's symbol (BTCUSDT, IBM); stored under that name"),
        ],
        options: [
            .interval.withHelp("Binance bar interval: 1m 5m 15m 30m 1h 4h 1d 1w 1M (required)"),
            .funding.withHelp("binance-futures: the funding-rate history (the only data it serves for now)"),
            .from.withHelp("Binance: first bar time, inclusive (default: the listing, or after the last stored bar)"),
            .to.withHelp("Binance: last bar time, inclusive (default: the last complete bar)"),
            .adjusted.withHelp("Alpha Vantage: the adjusted daily series (adjusted close; open, high, low scaled, volume inversely)"),
            .apiKey.withHelp("Alpha Vantage API key (default $ALPHAVANTAGE_API_KEY)"),
            .baseURL.withHelp("The service's address, for a mirror (default https://api.binance.com, "
                + "https://fapi.binance.com, https://www.alphavantage.co)"),
            .timeout.withHelp("Seconds without a byte before a request is retried, and 4 x S for a whole answer (default 30)"),
            .attempts, .maxWait.withHelp("Longest rate-limit wait to sit out, at most 604800; a longer one fails at once (default 300)"),
        ]
    ) { args in
        let source = try FetchSource(parsing: args.required(0))
        var request = FetchRequest(source: source, symbol: try args.symbol(at: 1), policy: try args.fetchPolicy)
        request.funding = args.flag(.funding)
        let progress = FetchProgress(label: "\(request.symbol) pages")
        let result: FetchResult
        do {
            // The stored series, read-only, for the fetch to resume; closed before anything is written.
            let store = try CandleStore.ifPresent(at: args.databasePath)
            switch source {
            case .binance, .binanceFutures:
                request.interval = args.value(.interval)
                if source == .binance { _ = try request.binanceInterval() }  // checked before the range, as it always was
                (request.from, request.to) = try args.dateRange
            case .alphavantage:
                request.apiKey = args.value(.apiKey)
                request.adjusted = args.flag(.adjusted)
            }
            request.baseURL = args.value(.baseURL)
            result = try request.fetch(store: store, environment: ProcessInfo.processInfo.environment, events: progress.handle)
        } catch {
            progress.finish(completed: false)
            throw (error as? FetchError).map { FetchFailure($0) as Error } ?? error
        }
        progress.finish(completed: true)
        let written = result.file == nil && result.instrument.isEmpty ? nil
            : try args.updatingStore { try $0.write(fetched: result, symbol: request.symbol) }
        request.lines(written, result).forEach { Output.line($0) }
    }
}

/// A fetch that failed, worded for the command line (exit 1): the library's error, advice, and
/// the promise that the store is as it was.
struct FetchFailure: Error, CustomStringConvertible {
    let description: String

    init(_ e: FetchError) {
        let advice: String
        switch e.kind {
        case .network, .server:
            advice = e.attempts > 1 ? " (\(Option.attempts) and \(Option.timeout) allow more patience)" : ""
        case .rateLimited, .banned:
            advice = e.reason.contains("longest wait") ? " (wait, or raise \(Option.maxWait))" : ""
        case .badAnswer, .information:
            advice = ""
        }
        description = "\(e)\(advice); nothing was stored"
    }
}

extension ParsedArguments {
    /// `--attempts`, `--timeout`, `--max-wait`, and `$BT_FETCH_BACKOFF` (the first backoff delay
    /// in seconds, default 1: tests make it small).
    var fetchPolicy: FetchPolicy {
        get throws {
            var backoff = 1.0
            if let text = Environment.value("BT_FETCH_BACKOFF") {
                guard let v = Double(text), v.isFinite, v >= 0, v <= 3600 else {
                    throw UsageError("BT_FETCH_BACKOFF '\(text)' is not a number of seconds in [0, 3600]")
                }
                backoff = v
            }
            return try FetchPolicy.checked(attempts: try int(.attempts), timeoutSeconds: try int(.timeout),
                                           maxWaitSeconds: try double(.maxWait), backoffSeconds: backoff, userAgent: "bt/\(btVersion)")
        }
    }
}

/// Pages fetched, as a progress bar on a terminal (never in pipes, logs, or with TERM=dumb),
/// and waits as notes on standard error.
final class FetchProgress {
    private let label: String
    private let enabled = Environment.isTerminal(2) && Environment.value("TERM") != "dumb"
    private var bar: ProgressBar?
    private var total = 0
    private var done = 0

    init(label: String) { self.label = label }

    func handle(_ event: FetchEvent) {
        switch event {
        case .page(let number, let estimate, _):
            done = number
            guard enabled, let estimate else { return }
            if bar == nil {
                total = estimate
                bar = ProgressBar(total: total, label: label)
            }
            if done < total { bar?.update(done) }
        case .waiting(let seconds, let reason):
            if bar != nil { FileHandle.standardError.write(Data("\n".utf8)) }
            Diagnostics.line("note: \(reason); waiting \(FetchResult.seconds(seconds)) before the next request")
        }
    }

    /// Ends the bar's line: full when the fetch `completed`, else as it stands.
    func finish(completed: Bool) {
        if completed { bar?.update(total) } else if bar != nil { FileHandle.standardError.write(Data("\n".utf8)) }
        bar = nil
    }
}
