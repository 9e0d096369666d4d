import Testing
import TestSupport
@testable import BacktestCore

/// The synthetic book's estimates computed on a second core (`EstimateFeed`) give the run the
/// engine gives computing them itself, bit for bit.
@Suite("Estimate feed and shared pairs: the synthetic book computed elsewhere equals the engine's own")
struct EstimateFeedTests {
    /// Bars enough for several of the feed's chunks, so fills fall on both sides of a boundary.
    static let bars = 2 * EstimateFeed.chunk + 3_000

    /// Compared field by field as booleans (a failure names the part, not every fill).
    static func expectSame(_ a: BacktestResult, _ b: BacktestResult, _ what: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let ledger = a.cash == b.cash && a.position == b.position && a.equity == b.equity
        let fills = a.fills == b.fills && a.trades == b.trades && a.rejected == b.rejected
        let spread = a.spreadEstimate == b.spreadEstimate, warnings = a.warnings == b.warnings
        #expect(ledger, "\(what): ledger", sourceLocation: sourceLocation)
        #expect(fills, "\(what): fills", sourceLocation: sourceLocation)
        #expect(spread, "\(what): spread estimates", sourceLocation: sourceLocation)
        #expect(warnings, "\(what): warnings", sourceLocation: sourceLocation)
    }

    static func both(_ candles: CandleSeries, _ signals: Signals, _ config: ExecutionConfig) throws -> (BacktestResult, BacktestResult) {
        (try Engine.run(candles, config: config, feed: .always) { signals },
         try Engine.run(candles, config: config, feed: .never) { signals })
    }

    @Test("every random order setup at synthetic depth (entries, exits, fills at the open and the close, shorts, lots, caps)",
          arguments: OrdersTest.setups.prefix(24))
    func ordersSetups(_ s: OrdersTest.Setup) throws {
        var config = s.config
        config.depth = .synthetic
        let candles = OrdersTest.candles(bars: Self.bars, seed: s.seed)
        let signals = OrdersTest.signals(bars: candles.count, seed: s.seed)
        let (feed, own) = try Self.both(candles, signals, config)
        #expect(feed.fills.count > 100)
        Self.expectSame(feed, own, s.testDescription)
    }

    @Test("the model's windows and options: short and long spread windows, impact windows, no volume relation, a tick",
          arguments: [(2, 20, true), (250, 2, true), (5_000, 20, true), (250, 300, true), (250, 20, false), (40_000, 20, true)])
    func windows(spread: Int, impact: Int, relation: Bool) throws {
        let candles = EngineTest.random(bars: Self.bars, seed: UInt(spread + impact))
        let signals = EngineTest.randomSignals(bars: candles.count, seed: 5, p: 0.04)
        var config = ExecutionConfig()
        config.depth = .synthetic
        config.synthetic.spreadWindow = spread
        config.synthetic.impactWindow = impact
        config.synthetic.volumeRelation = relation
        config.synthetic.tick = 0.01
        let (feed, own) = try Self.both(candles, signals, config)
        Self.expectSame(feed, own, "spread \(spread) impact \(impact) relation \(relation)")
        #expect(feed.spreadEstimate?.estimates.isEmpty == false)
    }

    @Test("a run over the end of a series (a window) and prices with gaps and zero volume")
    func windowedRun() throws {
        let series = OrdersTest.candles(bars: Self.bars, seed: 77)
        let signals = OrdersTest.signals(bars: series.count, seed: 77)
        var config = ExecutionConfig()
        config.depth = .synthetic
        let window = CandleWindow(series, start: 5_000)
        let own = try Engine.run(window, signals: signals, config: config)
        let feed = try Engine.run(window.candles, config: config, cache: IndicatorCache(), endOf: series, feed: .always) {
            signals.slice(window.range)
        }
        Self.expectSame(feed, own, "window")
    }

    @Test("a failing signal computation stops the feed and reaches the caller")
    func failingSignals() {
        struct Failed: Error {}
        let candles = EngineTest.random(bars: Self.bars, seed: 3)
        var config = ExecutionConfig()
        config.depth = .synthetic
        #expect(throws: Failed.self) { try Engine.run(candles, config: config, feed: .always) { throw Failed() } }
    }

