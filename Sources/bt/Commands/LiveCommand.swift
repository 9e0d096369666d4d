import Backtest
import Foundation
import Strategies

extension Command {
    static let live = Command(
        path: ["live"],
        help: EmbeddedAssets.liveTXT,
        positionals: [
            PositionalSpec(name: "STRATEGY", help: StrategyOptions.positional.help, optional: true),
            PositionalSpec(name: "SYMBOL", help: "The exchange's symbol (BTCUSDT); bars and the book are stored under it"),
        ],
        options: [.exchange, .interval.withHelp("Bar interval: 1m 5m 15m 30m 1h 4h 1d (default 1m)"), .wsURL, .baseURL
                    .withHelp("The REST address for klines and depth snapshots (default the exchange's: api.binance.com, fapi.binance.com)"),
                  .duration, .journal, .staleSeconds, .maxBackoff, .warmupBars, .fps, .param, .maxStale] + StrategyOptions.all
            + LiveOptions.execution + [.json]
    ) { args in
        let chosen = try args.strategy()
        guard chosen.rest.count == 1 else {
            throw UsageError(args.ruleOptions.isEmpty ? "give STRATEGY and SYMBOL"
                             : "with \(Option.entry)/\(Option.exit), give only SYMBOL (the rules are the strategy)", command: "live")
        }
        let symbol = try SeriesName.normalized(chosen.rest[0])
        var settings = try args.liveSettings(symbol: symbol)
        let strategy = chosen.strategy, parameters = try chosen.strategy.parameters(args.values(.param))
        try strategy.checkLive(parameters, symbol: symbol, interval: settings.interval)
        let json = args.flag(.json)
        // The settings are checked before the store is touched: a refused command creates nothing.
        // The execution settings need bars (volatility sizing infers the periods per year): the
        // stored ones, else none until the warm-up has run.
        let stored = try CandleStore.ifPresent(at: args.databasePath)
        let bars = (try? stored?.load(symbol: symbol, timeframe: settings.interval))
            ?? CandleSeries(symbol: symbol, timeframe: settings.interval)
        var config = try args.executionConfig(symbol: symbol, candles: bars, store: try args.openStore(), strategy: strategy,
                                              parameters: parameters, depth: "none")
        config.maxParticipation = nil
        // The session writes bar by bar into the store itself (not into a staged copy moved into
        // place at the end), so a kill leaves every bar it recorded: an empty store is made first.
        if stored == nil { try args.updatingStore { _ in } }
        let store = try args.openStoreForWriting()
        // On a terminal, without NO_COLOR and --json: the dashboard; else a line per event.
        let screen = Environment.colorAllowed(STDERR_FILENO) && !json
            ? LiveScreen(indicators: strategy.indicators(parameters), fps: settings.fps, color: true,
                         terminalSize: { Environment.terminalSize(2) }) : nil
        settings.dashboard = screen != nil
        let lines = LiveLines()
        let session = LiveSession(settings: settings, store: store, config: config,
                                  strategy: strategy, parameters: parameters,
                                  report: { screen?.report($0) ?? lines.report($0) })
        LiveInterrupt.install()
        defer { LiveInterrupt.uninstall() }
        // The dashboard gives the terminal back before the summary is printed, whatever happens.
        let summary = try { () throws -> LiveSummary in
            screen?.start()
            defer { screen?.stop() }
            return try session.run(shouldStop: LiveInterrupt.requested)
        }()
        let replay = args.replayCommand(summary)
        Output.write(json ? summary.json(replay: replay).serialized() + "\n" : LiveSummaryText.text(summary, replay: replay))
        // A session that received nothing did nothing: after its summary, exit 1 (as a fetch that
        // got no answer does), so a wrong --ws-url is not taken for a quiet market.
        if let silence = summary.receivedNothing { throw LiveSilence(description: silence) }
    }
}

/// The run options `bt live` takes: every execution option but the depth model (the live book
/// is the depth) and the synthetic book's knobs.
enum LiveOptions {
    static let execution = ExecutionOptions.options(ExecutionSetting.all.filter { !ExecutionRequest.syntheticKnobs.contains($0.setting) })
    /// Options that change only how the session runs or is shown, not its fills: left out of
    /// the journal's settings, so a resume may change them.
    static let notDecidingFills: Set<String> = [
        Option.duration.name, Option.journal.name, Option.wsURL.name, Option.baseURL.name, Option.staleSeconds.name,
        Option.maxBackoff.name, Option.warmupBars.name, Option.json.name, Option.fps.name, Option.db.name,
    ]
}

extension ParsedArguments {
    /// The session's settings from the options.
    func liveSettings(symbol: String) throws -> LiveSettings {
        guard let market = LiveSettings.markets[value(.exchange)?.lowercased() ?? "binance"] else {
            throw UsageError("\(Option.exchange): '\(value(.exchange)!)' is not an exchange bt follows (binance, binance-futures)", command: "live")
        }
        try LiveSettings.checkExecution(try executionRequest, market: market)
        let interval = try BinanceFetch.interval(value(.interval) ?? "1m")
        let base = value(.baseURL) ?? market.defaultBaseURL
        guard let baseURL = URL(string: base), let scheme = baseURL.scheme, ["http", "https"].contains(scheme.lowercased()) else {
            throw UsageError("\(Option.baseURL): '\(base)' is not an http:// or https:// URL", command: "live")
        }
        var s = LiveSettings(symbol: symbol, interval: interval, market: market, webSocketURL: value(.wsURL) ?? market.defaultWebSocketURL,
                             baseURL: baseURL, settingsText: liveSettingsText)
        _ = try WebSocketAddress(s.webSocketURL)
        if let d = value(.duration) { s.durationSeconds = try LiveSettings.seconds(duration: d) }
        if let v = try double(.staleSeconds) { try s.setStaleSeconds(v) }
        if let v = try double(.maxBackoff) { try s.setMaxBackoffSeconds(v) }
        if let v = try double(.warmupBars) { try s.setWarmUpBars(v) }
        if let v = try double(.fps) { try s.setFPS(v) }
        if let name = value(.journal) { try s.setJournal(name) }
        s.maxStale = try OtherSeriesReader.seconds(maxStale: value(.maxStale))
        return s
    }

    /// The command line without the options that do not decide fills: what a journal keeps.
    var liveSettingsText: String {
        liveTokens(leavingOut: LiveOptions.notDecidingFills).joined(separator: " ")
    }

    /// The words typed after `bt live`, without the options named in `names` (and their values).
    func liveTokens(leavingOut names: Set<String>) -> [String] {
        CommandWords.removing(names, valued: names.subtracting([Option.json.name]), from: Array(commandLine.dropFirst(2)))
    }

    /// `bt run` with the session's strategy and options over its stored bars and book: the
    /// command whose fills equal the session's.
    func replayCommand(_ summary: LiveSummary) -> String {
        let words = ["bt", "run"]
            + liveTokens(leavingOut: LiveOptions.notDecidingFills.union([Option.exchange.name, Option.interval.name,
                                                                         Option.depth.name, Option.maxParticipation.name]))
            + ["--db", databasePath, "--timeframe", summary.interval.rawValue, "--depth", "book", "--max-participation", "0",
               "--from", UTCTime.iso(summary.startTime)]
        return words.map(Markdown.shellQuoted).joined(separator: " ")
    }
}
