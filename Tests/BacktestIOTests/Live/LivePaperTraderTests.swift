import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestData
@testable import BacktestLive

/// The live trader reports, close by close, exactly the fills of one batch run over everything
/// it was given (what `bt run --depth book --from START` computes afterwards): with next-open
/// fills through the provisional bar, with same-bar-close fills, and with exits that trigger
/// inside later bars.
@Suite("Live paper trader: step by step equals the batch run")
struct LivePaperTraderTests {
    /// Signals that read only the bar itself (so a provisional bar's signal is its own).
    static func signals(_ s: CandleSeries) -> Signals {
        var entries = [Bool](repeating: false, count: s.count), exits = entries
        for t in 0..<s.count {
            let code = Int((s.close[t] * 100).rounded())
            entries[t] = s.close[t] > s.open[t] && code % 3 == 0
            exits[t] = s.close[t] < s.open[t] && code % 2 == 0
        }
        return Signals(entries: entries, exits: exits)
    }

    struct Stream {
        var history: CandleSeries
        var session: CandleSeries
        /// Book events per session bar: those at or before its opening millisecond come first.
        var events: [[BookEvent]]
        var first: BookEvent
    }

    static func stream(seed: UInt64, historyBars: Int = 40, sessionBars: Int = 40) -> Stream {
        var rng = SplitMix64(seed: seed)
        let minute: Int64 = 60
        let start: Int64 = 1_710_000_000 / minute * minute
        var price = 100.0
        func bar(_ time: Int64, into s: inout CandleSeries) {
            let o = (price * 100).rounded() / 100
            price = max(1, price * (1 + (rng.unit() - 0.5) / 50))
            let c = (price * 100).rounded() / 100
            s.append(time: time, open: o, high: max(o, c) + Double(rng.next() % 30) / 100, low: min(o, c) - Double(rng.next() % 30) / 100,
                     close: c, volume: 10 + rng.unit() * 50)
        }
        var history = CandleSeries(symbol: "TEST", timeframe: .minute1)
        for k in 0..<historyBars { bar(start - Int64(historyBars - k) * minute, into: &history) }
        var session = CandleSeries(symbol: "TEST", timeframe: .minute1)
        var events: [[BookEvent]] = []
        var t = start
        for k in 0..<sessionBars {
            // A bucket with no trades has no bar: now and then a minute is skipped.
            if k > 0 { t += rng.next() % 7 == 0 ? 2 * minute : minute }
            bar(t, into: &session)
            var barEvents: [BookEvent] = []
            var ms = t * 1000 - 59_000
            while ms <= t * 1000 + 59_000 {
                let mid = (session.open[k] * 100).rounded()
                let bids = (0..<2).map { _ in BookLevel(price: (mid - Double(1 + rng.next() % 8)) / 100,
                                                        quantity: rng.next() % 4 == 0 ? 0 : 1 + rng.unit() * 40) }
                let asks = (0..<2).map { _ in BookLevel(price: (mid + Double(1 + rng.next() % 8)) / 100,
                                                        quantity: rng.next() % 4 == 0 ? 0 : 1 + rng.unit() * 40) }
                // Sometimes an event lands exactly on the opening millisecond.
                let at = rng.next() % 9 == 0 ? t * 1000 : ms
                barEvents.append(BookEvent(timeMs: max(at, barEvents.last?.timeMs ?? at), kind: .update, bids: bids, asks: asks))
                ms += 1_000 + Int64(rng.next() % 4_000)
            }
            events.append(barEvents.sorted { $0.timeMs < $1.timeMs })
        }
        let levels = (1...30).map { BookLevel(price: 100 - Double($0) / 100, quantity: 20) }
        let first = BookEvent(timeMs: (start - minute) * 1000, kind: .snapshot, bids: levels,
                              asks: (1...30).map { BookLevel(price: 100 + Double($0) / 100, quantity: 20) })
        return Stream(history: history, session: session, events: events, first: first)
    }

    /// What `bt live` does: at the close of each session bar, the events through the next bar's
    /// opening, the bar, then a step with the provisional next bar; at the end a last step.
    /// - Parameter finished: given the trader after its last step.
    static func live(_ s: Stream, config: ExecutionConfig, strategy: (Strategy, StrategyParameters)? = nil,
                     finished: (LivePaperTrader) -> Void = { _ in }) throws -> [Fill] {
        var trader = try strategy.map {
            try LivePaperTrader(history: s.history, startTime: s.session.time[0], events: [s.first], config: config,
                                strategy: $0.0, parameters: $0.1)
        } ?? LivePaperTrader(history: s.history, startTime: s.session.time[0], events: [s.first], config: config,
                             signals: Self.signals)
        #expect(trader.isIncremental == (strategy != nil))
        var all = s.events.flatMap { $0 }
        var reported: [Fill] = []
        // Events before the first session bar's opening are the warm-up's book.
        let firstOpen = s.session.time[0] * 1000
        let early = all.prefix { $0.timeMs <= firstOpen }
        trader.append(Array(early))
        all.removeFirst(early.count)
        for k in 0..<s.session.count {
            let next = k + 1 < s.session.count ? s.session.time[k + 1] : nil
            let due = next.map { n in all.prefix { $0.timeMs <= n * 1000 } } ?? all[...]
            trader.append(Array(due))
            all.removeFirst(due.count)
            trader.append(TradeBar(time: s.session.time[k], open: s.session.open[k], high: s.session.high[k], low: s.session.low[k],
                                   close: s.session.close[k], volume: s.session.volume[k], trades: 1))
            let opening = next.map { (time: $0, price: s.session.open[k + 1]) }
            reported += try trader.step(opening: opening)
        }
        reported += try trader.step(opening: nil)
        finished(trader)
        return reported
    }