    @Test("no feed where nothing is estimated: depth none, a given spread, a series too short for a thread")
    func whenUsed() {
        let long = EngineTest.random(bars: EstimateFeed.minimumBars, seed: 1), short = EngineTest.random(bars: 500, seed: 1)
        var config = ExecutionConfig()
        config.depth = .synthetic
        #expect(EstimateFeed.start(short, config: config, policy: .automatic) == nil)
        #expect(EstimateFeed.start(short, config: config, policy: .never) == nil)
        var given = config
        given.synthetic.spreadBps = 5
        #expect(EstimateFeed.start(long, config: given, policy: .always) == nil)
        var none = config
        none.depth = .none
        #expect(EstimateFeed.start(long, config: none, policy: .always) == nil)
        let feed = EstimateFeed.start(short, config: config, policy: .always)
        #expect(feed != nil)
        feed?.cancel()
        feed?.finish()
    }

    @Test("two impact windows in lanes equal impactWindow for each, and leave the uncommon windows to it")
    func twoWindows() {
        // Minute bars: most windows take the common path; OrdersTest's gaps send some away from it.
        let minutes = Synth.series(symbol: "TWO", bars: 3_000, seed: 9, timeframe: .minute1)
        var rng = SplitMix64(seed: 4)
        for s in [minutes, OrdersTest.candles(bars: 3_000, seed: 9)] {
        s.close.withUnsafeBufferPointer { c in
            s.volume.withUnsafeBufferPointer { v in
                for window in [2, 3, 20, 57] {
                    var common = 0
                    for _ in 0..<300 {
                        let t = (1 + Int(rng.next() % UInt64(s.count)), 1 + Int(rng.next() % UInt64(s.count)))
                        let one = CandleEstimators.impactWindow(c, v, before: min(t.0, s.count), window: window)
                        let other = CandleEstimators.impactWindow(c, v, before: min(t.1, s.count), window: window)
                        guard let two = CandleEstimators.impactWindows(c, v, before: (min(t.0, s.count), min(t.1, s.count)), window: window) else {
                            continue
                        }
                        common += 1
                        for (lane, scalar) in [(two.0, one), (two.1, other)] {
                            #expect(lane.sigma.bitPattern == scalar?.sigma?.bitPattern)
                            #expect(lane.volume.bitPattern == scalar?.volume?.bitPattern)
                            #expect(lane.dollars.bitPattern == scalar?.dollars?.bitPattern)
                        }
                    }
                    if s.symbol == "TWO" { #expect(common > 200, "window \(window)") }
                    // Within the window of the series' start: none.
                    #expect(CandleEstimators.impactWindows(c, v, before: (window, 2_000), window: window) == nil)
                }
            }
        }
        }
        // A price that is not positive, or a return past the series' range, sends both to impactWindow.
        var bad = Synth.series(symbol: "BAD", bars: 100, seed: 2, timeframe: .minute1)
        bad.close[50] = 0
        bad.close.withUnsafeBufferPointer { c in
            bad.volume.withUnsafeBufferPointer { v in
                #expect(CandleEstimators.impactWindows(c, v, before: (60, 90), window: 20) == nil)
                #expect(CandleEstimators.impactWindows(c, v, before: (45, 90), window: 20) != nil)
            }
        }
        var jump = Synth.series(symbol: "JUMP", bars: 100, seed: 2, timeframe: .minute1)
        jump.close[80] *= 1.5
        jump.close.withUnsafeBufferPointer { c in
            jump.volume.withUnsafeBufferPointer { v in
                #expect(CandleEstimators.impactWindows(c, v, before: (60, 90), window: 20) == nil)
            }
        }
    }

    @Test("the running spread window reading a column of pairs equals it computing them, at every fill spacing")
    func columnWindow() {
        let s = OrdersTest.candles(bars: 4_000, seed: 21)
        var pairs = [Double](repeating: 0, count: s.count)
        var scratch = [Double](repeating: 0, count: 2 * s.count + 2)
        s.high.withUnsafeBufferPointer { h in
            s.low.withUnsafeBufferPointer { l in
                s.close.withUnsafeBufferPointer { c in
                    pairs.withUnsafeMutableBufferPointer { p in
                        scratch.withUnsafeMutableBufferPointer { x in
                            CandleEstimators.pairs(h.baseAddress!, l.baseAddress!, c.baseAddress!, from: 1, count: s.count - 1,
                                                   into: p.baseAddress! + 1, own: x.baseAddress!, flags: x.baseAddress! + s.count + 1)
                        }
                    }
                    for window in [2, 7, 250, 1_000] {
                        var ring = SpreadWindow(window: window), column = SpreadWindow(window: window)
                        var rng = SplitMix64(seed: UInt64(window))
                        var t = 0
                        while t < s.count {
                            let a = ring.sample(h, l, c, before: t)
                            let b = pairs.withUnsafeBufferPointer { column.sample(pairs: $0.baseAddress!, before: t) }
                            #expect(a?.mean.bitPattern == b?.mean.bitPattern && a?.standardError.bitPattern == b?.standardError.bitPattern
                                    && a?.pairs == b?.pairs, "t \(t) window \(window)")
                            t += 1 + Int(rng.next() % (rng.next() % 10 == 0 ? 900 : 40))
                        }
                    }
                }
            }
        }
    }

