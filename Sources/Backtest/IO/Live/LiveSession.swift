import BacktestAnalysis
import BacktestCore
import Foundation

/// What a live session is told to do, from `bt live`'s options.
package struct LiveSettings: Sendable {
    package var symbol: String
    package var interval: Timeframe
    /// The WebSocket server, without the stream path (`wss://stream.binance.com:9443`).
    package var webSocketURL: String
    /// The REST server (klines, depth snapshots).
    package var baseURL: URL
    /// Wall-clock seconds to run; nil: until stopped.
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

    package init(symbol: String, interval: Timeframe, webSocketURL: String, baseURL: URL, settingsText: String) {
        self.symbol = symbol; self.interval = interval; self.webSocketURL = webSocketURL; self.baseURL = baseURL
        self.settingsText = settingsText
    }

    /// Binance's public stream server.
    package static let binanceWebSocketURL = "wss://stream.binance.com:9443"
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
    /// The engine's run over the session's bars at the end (trades, equity, statistics).
    package var result: BacktestResult?
    package var messages = 0
    package var trades = 0
    package var depthUpdates = 0
    package var reconnects = 0
    package var syncs = 0
    package var gaps = 0
    package var snapshotsRefused = 0
    package var skipped: [String: Int] = [:]
    package var lateTrades = 0
    package var divergences = 0
    package var warnings: [String] = []
    package var seconds = 0.0
}

