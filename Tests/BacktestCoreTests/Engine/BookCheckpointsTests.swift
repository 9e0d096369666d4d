import Testing
@testable import BacktestCore

/// Runs over a recorded book that grows between them (what `bt live` does at every close),
/// sharing `BookCheckpoints`, give exactly the results of runs without them: fills taken again
/// from the checkpoints, replays resumed from an earlier run's state, and the fallbacks when an
/// appended event lands on the millisecond a state stopped at.
@Suite("Book checkpoints: runs over a growing recording equal runs without them")
struct BookCheckpointsTests {
    /// The synthetic book of `candles`, with a second event at the same millisecond after some
    /// events (now and then a bid at or above the best ask, which the stale-level rule drops)
    /// and now and then a fresh snapshot.
    static func events(_ candles: CandleSeries, seed: UInt) -> [BookEvent] {
        let rng = GSL.Random(seed: seed)
        var out: [BookEvent] = []
        for e in Synth.book(for: candles, seed: UInt64(seed)) {
            out.append(e)
            let touch = e.asks.first?.price ?? e.bids.first.map { $0.price + 0.01 } ?? 100
            switch rng.int(below: 6) {
            case 0:
                let crossing = BookLevel(price: touch + Double(rng.int(below: 3)) / 100, quantity: 1 + rng.uniform() * 50)
                out.append(BookEvent(timeMs: e.timeMs, kind: .update, bids: [crossing], asks: []))
            case 1:
                let level = BookLevel(price: touch + Double(rng.int(below: 20)) / 100, quantity: rng.int(below: 3) == 0 ? 0 : rng.uniform() * 80)
                out.append(BookEvent(timeMs: e.timeMs, kind: .update, bids: [], asks: [level]))
            case 2 where rng.int(below: 8) == 0:
                out.append(BookEvent(timeMs: e.timeMs + 1 + Int64(rng.int(below: 5_000)), kind: .snapshot, bids: e.bids, asks: e.asks))
            default:
                break
            }
        }
        return out.enumerated().sorted { ($0.element.timeMs, $0.offset) < ($1.element.timeMs, $1.offset) }.map(\.element)
    }

    static let configs: [(String, ExecutionConfig)] = {
        var market = ExecutionConfig()
        market.maxParticipation = nil
        market.sizing = .equityFraction(0.5)
        var close = market
        close.fill = .close
        var short = market
        short.allowShort = true
        short.stopLoss = 0.01
        short.lot = 0.5
        var exits = market
        exits.takeProfit = 0.02
        exits.exits.trail = .fraction(0.015)
        return [("market", market), ("fill at close", close), ("short, stop, lot", short), ("target and trail", exits)]
    }()

    @Test("each run over a longer prefix of the events equals a run without checkpoints", arguments: 0..<configs.count)
    func growingRecording(_ which: Int) throws {
        let (name, base) = Self.configs[which]
        var taken = 0, sameMsCuts = 0
        for seed in UInt(1)...16 {
            let candles = EngineTest.random(bars: 150, seed: seed)
            let signals = EngineTest.randomSignals(bars: 150, seed: seed &+ 100, p: 0.12)
            let events = Self.events(candles, seed: seed)
            // Cuts anywhere, some inside a millisecond's group of events; the last run sees all.
            let rng = GSL.Random(seed: seed &+ 7)
            var cuts = (0..<12).map { _ in 1 + rng.int(below: events.count - 1) }
            cuts += (1..<events.count).filter { events[$0].timeMs == events[$0 - 1].timeMs && rng.int(below: 10) == 0 }
            cuts = Array(Set(cuts + [events.count])).sorted()
            sameMsCuts += cuts.filter { $0 < events.count && events[$0].timeMs == events[$0 - 1].timeMs }.count
            let checkpoints = BookCheckpoints()
            for cut in cuts {
                var c = base
                c.depth = .book(Array(events[..<cut]))
                let plain = try Engine.run(Engine.Request(candles, signals: signals, config: c))
                c.bookCheckpoints = checkpoints
                let shared = try Engine.run(Engine.Request(candles, signals: signals, config: c))
                #expect(shared.fills == plain.fills, "\(name), seed \(seed), cut \(cut) of \(events.count)")
                #expect(shared.trades == plain.trades && shared.equity == plain.equity && shared.warnings == plain.warnings,
                        "\(name), seed \(seed), cut \(cut)")
                taken += plain.fills.count
            }
            // A book per state: they do not pile up over a long session.
            #expect(checkpoints.keptStates <= 2 * BookCheckpoints.statesKept)
        }
        #expect(taken > 500 && sameMsCuts > 10, "the streams must fill often and cut inside milliseconds (\(taken), \(sameMsCuts))")
    }

    @Test("a fill is kept only once the recording has passed its millisecond")
    func onlyPassedFillsAreKept() throws {
        let candles = EngineTest.random(bars: 150, seed: 3)
        let signals = EngineTest.randomSignals(bars: 150, seed: 103, p: 0.12)
        let events = Self.events(candles, seed: 3)
        var c = Self.configs[0].1
        c.bookCheckpoints = BookCheckpoints()
        // The first fill's millisecond, then a recording that ends exactly there.
        c.depth = .book(events)
        let first = try #require(try Engine.run(Engine.Request(candles, signals: signals, config: BookCheckpointsTests.without(c))).fills.first)
        let through = events.prefix { $0.timeMs <= first.time * 1000 }
        c.depth = .book(Array(through))
        _ = try Engine.run(Engine.Request(candles, signals: signals, config: c))
        #expect(c.bookCheckpoints!.outcome(after: BookCheckpoints.Key()) == nil)
        c.depth = .book(events)
        _ = try Engine.run(Engine.Request(candles, signals: signals, config: c))
        #expect(c.bookCheckpoints!.outcome(after: BookCheckpoints.Key())?.request.timeMs == first.time * 1000)
    }

    static func without(_ config: ExecutionConfig) -> ExecutionConfig {
        var c = config
        c.bookCheckpoints = nil
        return c
    }
}