    @Test("candidates: the bar after (or of) each bar where any signal vector turns on, eight bars per load",
          arguments: [1, 7, 8, 9, 63, 64, 65, 1_001])
    func candidates(bars n: Int) {
        var rng = SplitMix64(seed: UInt64(n))
        func vector(_ p: Double) -> [Bool] { (0..<n).map { _ in rng.unit() < p } }
        for (shorts, p) in [(false, 0.1), (true, 0.3), (false, 0.9), (true, 1.0)] {
            let signals = Signals(entries: vector(p), exits: vector(p / 2), shortEntries: shorts ? vector(p) : nil,
                                  shortExits: shorts ? vector(0.05) : nil)
            let vectors = [signals.entries, signals.exits] + [signals.shortEntries, signals.shortExits].compactMap { $0 }
            for nextOpen in [true, false] {
                let shift = nextOpen ? 1 : 0
                let expected = (0..<n).filter { t in
                    t + shift < n && vectors.contains { $0[t] && (t == 0 || !$0[t - 1]) }
                }.map { $0 + shift }
                let found = EstimateFeed.candidates(signals, count: n, nextOpen: nextOpen)
                #expect(Array(UnsafeBufferPointer(start: found.bars, count: found.count)) == expected,
                        "\(n) bars, shorts \(shorts), p \(p), next open \(nextOpen)")
                found.bars.deallocate()
            }
        }
    }

    @Test("runs reading a cache's shared spread pairs equal runs computing their own, whole and over the end of a prefix")
    func sharedPairs() throws {
        let series = OrdersTest.candles(bars: 6_000, seed: 31)
        let signals = OrdersTest.signals(bars: series.count, seed: 31)
        let shared = IndicatorCache(keepsSpreadPairs: true)
        for (spread, fill) in [(250, ExecutionConfig.FillTiming.nextOpen), (3, .close), (20_000, .nextOpen)] {
            var config = ExecutionConfig()
            config.depth = .synthetic
            config.synthetic.spreadWindow = spread
            config.fill = fill
            let own = try Engine.run(series, signals: signals, config: config)
            Self.expectSame(try Engine.run(series, signals: signals, config: config, cache: shared), own, "whole, spread \(spread)")
            // A fold: the last 2,500 bars of a 5,000-bar prefix, its cache the prefix's.
            let prefix = series.slice(0..<5_000), range = 2_500..<5_000
            let foldCache = IndicatorCache(keepsSpreadPairs: true)
            let fold = try Engine.run(prefix.slice(range), signals: signals.slice(range), config: config, endOf: prefix, cache: foldCache)
            let foldOwn = try Engine.run(prefix.slice(range), signals: signals.slice(range), config: config, endOf: prefix,
                                         cache: IndicatorCache())
            Self.expectSame(fold, foldOwn, "fold, spread \(spread)")
        }
    }
}