/// A live paper session: warm-up from klines, the combined trade and depth stream of one
/// symbol, bars from trades by exchange time, the book kept by Binance's procedure
/// (`DepthSync`), fills by `LivePaperTrader`, and everything it used recorded in the store
/// bar by bar (`CandleStore.recordLiveBar`), so `bt run --depth book --from START` replays it.
///
/// Faults: a close or a stream silent for `staleSeconds` is a disconnect; reconnection waits
/// an exponential backoff with jitter, capped at `maxBackoffSeconds`, then resubscribes and
/// resyncs the book. Trades missed meanwhile are detected by their consecutive ids; the bars
/// they belong to are taken from the exchange's klines when they close, and a bar that cannot
/// be had complete is left out (no decision is made on it).
package final class LiveSession {
    private let settings: LiveSettings
    private let store: CandleStore
    private let config: ExecutionConfig
    private let strategy: Strategy
    private let parameters: StrategyParameters
    private let report: (LiveEvent) -> Void
    private let parser: BinanceFrameParser
    private let client: RetryingClient
    private var sync = DepthSync()
    private var builder: TradeBarBuilder
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
        client = RetryingClient(policy: settings.fetchPolicy, events: { _ in })
        builder = TradeBarBuilder(timeframe: settings.interval)
        summary = LiveSummary(symbol: settings.symbol, interval: settings.interval, startTime: 0, journal: settings.journal)
    }

    private var symbol: String { settings.symbol }
    private var seconds: Int64 { settings.interval.seconds }

    /// Runs the session until `shouldStop` returns true (checked at least every 50 ms) or the
    /// duration passes; returns its summary.
    /// - Throws: `InputError` for a journal of other settings or a refused request, `FetchError`
    ///   when the warm-up cannot be fetched, a store error when a bar cannot be recorded, and
    ///   what the strategy throws.
    package func run(shouldStop: () -> Bool) throws -> LiveSummary {
        let began = Date()
        try prepare()
        let address = try WebSocketAddress(settings.webSocketURL, path: "/stream?streams="
            + "\(symbol.lowercased())@trade/\(symbol.lowercased())@depth@100ms")
        var attempt = 0
        func timeUp() -> Bool {
            shouldStop() || settings.durationSeconds.map { Date().timeIntervalSince(began) >= $0 } ?? false
        }
        connections: while !timeUp() {
            let socket = try WebSocketClient(address)
            var lastMessage = Date()
            var reason = "closed"
            stream: while true {
                if timeUp() { socket.close(); break connections }
                for (k, event) in socket.next(timeout: 0.05).enumerated() {
                    // A backlog (a burst, a slow machine) is worked through, but the duration and
                    // Ctrl-C are still honoured within it.
                    if k & 1023 == 1023, timeUp() { socket.close(); break connections }
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
                    socket.close()
                    break stream
                }
            }
            // Disconnected: the book is unknown until the next sync; trades from here on are
            // checked against the last id for a gap.
            sync.disconnected()
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
        return summary
    }

    /// The wait before reconnection attempt `attempt` (1, 2, ...): 0.5 s doubling per attempt,
    /// capped at `cap`, times a jitter in [0.5, 1] so many clients do not come back in step.
    package static func backoff(attempt: Int, cap: Double, jitter: Double = Double.random(in: 0.5...1)) -> Double {
        min(cap, 0.5 * pow(2, Double(min(attempt - 1, 30)))) * jitter
    }

    /// Reports a warning and keeps it for the summary.
    private func warn(_ text: String) {
        summary.warnings.append(text)
        report(.warning(text))
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
    private func prepare() throws {
        let start: Int64
        if let name = settings.journal, let stored = try store.liveJournal(name) {
            guard stored.symbol == symbol, stored.interval == settings.interval.rawValue, stored.settings == settings.settingsText else {
                throw InputError("journal '\(name)' is a session of \(stored.symbol) \(stored.interval) with \(stored.settings); "
                                     + "resume it with the same symbol, interval and options, or give another name",
                                 setting: .journal, value: name)
            }
            journal = stored
            start = stored.startTime
            report(.resumed(journal: name, fills: stored.fills.count))
        } else {
            let now = try serverTimeMs() / 1000
            start = settings.interval.bucketStart(now) + seconds
        }
        // Klines up to the last closed bar: the warm-up, or what a resumed session missed.
        let stored = try storedBars()
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
        trader = try LivePaperTrader(history: history, startTime: start, events: recorded, config: config,
                                     journaled: journal?.fills ?? [], strategy: strategy, parameters: parameters)
        try trader.prepare()
    }

    /// The end: the bar still forming is closed as it stands (its trades are all recorded), so
    /// the replay holds every fill the session reported; the events after it are written too.
    private func finish() throws {
        if let p = pending {
            try close(p.bar, opening: p.opening)
            pending = nil
        }
        if let bar = builder.finish(), !incompleteBuckets.contains(bar.time) {
            try close(bar, opening: nil)
        } else {
            // Nothing more to store (a bar that missed trades cannot be completed now): the last
            // run is over the stored bars alone.
            try record(bars: nil, eventsThroughMs: .max, final: true)
        }
        summary.result = trader.lastResult
        // The run's own warnings (no liquidity, rejected orders, a crossed book ...), as bt run says them.
        for w in trader.lastResult?.warnings ?? [] where !summary.warnings.contains(w.message) { summary.warnings.append(w.message) }
        if sync.gaps > 0 {
            summary.warnings.append("the depth stream had \(sync.gaps) gap\(sync.gaps == 1 ? "" : "s"); the book was resynced each time")
        }
        summary.divergences = trader.divergences
        summary.syncs = sync.syncs
        summary.gaps = sync.gaps
        summary.snapshotsRefused = sync.snapshotsRefused
    }

    // MARK: - Messages

    private func receive(_ bytes: [UInt8]) throws {
        let message: StreamMessage
        do {
            message = try bytes.withUnsafeBytes { try parser.message($0) }
        } catch let rejection as FrameRejection {
            summary.skipped[rejection.kind, default: 0] += 1
            if case .ignored = rejection { return }
            report(.skipped(rejection))
            return
        }
        switch message {
        case .depth(let diff):
            summary.depthUpdates += 1
            depthSeenMs = max(depthSeenMs, diff.eventMs)
            let gapsBefore = sync.gaps
            sync.receive(diff)
            if sync.gaps > gapsBefore { report(.gap(expectedFirstId: sync.lastUpdateId + 1)) }
            takeRecorded()
        case .trade(let trade):
            try receive(trade)
        }
    }

    private func receive(_ trade: StreamTrade) throws {
        summary.trades += 1
        if let last = lastTradeId, trade.id <= last { return }  // a repeat after a reconnect
        let bucket = builder.bucket(ofMs: trade.timeMs)
        if let forming = builder.forming, bucket < forming.time {
            summary.lateTrades += 1
            return
        }
        if lastTradeId.map({ trade.id != $0 + 1 }) ?? true { incompleteBuckets.insert(bucket) }
        lastTradeId = trade.id
        if pending != nil { try closePendingBar(force: true) }
        let print = trade.print
        if let closed = builder.add(print) {
            pending = (closed, print, Date().timeIntervalSince1970)
            try closePendingBar(force: false)
        }
        prints.append(print)
    }

    private func fetchSnapshotIfWanted() throws {
        guard sync.wantsSnapshot else { return }
        let url = settings.baseURL.endpoint("api/v3/depth", query: [("symbol", symbol), ("limit", "1000")])
        let reply = try client.get(url)
        guard reply.status == 200 else { throw FetchSettings.refusal(reply, url: url, service: "Binance") }
        let snapshot: DepthSnapshot
        do {
            snapshot = try reply.body.withUnsafeBytes { try parser.snapshot($0) }
        } catch let rejection as FrameRejection {
            summary.skipped["snapshot", default: 0] += 1
            warn("a depth snapshot was skipped: " + rejection.reason)
            return
        }
        if sync.receive(snapshot) { report(.synced(lastUpdateId: snapshot.lastUpdateId)) }
        takeRecorded()
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
        guard force || depthSeenMs > openMs || waited >= settings.bookWaitSeconds else { return }
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
                                prints: printsDue, events: due, journal: journal)
        for fill in new {
            summary.fills.append(fill)
            report(.fill(fill))
        }
    }

    // MARK: - REST

    private func serverTimeMs() throws -> Int64 {
        try BinanceFetch.exchangeInfo(symbol: symbol, baseURL: settings.baseURL, client: client).serverTimeMs
    }

    /// The stored bars of the symbol at the interval (empty when none).
    private func storedBars() throws -> CandleSeries {
        do {
            return try store.load(symbol: symbol, timeframe: settings.interval)
        } catch let e as InputError where e.kind == .missingSymbol {
            return CandleSeries(symbol: symbol, timeframe: settings.interval)
        }
    }

    /// Fetches and stores the closed klines from `from` (UTC s) on; returns how many were new.
    private func backfill(from: Int64) throws -> Int {
        let result = try BinanceFetch.fetch(symbol: symbol, interval: settings.interval, from: from, store: store,
                                            baseURL: settings.baseURL, policy: settings.fetchPolicy)
        guard let file = result.file else { return 0 }
        return try store.write([file]).reduce(0) { $0 + $1.added }
    }

    /// The exchange's closed klines with open times in [`from`, `to`] (UTC s), not stored.
    private func fetchKlines(from: Int64, to: Int64) throws -> CandleSeries {
        let result = try BinanceFetch.fetch(symbol: symbol, interval: settings.interval, from: from, to: to, store: nil,
                                            baseURL: settings.baseURL, policy: settings.fetchPolicy)
        guard case .candles(let series)? = result.file?.content else {
            return CandleSeries(symbol: symbol, timeframe: settings.interval)
        }
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
        }
    }
}