    static func batch(_ s: Stream, config: ExecutionConfig, strategy: (Strategy, StrategyParameters)? = nil) throws -> [Fill] {
        try batchResult(s, config: config, strategy: strategy).fills
    }

    /// The history and the session's bars: what the store holds after the session.
    static func bars(_ s: Stream) -> CandleSeries {
        var series = s.history
        for k in 0..<s.session.count {
            series.append(time: s.session.time[k], open: s.session.open[k], high: s.session.high[k], low: s.session.low[k],
                          close: s.session.close[k], volume: s.session.volume[k])
        }
        return series
    }

    static func batchResult(_ s: Stream, config: ExecutionConfig, strategy: (Strategy, StrategyParameters)? = nil) throws -> BacktestResult {
        let series = bars(s)
        var c = config
        c.depth = .book([s.first] + s.events.flatMap { $0 })
        let decided = try strategy.map { try $0.0.signals(series, $0.1) } ?? signals(series)
        return try Engine.run(Engine.Request(CandleWindow(series, start: s.history.count), signals: decided, config: c))
    }

    /// A strategy of indicators, crossings and a rule that reads the position: its signals are
    /// kept bar by bar (`SignalStream`), and the fills are still the batch run's.
    static let incremental: Strategy = {
        do {
            return try Strategy.expressions([
                .entry: "cross_above(ema(close, 3), sma(close, 6)) or rsi(close, 4) < 20",
                .exit: "cross_below(ema(close, 3), sma(close, 6)) or trade_return > 0.004 or bars_in_trade >= 6",
            ])
        } catch { fatalError("\(error)") }
    }()

    @Test("an incremental strategy's fills, close by close, are the batch run's", arguments: 0..<configs.count)
    func incrementalSignalsEqualBatch(_ which: Int) throws {
        let (name, config) = Self.configs[which]
        let strategy = (Self.incremental, try Self.incremental.parameters([]))
        var total = 0
        for seed in UInt64(1)...8 {
            let s = Self.stream(seed: seed &* 104_729 &+ UInt64(which))
            let live = try Self.live(s, config: config, strategy: strategy)
            let batch = try Self.batch(s, config: config, strategy: strategy)
            #expect(live == batch, "\(name), seed \(seed)")
            total += batch.count
        }
        #expect(total >= 10, "\(name): the streams should trade (\(total) fills)")
    }

    static let configs: [(String, ExecutionConfig)] = {
        var base = ExecutionConfig()
        base.maxParticipation = nil
        base.feeBps = 10
        base.sizing = .equityFraction(0.3)
        var exits = base
        exits.stopLoss = 0.004
        exits.takeProfit = 0.006
        var trail = base
        trail.exits.trail = .fraction(0.003)
        trail.exits.exitAfterBars = 5
        var close = base
        close.fill = .close
        var short = base
        short.allowShort = true
        short.stopLoss = 0.005
        return [("market", base), ("stop and target", exits), ("trail and time exit", trail), ("fill at close", close),
                ("short with a stop", short)]
    }()

    @Test("the fills reported close by close are the batch run's, to the last digit", arguments: 0..<configs.count)
    func stepByStepEqualsBatch(_ which: Int) throws {
        let (name, config) = Self.configs[which]
        var total = 0
        for seed in UInt64(1)...12 {
            let s = Self.stream(seed: seed &* 7919 &+ UInt64(which))
            let live = try Self.live(s, config: config)
            let batch = try Self.batch(s, config: config)
            #expect(live == batch, "\(name), seed \(seed)")
            total += batch.count
        }
        #expect(total >= 10, "\(name): the streams should trade (\(total) fills)")
    }

    @Test("a resumed trader reports only the fills after its journal, and counts a journal that no longer replays")
    func resume() throws {
        let (_, config) = Self.configs[1]
        let s = Self.stream(seed: 99)
        let batch = try Self.batch(s, config: config)
        #expect(batch.count >= 2)
        let series = Self.bars(s)
        let events = [s.first] + s.events.flatMap { $0 }
        let journal = batch.prefix(1).map(JournalFill.init)
        var trader = LivePaperTrader(history: series, startTime: s.session.time[0], events: events, config: config,
                                     journaled: journal, signals: Self.signals)
        let new = try trader.step(opening: nil)
        #expect(new == Array(batch.dropFirst()))
        #expect(trader.divergences == 0)
        var wrong = journal
        wrong[0].vwap += 0.01
        var other = LivePaperTrader(history: series, startTime: s.session.time[0], events: events, config: config,
                                    journaled: wrong, signals: Self.signals)
        #expect(try other.step(opening: nil) == batch)
        #expect(other.divergences == 1)
    }
}
