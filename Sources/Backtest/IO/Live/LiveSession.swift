import BacktestAnalysis
import BacktestCore
import BacktestData
import Dispatch
import Foundation

/// What a live session is told to do, from `bt live`'s options.
package struct LiveSettings: Sendable {
    package var symbol: String
    package var interval: Timeframe
    /// Spot, or the USD-M futures market (its perpetuals: the mark price stream is followed too,
    /// and its funding settlements recorded, `LiveFunding`).
    package var market = BinanceMarket.spot
    /// The WebSocket server, without the stream path (`wss://stream.binance.com:9443`).
    package var webSocketURL: String
    /// The REST server (klines, depth snapshots).
    package var baseURL: URL
    /// Wall-clock seconds to run, the warm-up included; nil: until stopped. REST requests
    /// still waiting then get `LiveSession.graceSeconds` more, the session's end (the last bar's
    /// kline) included, and are given up after it.
    package var durationSeconds: Double?
    /// Wall-clock seconds without a message after which the stream counts as lost.
    package var staleSeconds: Double = 30
    /// The longest wait between reconnection attempts, seconds.
    package var maxBackoffSeconds: Double = 60
    /// Bars of klines loaded before the session.
    package var warmUpBars: Int = 500
    /// The journal's name; nil: a session of its own, not resumable.
    package var journal: String?
    /// The options that decide fills, as typed: a resumed journal must be given the same.
    package var settingsText: String
    /// The REST fetches' retry policy (tests shorten it).
    package var fetchPolicy = FetchPolicy()
    /// Longest wall-clock wait, after a bar closes, for the depth stream to pass the next bar's
    /// opening millisecond before filling against the book as it stands.
    package var bookWaitSeconds: Double = 1
    /// Whether a dashboard draws the session: `.status` is then reported `fps` times a second.
    package var dashboard = false
    /// Dashboard redraws a second at most (`--fps`).
    package var fps: Double = 4
    /// How long another symbol's value read with `@` may be carried past its bar's close beyond
    /// its bar length, seconds (`--max-stale`, `OtherSeriesReader.seconds`); nil: its bar length only.
    package var maxStale: Int64?

    package init(symbol: String, interval: Timeframe, market: BinanceMarket = .spot, webSocketURL: String, baseURL: URL,
                 settingsText: String) {
        self.symbol = symbol; self.interval = interval; self.market = market; self.webSocketURL = webSocketURL; self.baseURL = baseURL
        self.settingsText = settingsText
    }
}

/// What happens in a session, as it happens: `bt live` prints each as a line or redraws its
/// dashboard.
package enum LiveEvent: Sendable {
    case warmUp(bars: Int, stored: Int)
    case resumed(journal: String, fills: Int)
    case connected(String)
    case synced(lastUpdateId: Int64)
    /// A closed bar; `source` says whether trades or a backfilled kline made it.
    case bar(TradeBar, source: BarSource)
    case fill(Fill)
    /// A perpetual's funding settlement seen in the mark price stream, recorded.
    case funding(FundingRate)
    case disconnected(reason: String, retryInSeconds: Double, attempt: Int)
    case gap(expectedFirstId: Int64)
    case skipped(FrameRejection)
    case warning(String)
    /// The session's state for a dashboard, at most `LiveSettings.fps` times a second.
    case status(LiveStatus)
}

/// Where a session's bar came from.
package enum BarSource: String, Sendable {
    /// Every trade of its bucket was received.
    case trades
    /// Trades of its bucket were missed (a connection started or resumed inside it, a trade-id
    /// gap): the exchange's kline replaced it.
    case kline
}

/// The end of a session, for its summary.
package struct LiveSummary: Sendable {
    package var symbol: String
    package var interval: Timeframe
    package var startTime: Int64
    package var journal: String?
    package var bars = 0
    package var barsFromKlines = 0
    package var barsDropped = 0
    package var fills: [Fill] = []
    /// The funding settlements the session recorded (a USD-M session's).
    package var funding: [FundingRate] = []
    /// The other symbols the rules read: the session's bars of each, and how many came from klines.
    package var others: [(symbol: String, bars: Int, fromKlines: Int)] = []
    /// The engine's run over the session's bars at the end (trades, equity, statistics).
    package var result: BacktestResult?
    package var messages = 0
    package var trades = 0
    package var depthUpdates = 0
    package var markUpdates = 0
    package var reconnects = 0
    package var syncs = 0
    package var gaps = 0
    package var snapshotsRefused = 0
    package var skipped: [String: Int] = [:]
    package var lateTrades = 0
    package var divergences = 0
    package var warnings: [String] = []
    package var seconds = 0.0
    /// When no message at all arrived from the stream, why (also among `warnings`): the
    /// session then did nothing, and `bt live` exits 1 after its summary.
    package var receivedNothing: String?
}

