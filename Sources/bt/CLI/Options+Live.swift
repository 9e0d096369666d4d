import Backtest

/// The options of `bt live` (the others it takes are bt run's).
extension Option {
    static let exchange = Option("exchange", kind: .value, valueName: "NAME", help: "Whose public streams to follow: binance (spot) or binance-futures (USD-M perpetuals)")
    static let wsURL = Option("ws-url", kind: .value, valueName: "URL",
                              help: "The WebSocket stream's address (default Binance's; tests: a local server)")
    static let duration = Option("duration", kind: .value, valueName: "D", help: "How long to run: 90s, 10m, 2h (default: until Ctrl-C)")
    static let journal = Option("journal", kind: .value, valueName: "NAME",
                                help: "Journal the session under NAME in the store; the same NAME resumes it")
    static let staleSeconds = Option("stale-seconds", kind: .value, valueName: "S",
                                     help: "Seconds without a message before the stream counts as lost (default 30)")
    static let maxBackoff = Option("max-backoff", kind: .value, valueName: "S",
                                   help: "Longest wait between reconnection attempts, in seconds (default 60)")
    static let warmupBars = Option("warmup-bars", kind: .value, valueName: "N",
                                   help: "Bars of klines to load before the session (default 500)")
}

/// The options of `bt bench live`.
extension Option {
    static let updates = Option("updates", kind: .value, valueName: "N", help: "Depth updates parsed and applied (default 100000)")
    static let sessionBars = Option("session-bars", kind: .value, valueName: "N",
                                    help: "One-minute bars of the timed session (default 60)")
}

extension Option {
    static let fps = Option("fps", kind: .value, valueName: "N", help: "Dashboard redraws a second at most, 1 to 30 (default 4)")
}