/// A live paper session: warm-up from klines, the combined trade and depth stream of one
/// symbol, bars from trades by exchange time, the book kept by Binance's procedure
/// (`DepthSync`), fills by `LivePaperTrader`, and everything it used recorded in the store
/// bar by bar (`CandleStore.recordLiveBar`), so `bt run --depth book --from START` replays it.
/// On the USD-M market the mark price stream is followed too: each funding settlement it
/// passes (`LiveFunding`) joins the trader's funding rows and is recorded with the next bar.
/// Other symbols the rules read with `@` (`close@ETHUSDT`) are followed on the same connection
/// (`<symbol>@trade`), their bars made final before a bar of the session's symbol closing at
/// the same time is decided (`LiveOtherSymbol`) and recorded with it.
///
/// Faults: a close or a stream silent for `staleSeconds` is a disconnect; reconnection waits
/// an exponential backoff with jitter, capped at `maxBackoffSeconds`, then resubscribes and
/// resyncs the book. Trades missed meanwhile are detected by their consecutive ids; the bars
/// they belong to are taken from the exchange's klines when they close, and a bar that cannot
/// be had complete is left out (no decision is made on it). Frames dated ahead of the
/// exchange's clock (`ExchangeClock`) are skipped; a trade for a bar already held is late. A
/// store or journal that is ahead of the exchange's clock is refused before the session starts.
/// Refused depth snapshots are asked for again on a `SnapshotSchedule`; repeated warnings are
/// coalesced (`LiveWarnings`).
package final class LiveSession {
    private let settings: LiveSettings
    private let store: CandleStore
    private let config: ExecutionConfig
    private let strategy: Strategy
    private let parameters: StrategyParameters
    private let report: (LiveEvent) -> Void
    private let parser: BinanceFrameParser
    /// The REST client, with the session's deadline once `run` starts.
    private var client: RetryingClient
    /// The exchange's clock, from its server time at the start (`prepare`).
    private var clock: ExchangeClock!
    /// The last local receive time given to a recorded event, UTC ns (`receivedNs`).
    private var lastReceivedNs = Int64.min
    /// The exchange's request-weight window (`exchangeInfo`), when it says one.
    private var weightLimit: (weight: Int, seconds: Double)?
    private var snapshots: SnapshotSchedule
    private var sync: DepthSync
    private var funding = LiveFunding()
    /// Funding rows recorded and not yet written.
    private var fundingDue: [FundingRate] = []
    /// `sync`'s refusals and syncs already seen by the snapshot schedule.
    private var seenRefusals = 0, seenSyncs = 0
    private var warnings = LiveWarnings()
    /// Connections made, and why the last one ended.
    private var connections = 0
    private var lastClose: String?
    private var builder: TradeBarBuilder
    /// The other symbols the rules read, and a frame parser for each.
    private var others: [LiveOtherSymbol] = []
    private let otherParsers: [String: BinanceFrameParser]
    private var trader: LivePaperTrader!
    private var summary: LiveSummary
    /// The id of the last trade received, nil before the first. Kept across reconnects: a trade
    /// at or below it is a repeat, one above it plus one means trades were missed.
    private var lastTradeId: Int64?
    /// Buckets (UTC s) whose trades are known to be incomplete.
    private var incompleteBuckets: Set<Int64> = []
    /// Prints and book events recorded and not yet written.
    private var prints: [TradePrint] = []
    private var events: [BookEvent] = []
    /// The latest depth event time seen (buffered or applied), UTC ms.
    private var depthSeenMs = Int64.min
    /// The book events up to this time (UTC ms) are written.
    private var writtenThroughMs = Int64.min
    /// A closed bar waiting for the depth stream to pass the next bar's opening, with the
    /// opening print and the wall time it closed.
    private var pending: (bar: TradeBar, opening: TradePrint, since: Double)?
    private var journal: LiveJournal?

    /// - Parameters:
    ///   - config: execution settings; the depth is the live (recorded) book whatever it says.
    ///   - strategy: what decides, with `parameters`: bar by bar when it has an incremental form.
    ///   - report: called on the session's thread for every event.
    package init(settings: LiveSettings, store: CandleStore, config: ExecutionConfig,
                 strategy: Strategy, parameters: StrategyParameters, report: @escaping (LiveEvent) -> Void) {
        self.settings = settings
        self.store = store
        self.config = config
        self.strategy = strategy
        self.parameters = parameters
        self.report = report
        parser = BinanceFrameParser(symbol: settings.symbol)
        otherParsers = strategy.otherSymbols(besides: settings.symbol).reduce(into: [:]) { $0[$1] = BinanceFrameParser(symbol: $1) }
        client = RetryingClient(policy: settings.fetchPolicy, events: { _ in })
        snapshots = SnapshotSchedule(cap: settings.maxBackoffSeconds)
        sync = DepthSync(procedure: settings.market == .spot ? .spot : .futures)
        builder = TradeBarBuilder(timeframe: settings.interval)
        summary = LiveSummary(symbol: settings.symbol, interval: settings.interval, startTime: 0, journal: settings.journal)
    }

    private var symbol: String { settings.symbol }
    private var seconds: Int64 { settings.interval.seconds }

    /// Seconds REST requests may run past the duration (the last bar's kline at the end).
    package static let graceSeconds = 3.0

    /// Monotonic seconds, for waits and the exchange clock's estimate (never the wall clock).
    private static func monotonic() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// The local receive time recorded beside a frame's exchange time (`BookEvent.localNs`,
    /// `TradePrint.localNs`): this machine's wall clock now, UTC ns, never before the last one
    /// given (a clock stepped back repeats it), so the recording's local times keep their order.
    private func receivedNs() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        lastReceivedNs = max(lastReceivedNs, Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
        return lastReceivedNs
    }

    /// Runs the session until `shouldStop` returns true (checked at least every 50 ms) or the
    /// duration passes; returns its summary.
    /// - Throws: `InputError` for a journal of other settings, a store or journal ahead of the
    ///   exchange's clock, or a refused request; `FetchError` when the warm-up cannot be fetched
    ///   (within the duration, with a grace); a store error when a bar cannot be recorded; and
    ///   what the strategy throws.
    package func run(shouldStop: () -> Bool) throws -> LiveSummary {
        let began = Date()
        var policy = settings.fetchPolicy
        if let d = settings.durationSeconds { policy.deadline = .now() + d + Self.graceSeconds }
        client = RetryingClient(policy: policy, events: { _ in })
        try prepare()
        let address = try WebSocketAddress(settings.webSocketURL, path: "/stream?streams="
            + "\(symbol.lowercased())@trade/\(symbol.lowercased())@depth@100ms"
            + (settings.market == .spot ? "" : "/\(symbol.lowercased())@markPrice@1s")
            + others.map { "/\($0.symbol.lowercased())@trade" }.joined())
        var attempt = 0
        func timeUp() -> Bool {
            shouldStop() || settings.durationSeconds.map { Date().timeIntervalSince(began) >= $0 } ?? false
        }
        connections: while !timeUp() {
            let socket = try WebSocketClient(address)
            // Closed however the connection ends: its thread and libwebsockets' context go with it.
            defer { socket.close() }
            connections += 1
            var lastMessage = Date()
            var reason = "closed"
            stream: while true {
                if timeUp() { break connections }
                for (k, event) in socket.next(timeout: 0.05).enumerated() {
                    // A backlog (a burst, a slow machine) is worked through, but the duration and
                    // Ctrl-C are still honoured within it.
                    if k & 1023 == 1023, timeUp() { break connections }
                    switch event {
                    case .connected:
                        report(.connected(address.description))
                        lastMessage = Date()
                    case .message(let bytes):
                        lastMessage = Date()
                        attempt = 0
                        summary.messages += 1
                        try receive(bytes)
                    case .closed(let why):
                        reason = why
                        break stream
                    }
                }
                try fetchSnapshotIfWanted()
                try closePendingBar(force: false)
                reportStatus(connected: true)
                if Date().timeIntervalSince(lastMessage) > settings.staleSeconds {
                    reason = "no message for \(NumberText.shortest(settings.staleSeconds)) s"
                    break stream
                }
            }
            lastClose = reason
            // Disconnected: the book is unknown until the next sync; trades from here on are
            // checked against the last id for a gap.
            sync.disconnected(localNs: receivedNs())
            attempt += 1
            summary.reconnects += 1
            let wait = Self.backoff(attempt: attempt, cap: settings.maxBackoffSeconds)
            report(.disconnected(reason: reason, retryInSeconds: wait, attempt: attempt))
            let until = Date().addingTimeInterval(wait)
            while Date() < until {
                if timeUp() { break connections }
                try closePendingBar(force: false)
                reportStatus(connected: false)
                usleep(20_000)
            }
        }
        try finish()
        summary.seconds = Date().timeIntervalSince(began)
        if summary.messages == 0 {
            let text = "no message was received from \(address.description) in \(String(format: "%.0f", summary.seconds)) s "
                + "(\(connections) connection\(connections == 1 ? "" : "s")"
                + (lastClose.map { ", the last ended: \($0)" } ?? "") + "): check the stream's address and the network"
            summary.receivedNothing = text
            summary.warnings.append(text)
        }
        return summary
    }

    /// The wait before reconnection attempt `attempt` (1, 2, ...): 0.5 s doubling per attempt,
    /// capped at `cap`, times a jitter in [0.5, 1] so many clients do not come back in step.
    package static func backoff(attempt: Int, cap: Double, jitter: Double = Double.random(in: 0.5...1)) -> Double {
        min(cap, 0.5 * pow(2, Double(min(attempt - 1, 30)))) * jitter
    }

    /// Reports a warning (a repeat of kind `key` only now and then) and keeps it for the summary.
    private func warn(_ text: String, key: String? = nil) {
        if let line = warnings.add(text, key: key) { report(.warning(line)) }
    }

    // MARK: - Status

    private var lastStatus = 0.0
    private var messagesAtLastStatus = 0

    /// Reports `.status` when 1 / `fps` seconds passed since the last one: what a dashboard draws.
    private func reportStatus(connected: Bool) {
        guard settings.dashboard, trader != nil else { return }
        let every = 1 / settings.fps
        let now = Date().timeIntervalSince1970
        guard now - lastStatus >= every else { return }
        let elapsed = lastStatus == 0 ? every : now - lastStatus
        lastStatus = now
        var bars = trader.series.slice(max(0, trader.series.count - LiveStatus.barsKept)..<trader.series.count)
        if let f = builder.forming, bars.time.last.map({ f.time > $0 }) ?? true {
            bars.append(time: f.time, open: f.open, high: f.high, low: f.low, close: f.close, volume: f.volume)
        }
        var top: (bids: [BookLevel], asks: [BookLevel]) = ([], [])
        if sync.state == .synced {
            sync.book.visitLevels(.buy) { top.bids.append($0); return top.bids.count < LiveStatus.levelsKept }
            sync.book.visitLevels(.sell) { top.asks.append($0); return top.asks.count < LiveStatus.levelsKept }
        }
        let r = trader.lastResult
        report(.status(LiveStatus(
            symbol: symbol, interval: settings.interval, connected: connected, synced: sync.state == .synced,
            messagesPerSecond: Double(summary.messages - messagesAtLastStatus) / max(elapsed, 1e-3),
            messages: summary.messages, reconnects: summary.reconnects, gaps: sync.gaps, bars: bars, sessionStart: trader.startTime,
            bids: top.bids, asks: top.asks, initialCash: config.initialCash, cash: r?.cash.last ?? config.initialCash,
            position: r?.position.last ?? 0, equity: r?.equity.last ?? config.initialCash,
            fills: Array(trader.reported.suffix(5)))))
        messagesAtLastStatus = summary.messages
    }

    // MARK: - Start and end

    /// Loads the warm-up (or resumes the journal) and sets up the trader.
    /// - Throws: `InputError` when the journal is of other settings or damaged, or when the
    ///   stored bars or the journal are ahead of the exchange's clock (a session's bars must
    ///   follow them).
    private func prepare() throws {
        let exchange = try BinanceFetch.exchangeInfo(symbol: symbol, baseURL: settings.baseURL, market: settings.market, client: client)
        clock = ExchangeClock(serverMs: exchange.serverTimeMs, at: Self.monotonic())
        weightLimit = exchange.weightLimit
        let clockTime = floorDiv(exchange.serverTimeMs, 1000)
        // The bar forming at the exchange's time: a session's first trades are in it (a stored bar
        // there is one an earlier session closed early; its trades then count as late).
        let forming = settings.interval.bucketStart(clockTime)
        let start: Int64
        if let name = settings.journal, let stored = try store.liveJournal(name) {
            guard stored.symbol == symbol, stored.interval == settings.interval.rawValue, stored.settings == settings.settingsText else {
                throw InputError("journal '\(name)' is a session of \(stored.symbol) \(stored.interval) with \(stored.settings); "
                                     + "resume it with the same symbol, interval and options, or give another name",
                                 setting: .journal, value: name)
            }
            guard UTCTime.supportedRange.contains(stored.startTime), settings.interval.bucketStart(stored.startTime) == stored.startTime else {
                throw InputError("journal '\(name)' starts at \(UTCTime.describe(stored.startTime)), which is not the opening of a "
                                     + "\(settings.interval.rawValue) bar: the journal was changed outside bt; give another name",
                                 setting: .journal, value: name)
            }
            guard stored.startTime <= forming + seconds else {
                throw InputError("journal '\(name)' started its session at \(UTCTime.iso(stored.startTime)), after the exchange's "
                                     + "clock (\(UTCTime.iso(clockTime)) at \(settings.baseURL.absoluteString)): it cannot be resumed "
                                     + "against this exchange; check its address, or give another name",
                                 setting: .journal, value: name)
            }
            journal = stored
            start = stored.startTime
            report(.resumed(journal: name, fills: stored.fills.count))
        } else {
            start = forming + seconds
        }
        // Klines up to the last closed bar: the warm-up, or what a resumed session missed.
        let stored = try storedBars()
        if let last = stored.time.last, last > forming {
            throw InputError("the stored \(symbol) \(settings.interval.rawValue) bars end at \(UTCTime.iso(last)), after the "
                                 + "exchange's clock (\(UTCTime.iso(clockTime)) at \(settings.baseURL.absoluteString)): a session's "
                                 + "bars must follow them. Check the exchange's address, or keep the session in another store, or "
                                 + "remove the stored series",
                             setting: .store, value: store.path)
        }
        // What the rules read with `@` is checked against the store before the warm-up writes to it.
        try strategy.checkLive(parameters, symbol: symbol, interval: settings.interval, store: store)
        // Other symbols the rules read first: one the exchange refuses, or without bars, is refused
        // before the session's own warm-up is written.
        let otherHistory = try warmUpOthers(from: start - seconds * Int64(settings.warmUpBars + 1), forming: forming)
        let from = stored.time.last.map { $0 + seconds } ?? (start - seconds * Int64(settings.warmUpBars + 1))
        let loaded = try backfill(from: from)
        let history = try storedBars()
        report(.warmUp(bars: loaded, stored: history.count))
        summary.startTime = start
        var recorded = (try? store.bookEvents(symbol: symbol)) ?? []
        // The stored book ends where its recording stopped (an earlier session, a crash): from
        // just after its last event the book is unknown until this session syncs, so a replay
        // fills nothing against a book that was not watched.
        if let last = recorded.last, !(last.kind == .snapshot && last.bids.isEmpty && last.asks.isEmpty) {
            let unknown = BookEvent(timeMs: last.timeMs + 1, kind: .snapshot, bids: [], asks: [])
            recorded.append(unknown)
            try store.recordLiveBar(symbol: symbol, bars: CandleSeries(symbol: symbol, timeframe: settings.interval),
                                    prints: [], events: [unknown], journal: nil)
        }
        if journal == nil, let name = settings.journal {
            journal = LiveJournal(name: name, symbol: symbol, interval: settings.interval.rawValue, startTime: start,
                                  settings: settings.settingsText, cash: config.initialCash, position: 0, equity: config.initialCash)
        }
        // A perpetual's stored funding rows (an earlier session's, or fetched), then those this
        // session records: the rows the replay reads from the store.
        var config = self.config
        if config.instrument == .perp {
            config.funding = try store.funding(symbol: symbol)
            funding = LiveFunding(lastRecordedMs: config.funding.last?.timeMs ?? .min)
        }
        let source = try LiveOtherSeries(symbol: symbol, interval: settings.interval, history: history, others: otherHistory,
                                         store: store, maxStale: settings.maxStale)
        others = otherHistory.keys.sorted().map { LiveOtherSymbol(feed: source.feeds[$0]!) }
        trader = try LivePaperTrader(history: history, startTime: start, events: recorded, config: config,
                                     journaled: journal?.fills ?? [], strategy: strategy.following(source), parameters: parameters)
        try trader.prepare()
    }

    /// The end: the bar still forming is closed as it stands (its trades are all recorded), so
    /// the replay holds every fill the session reported; the events after it are written too.
    private func finish() throws {
        if let p = pending {
            try close(p.bar, opening: p.opening)
            pending = nil
        }
        // The other symbols' bars forming end as they stand, as the session's own last bar does.
        for k in others.indices {
            others[k].finish()
            summary.lateTrades += others[k].lateTrades
            summary.others.append((others[k].symbol, others[k].bars, others[k].barsFromKlines))
        }
        if let bar = builder.finish(), !incompleteBuckets.contains(bar.time) {
            try close(bar, opening: nil)
        } else {
            // Nothing more to store (a bar that missed trades cannot be completed now): the last
            // run is over the stored bars alone.
            try record(bars: nil, eventsThroughMs: .max, final: true)
        }
        summary.result = trader.lastResult
        // Kept for the summary, not reported: the run's own warnings (no liquidity, rejected
        // orders, a crossed book ...), as bt run says them, and the session's counts.
        for w in trader.lastResult?.warnings ?? [] { _ = warnings.add(w.message) }
        if sync.gaps > 0 {
            _ = warnings.add("the depth stream had \(sync.gaps) gap\(sync.gaps == 1 ? "" : "s"); the book was resynced each time")
        }
        if let n = summary.skipped[FrameRejection.futureTimeKind] {
            _ = warnings.add("\(n) frame\(n == 1 ? " was" : "s were") dated ahead of the exchange's clock: skipped, no bar or book "
                                 + "event was made of \(n == 1 ? "it" : "them")")
        }
        summary.warnings = warnings.lines
        summary.divergences = trader.divergences
        summary.syncs = sync.syncs
        summary.gaps = sync.gaps
        summary.snapshotsRefused = sync.snapshotsRefused
    }

    // MARK: - Messages

    private func receive(_ bytes: [UInt8]) throws {
        let localNs = receivedNs()
        let message: StreamMessage
        do {
            message = try bytes.withUnsafeBytes { try parser.message($0) }
        } catch FrameRejection.foreignSymbol(let s) where otherParsers[s] != nil {
            try receiveOther(bytes, symbol: s)
            return
        } catch let rejection as FrameRejection {
            skip(rejection)
            return
        }
        switch message {
        case .depth(let diff):
            guard plausible(diff.eventMs, field: "E") else { return }
            summary.depthUpdates += 1
            depthSeenMs = max(depthSeenMs, diff.eventMs)
            let gapsBefore = sync.gaps
            sync.receive(diff, localNs: localNs)
            if sync.gaps > gapsBefore { report(.gap(expectedFirstId: sync.lastUpdateId + 1)) }
            takeRecorded()
        case .trade(let trade):
            guard plausible(trade.timeMs, field: "T") else { return }
            try receive(trade, localNs: localNs)
        case .mark(let update):
            guard plausible(update.eventMs, field: "E") else { return }
            summary.markUpdates += 1
            if let row = funding.receive(update) { take(row) }
        }
    }

    /// Takes a funding settlement the stream passed: the trader settles it from the next run on,
    /// and it is written with the next bar.
    private func take(_ row: FundingRate) {
        trader.append(funding: row)
        fundingDue.append(row)
        summary.funding.append(row)
        report(.funding(row))
    }

    /// Counts a skipped frame and reports it (not the kinds bt only ignores).
    private func skip(_ rejection: FrameRejection) {
        summary.skipped[rejection.kind, default: 0] += 1
        if case .ignored = rejection { return }
        report(.skipped(rejection))
    }

    /// Whether a frame's time (`field`, UTC ms) is plausible against the exchange's clock
    /// (`ExchangeClock`, which may ask the server's time); an implausible frame is skipped and counted.
    private func plausible(_ timeMs: Int64, field: String) -> Bool {
        let now = Self.monotonic()
        let admitted = clock.admit(timeMs, at: now) {
            do {
                return try BinanceFetch.serverTime(baseURL: settings.baseURL, market: settings.market, client: client).serverTimeMs
            } catch {
                warn("the exchange's time could not be had (\(error)): frames ahead of the clock are skipped meanwhile",
                     key: "server time")
                return nil
            }
        }
        if !admitted { skip(.futureTime(field: field, timeMs: timeMs, clockMs: clock.estimateMs(at: now))) }
        return admitted
    }

    private func receive(_ trade: StreamTrade, localNs: Int64) throws {
        summary.trades += 1
        if let last = lastTradeId, trade.id <= last { return }  // a repeat after a reconnect
        let bucket = builder.bucket(ofMs: trade.timeMs)
        // Late: a trade of a bar before the one forming, or (none forming) of a bar already held,
        // stored before the session (one an earlier session closed early) or closed by it.
        if bucket < builder.forming?.time ?? (trader.series.time.last.map { $0 + 1 } ?? .min) {
            summary.lateTrades += 1
            return
        }
        if lastTradeId.map({ trade.id != $0 + 1 }) ?? true { incompleteBuckets.insert(bucket) }
        lastTradeId = trade.id
        if let row = funding.passed(trade.timeMs) { take(row) }
        if pending != nil { try closePendingBar(force: true) }
        var print = trade.print
        print.localNs = localNs
        if let closed = builder.add(print) {
            pending = (closed, print, Date().timeIntervalSince1970)
            try closePendingBar(force: false)
        }
        prints.append(print)
    }

    /// Asks for the depth snapshot the book waits for, when `snapshots` allows: one try (a failed
    /// one is tried again on the schedule, never in a loop here), the request weight the answer
    /// reports respected.
    /// - Throws: `InputError` when the exchange refuses the request itself (a 4xx other than 429/418).
    private func fetchSnapshotIfWanted() throws {
        let now = Self.monotonic()
        // Refusals since the last call: the snapshot too old for the stream, or no diff straddled it.
        if sync.syncs > seenSyncs { snapshots.synced() }
        if sync.snapshotsRefused > seenRefusals {
            snapshots.refused(at: now)
            snapshotWarning("it could not be joined to the stream: older than its first buffered update, or no update straddled it")
        }
        (seenSyncs, seenRefusals) = (sync.syncs, sync.snapshotsRefused)
        guard sync.wantsSnapshot, snapshots.isDue(at: now) else { return }
        let url = settings.market.endpoint(settings.baseURL, "depth", query: [("symbol", symbol), ("limit", "1000")])
        let reply: HTTPReply
        switch client.send(url, attempt: snapshots.refusals + 1) {
        case .success(let r):
            reply = r
        case .failure(let failure):
            snapshots.refused(at: now)
            if let asked = failure.asked { snapshots.postpone(until: now + asked) }
            snapshotWarning(failure.error.reason)
            return
        }
        // A header that is not a whole number is as good as none here: the 429 it would warn of decides.
        if let used = try? BinanceFetch.usedWeight(BinanceFetch.usedWeightHeader(reply)), let limit = weightLimit,
           let wait = BinanceFetch.weightWait(used: used, limit: limit, weight: SnapshotSchedule.snapshotWeight) {
            snapshots.postpone(until: now + wait)
            warn("request weight \(used) of \(limit.weight) used: no depth snapshot is asked for until the exchange's "
                     + "window of \(RetryingClient.seconds(wait)) has passed", key: "request weight")
        }
        guard reply.status == 200 else { throw FetchSettings.refusal(reply, url: url, service: "Binance") }
        let snapshot: DepthSnapshot
        do {
            snapshot = try reply.body.withUnsafeBytes { try parser.snapshot($0) }
        } catch let rejection as FrameRejection {
            summary.skipped["snapshot", default: 0] += 1
            snapshots.refused(at: now)
            snapshotWarning(rejection.reason)
            return
        }
        if sync.receive(snapshot, localNs: receivedNs()) { report(.synced(lastUpdateId: snapshot.lastUpdateId)) }
        takeRecorded()
    }

    /// One coalesced warning for every refused depth snapshot (the first, then now and then).
    private func snapshotWarning(_ why: String) {
        warn("a depth snapshot was refused (\(why)); the next is asked for after a backoff", key: "snapshot")
    }

    /// Moves what the book went through into `events`. A diff that arrives after the events up
    /// to its time were written (a late frame) is stamped just after them: the fills made
    /// before it did not see it, and neither does their replay.
    private func takeRecorded() {
        for var e in sync.takeRecorded() {
            if e.timeMs <= writtenThroughMs { e.timeMs = writtenThroughMs + 1 }
            events.append(e)
        }
    }

    // MARK: - Bars

    /// Closes the pending bar once the depth stream has passed the next bar's opening
    /// millisecond (or `bookWaitSeconds` passed, or `force`).
    private func closePendingBar(force: Bool) throws {
        guard let p = pending else { return }
        let openMs = builder.bucket(ofMs: p.opening.timeMs) * 1000
        let waited = Date().timeIntervalSince1970 - p.since
        let othersPassed = others.allSatisfy { $0.hasPassed(p.bar.time + seconds) }
        guard force || (depthSeenMs > openMs && othersPassed) || waited >= settings.bookWaitSeconds else { return }
        pending = nil
        try close(p.bar, opening: p.opening)
    }

    /// Stores `bar` (or, when its trades were incomplete, the exchange's kline for it and any
    /// bars missing before it), runs the trader, and records it all with the journal.
    private func close(_ bar: TradeBar, opening: TradePrint?) throws {
        var bars = CandleSeries(symbol: symbol, timeframe: settings.interval)
        let last = trader.series.time.last ?? Int64.min
        var source = BarSource.trades
        if incompleteBuckets.contains(where: { $0 <= bar.time }) {
            // Trades were missed (a trade-id gap, a connection started): the bars they belong to,
            // before this one or this one, are the exchange's klines. A minute without a bar and
            // without a missed trade had no trade: there is nothing to fetch.
            let fetched = try fetchKlines(from: last == Int64.min ? bar.time : last + seconds, to: bar.time)
            for k in fetched.time.indices where fetched.time[k] > last {
                if fetched.time[k] == bar.time && incompleteBuckets.contains(bar.time) { source = .kline }
                if fetched.time[k] < bar.time || source == .kline {
                    bars.append(time: fetched.time[k], open: fetched.open[k], high: fetched.high[k], low: fetched.low[k],
                                close: fetched.close[k], volume: fetched.volume[k])
                }
            }
        }
        if !incompleteBuckets.contains(bar.time) {
            bars.append(time: bar.time, open: bar.open, high: bar.high, low: bar.low, close: bar.close, volume: bar.volume)
        } else if source != .kline {
            summary.barsDropped += 1
            warn("the \(settings.interval.rawValue) bar at \(UTCTime.iso(bar.time)) missed trades and no kline "
                     + "could be had for it: it is left out, and nothing is decided on it")
        }
        incompleteBuckets = incompleteBuckets.filter { $0 > bar.time }
        // Every bar of the other symbols closing by this bar's close is final before it is decided.
        for k in others.indices {
            let other = others[k].symbol
            try others[k].settle(through: bar.time + seconds) { try fetchKlines(symbol: other, from: $0, to: $1) }
        }
        for k in bars.time.indices {
            let from: BarSource = bars.time[k] == bar.time ? source : .kline
            let made = TradeBar(time: bars.time[k], open: bars.open[k], high: bars.high[k], low: bars.low[k], close: bars.close[k],
                                volume: bars.volume[k], trades: from == .trades ? bar.trades : 0)
            trader.append(made)
            summary.bars += 1
            if from == .kline { summary.barsFromKlines += 1 }
            report(.bar(made, source: from))
        }
        let openMs = opening.map { builder.bucket(ofMs: $0.timeMs) * 1000 } ?? Int64.max
        try record(bars: bars, eventsThroughMs: openMs, opening: opening)
    }

    /// Runs the trader over what is held and writes the bars, the prints and book events up
    /// to `eventsThroughMs`, and the journal, in one transaction.
    private func record(bars: CandleSeries?, eventsThroughMs: Int64, opening: TradePrint? = nil, final: Bool = false) throws {
        let split = events.firstIndex { $0.timeMs > eventsThroughMs } ?? events.count
        var due = Array(events[..<split])
        events.removeFirst(split)
        // An empty update at the opening millisecond marks how far the recording reached: a
        // resume after a crash takes the book as unknown only after it (`prepare`), so the
        // fill at this opening replays against the book it was made on.
        if eventsThroughMs != .max { writtenThroughMs = max(writtenThroughMs, eventsThroughMs) }
        if eventsThroughMs != .max, sync.state == .synced, (due.last?.timeMs ?? trader.events.last?.timeMs ?? .min) < eventsThroughMs {
            due.append(BookEvent(timeMs: eventsThroughMs, kind: .update, bids: [], asks: []))
        }
        trader.append(due)
        let openTime = opening.map { builder.bucket(ofMs: $0.timeMs) }
        let printsDue = openTime.map { t in prints.filter { $0.timeMs < t * 1000 } } ?? prints
        prints.removeFirst(printsDue.count)
        var new: [Fill] = []
        if bars != nil || final {
            new = try trader.step(opening: opening.map { (builder.bucket(ofMs: $0.timeMs), $0.price) })
        }
        if var j = journal {
            j.fills = trader.reported
            if let r = trader.lastResult {
                j.cash = r.cash.last ?? j.cash
                j.position = r.position.last ?? j.position
                j.equity = r.equity.last ?? j.equity
            }
            journal = j
        }
        try store.recordLiveBar(symbol: symbol, bars: bars ?? CandleSeries(symbol: symbol, timeframe: settings.interval),
                                prints: printsDue, events: due, funding: fundingDue,
                                others: others.indices.map { others[$0].takeUnwritten() }, journal: journal)
        fundingDue.removeAll()
        for fill in new {
            summary.fills.append(fill)
            report(.fill(fill))
        }
    }

    // MARK: - Other symbols

    /// Each other symbol's bars at the interval when the session starts: the klines after its
    /// last stored bar (or, with none stored, from `from`, UTC s) are fetched into the store as
    /// the session's own warm-up is, then its stored bars are read.
    /// - Throws: `InputError` for a symbol the exchange refuses, one with no bars stored or to
    ///   be had, or one whose stored bars end after `forming` (the bar forming on the exchange's clock).
    private func warmUpOthers(from: Int64, forming: Int64) throws -> [String: CandleSeries] {
        var held: [String: CandleSeries] = [:]
        for other in otherParsers.keys.sorted() {
            do {
                _ = try BinanceFetch.exchangeInfo(symbol: other, baseURL: settings.baseURL, market: settings.market, client: client)
            } catch var e as InputError {
                e.reason = "the rules read \(other) with '@', which the exchange refused: \(e.reason)"
                throw e
            }
            let stored = try storedBars(of: other)
            if let last = stored.time.last, last > forming {
                throw InputError("the stored \(other) \(settings.interval.rawValue) bars, which the rules read with '@', end at "
                                     + "\(UTCTime.iso(last)), after the exchange's clock: keep the session in another store",
                                 setting: .store, value: store.path)
            }
            _ = try backfill(symbol: other, from: stored.time.last.map { $0 + seconds } ?? from)
            let bars = try storedBars(of: other)
            guard !bars.isEmpty else {
                throw InputError("the rules read \(other) with '@', and no \(other) \(settings.interval.rawValue) bars are stored "
                                     + "or could be had from \(settings.baseURL.absoluteString): its warm-up is its stored bars, as "
                                     + "the session's own is; check the symbol, or fetch its bars into the store (bt data fetch)",
                                 setting: .store, value: store.path)
            }
            held[other] = bars
        }
        return held
    }

    /// Takes a frame of another symbol the rules read: its trades make its bars
    /// (`LiveOtherSymbol`), and a bar of the session's symbol waiting for them may be decided.
    private func receiveOther(_ bytes: [UInt8], symbol other: String) throws {
        let message: StreamMessage
        do {
            message = try bytes.withUnsafeBytes { try otherParsers[other]!.message($0) }
        } catch let rejection as FrameRejection {
            skip(rejection)
            return
        }
        // Only its trades are subscribed to.
        guard case .trade(let trade) = message, let k = others.firstIndex(where: { $0.symbol == other }) else {
            skip(.foreignSymbol(other))
            return
        }
        guard plausible(trade.timeMs, field: "T") else { return }
        try others[k].receive(trade) { try fetchKlines(symbol: other, from: $0, to: $1) }
        try closePendingBar(force: false)
    }

    // MARK: - REST

    /// The stored bars of `symbol` (the session's own by default) at the interval (empty when none).
    private func storedBars(of symbol: String? = nil) throws -> CandleSeries {
        do {
            return try store.load(symbol: symbol ?? self.symbol, timeframe: settings.interval)
        } catch let e as InputError where e.kind == .missingSymbol {
            return CandleSeries(symbol: symbol ?? self.symbol, timeframe: settings.interval)
        }
    }

    /// Fetches and stores the closed klines of `symbol` (the session's own by default) from `from`
    /// (UTC s) on; returns how many were new.
    private func backfill(symbol: String? = nil, from: Int64) throws -> Int {
        let result = try BinanceFetch.fetch(symbol: symbol ?? self.symbol, interval: settings.interval, from: from, store: store,
                                            baseURL: settings.baseURL, market: settings.market, policy: client.policy)
        guard let file = result.file else { return 0 }
        return try store.write([file]).reduce(0) { $0 + $1.added }
    }

    /// The exchange's closed klines of `symbol` (the session's own by default) with open times in
    /// [`from`, `to`] (UTC s), not stored; none (with a warning) when they cannot be fetched.
    private func fetchKlines(symbol: String? = nil, from: Int64, to: Int64) throws -> CandleSeries {
        let symbol = symbol ?? self.symbol
        let none = CandleSeries(symbol: symbol, timeframe: settings.interval)
        let result: FetchResult
        do {
            result = try BinanceFetch.fetch(symbol: symbol, interval: settings.interval, from: from, to: to, store: nil,
                                            baseURL: settings.baseURL, market: settings.market, policy: client.policy)
        } catch let e as FetchError {
            // Not the end of the session: the bars they were for are left out, as without a kline.
            warn("the exchange's klines could not be had (\(e))", key: "klines")
            return none
        }
        guard case .candles(let series)? = result.file?.content else { return none }
        return series
    }
}

extension FrameRejection {
    /// The summary's name for the kind of rejection.
    package var kind: String {
        switch self {
        case .malformed: "malformed"
        case .foreignSymbol: "other_symbol"
        case .ignored: "ignored"
        case .badNumber: "bad_number"
        case .futureTime: Self.futureTimeKind
        }
    }

    package static let futureTimeKind = "future_time"
}
