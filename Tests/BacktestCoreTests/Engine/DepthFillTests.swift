import Testing
@testable import BacktestCore

@Suite("Fills through depth")
struct DepthFillTests {
    func bits(_ idx: [Int], _ n: Int) -> [Bool] { (0..<n).map { idx.contains($0) } }
    func close(_ a: Double, _ b: Double, _ tol: Double = 1e-9) -> Bool { abs(a - b) <= tol * max(1, abs(b)) }

    // MARK: Recorded book

    /// Bars at 100 one day apart; the book moves through three recorded states.
    func recorded() -> (CandleSeries, [BookEvent]) {
        let s = EngineTest.flat([100, 102, 102, 101, 101, 101], volume: 1e9)
        let t = s.time
        let events = [
            BookEvent(timeMs: (t[1] - 60) * 1000, kind: .snapshot,
                      bids: [BookLevel(price: 101.5, quantity: 10)],
                      asks: [BookLevel(price: 102, quantity: 30), BookLevel(price: 102.5, quantity: 40),
                             BookLevel(price: 103, quantity: 100)]),
            // One millisecond after bar 1's open: must not affect the entry at bar 1.
            BookEvent(timeMs: t[1] * 1000 + 1, kind: .update, bids: [],
                      asks: [BookLevel(price: 102, quantity: 0)]),
            // Exactly at bar 3's open: counts for the exit at bar 3.
            BookEvent(timeMs: t[3] * 1000, kind: .snapshot,
                      bids: [BookLevel(price: 101, quantity: 20), BookLevel(price: 100, quantity: 10)],
                      asks: [BookLevel(price: 101.5, quantity: 5)]),
            BookEvent(timeMs: t[4] * 1000 - 1, kind: .update,
                      bids: [BookLevel(price: 100.5, quantity: 100)], asks: []),
        ]
        return (s, events)
    }

    @Test("recorded book: the latest state at or before the fill, VWAP through levels, exit remainder retried")
    func recordedBook() throws {
        let (s, events) = recorded()
        var c = EngineTest.plain()
        c.depth = .book(events)
        c.sizing = .units(50)
        c.feeBps = 0
        let r = try EngineTest.run(s, Signals(entries: bits([0], 6), exits: bits([2], 6)), c)
        // Entry at bar 1: 30 x 102 + 20 x 102.5 = 5110 for 50.
        #expect(r.fills.count == 3)
        #expect(close(r.fills[0].vwap, 102.2))
        #expect(close(r.fills[0].slippageBps, (102.2 / 102 - 1) * 10_000))
        #expect(r.fills[0].depthAvailable == 170 && !r.fills[0].isPartial)
        // Exit at bar 3 (reference open 101): 20 x 101 + 10 x 100 = 3020 for 30 of 50: partial.
        #expect(r.fills[1].index == 3 && r.fills[1].quantityFilled == 30 && r.fills[1].isPartial)
        #expect(close(r.fills[1].vwap, 3020.0 / 30))
        #expect(close(r.fills[1].slippageBps, (1 - (3020.0 / 30) / 101) * 10_000))
        #expect(r.position[3] == 20)
        // The remainder goes at bar 4 into the 100.5 bid added just before.
        #expect(r.fills[2].index == 4 && r.fills[2].quantityFilled == 20 && r.fills[2].vwap == 100.5)
        #expect(r.trades.count == 1)
        #expect(close(r.trades[0].exitPrice, (3020 + 20 * 100.5) / 50))
        #expect(close(r.trades[0].pnl, 3020 + 2010 - 5110))
    }

    @Test("recorded book: no state before the fill means no liquidity")
    func recordedBookTooLate() throws {
        let (s, events) = recorded()
        var c = EngineTest.plain()
        c.depth = .book(Array(events.dropFirst(2)))
        c.sizing = .units(5)
        let r = try EngineTest.run(s, Signals(entries: bits([0], 6), exits: bits([], 6)), c)
        #expect(r.fills.isEmpty && r.rejected.map(\.reason) == [.noLiquidity])
    }
}

@Suite("Recorded books: milliseconds and crossed streams")
struct RecordedBookTests {
    func close(_ a: Double, _ b: Double, _ tol: Double = 1e-9) -> Bool { abs(a - b) <= tol * max(1, abs(b)) }

    @Test("a fill at T sees the events of T's millisecond and none after it")
    func milliseconds() throws {
        let s = EngineTest.flat([100, 100, 100], volume: 1e9)
        let open1 = s.time[1] * 1000
        let events = [
            BookEvent(timeMs: open1 - 5000, kind: .snapshot, bids: [BookLevel(price: 99.9, quantity: 100)],
                      asks: [BookLevel(price: 100.1, quantity: 100)]),
            BookEvent(timeMs: open1, kind: .update, bids: [], asks: [BookLevel(price: 100.2, quantity: 100), BookLevel(price: 100.1, quantity: 0)]),
            BookEvent(timeMs: open1 + 1, kind: .update, bids: [], asks: [BookLevel(price: 100.3, quantity: 100), BookLevel(price: 100.2, quantity: 0)]),
        ]
        var c = EngineTest.plain()
        c.depth = .book(events)
        c.sizing = .units(1)
        let r = try EngineTest.run(s, Signals(entries: [true, false, false], exits: [false, false, false]), c)
        #expect(r.fills.count == 1 && r.fills[0].vwap == 100.2)
        // The half spread is measured from the book's mid: (100.2 - 100.05) per unit.
        #expect(close(r.fills[0].spreadCost, 0.15))
    }

    @Test("a crossed stream: the older touch is stale and dropped, fills never cross the other side")
    func staleLevels() throws {
        // A snapshot ask at 50 (a left-over the stream never cancelled) under a market near 100.
        let s = EngineTest.flat([100, 100, 100, 100, 100], volume: 1e9)
        let t = s.time.map { $0 * 1000 }
        let events = [
            BookEvent(timeMs: t[0] - 10_000, kind: .snapshot, bids: [BookLevel(price: 40, quantity: 5)],
                      asks: [BookLevel(price: 50, quantity: 3), BookLevel(price: 100.2, quantity: 50)]),
            // The live stream: bids near 100 cross the stale ask at 50.
            BookEvent(timeMs: t[0] - 5_000, kind: .update, bids: [BookLevel(price: 99.9, quantity: 50)], asks: []),
            BookEvent(timeMs: t[2] - 1, kind: .update, bids: [BookLevel(price: 99.8, quantity: 50)],
                      asks: [BookLevel(price: 100.1, quantity: 50)]),
        ]
        var replay = BookReplay(events)
        replay.advance(through: t[0])
        #expect(replay.book.bestAsk == 100.2 && replay.book.bestBid == 99.9 && replay.staleLevelsDropped == 1)
        let check = BookStreamCheck(events)
        #expect(check.crossedUpdates == 2 && check.updates == 2 && check.staleLevels == 1)

        var c = EngineTest.plain()
        c.depth = .book(events)
        c.sizing = .units(10)
        c.feeBps = 0
        let r = try EngineTest.run(s, Signals(entries: [true, false, false, false, false],
                                              exits: [false, false, true, false, false]), c)
        #expect(r.fills.count == 2)
        #expect(r.fills[0].vwap == 100.2 && r.fills[0].slippageBps > 0)
        #expect(r.fills[1].vwap == 99.9)
        #expect(r.fills.allSatisfy { abs($0.slippageBps) < 100 })
        #expect(r.warnings.map(\.kind) == [.staleBook])
    }

    @Test("locked touches set by one event are both dropped")
    func locked() {
        let events = [
            BookEvent(timeMs: 0, kind: .snapshot, bids: [BookLevel(price: 9, quantity: 1)], asks: [BookLevel(price: 11, quantity: 1)]),
            BookEvent(timeMs: 1, kind: .update, bids: [BookLevel(price: 10, quantity: 1)], asks: [BookLevel(price: 10, quantity: 2)]),
        ]
        var replay = BookReplay(events)
        replay.advance(through: 1)
        #expect(replay.book.bestBid == 9 && replay.book.bestAsk == 11 && replay.staleLevelsDropped == 2)
    }

    @Test("random crossed streams never give a buy below the best bid or a sell above the best ask")
    func randomCrossings() throws {
        let s = EngineTest.random(bars: 200, seed: 41)
        var events = Synth.book(for: s, seed: 7)
        let rng = GSL.Random(seed: 42)
        // Sprinkle stale levels far through the other side.
        for i in stride(from: 5, to: events.count, by: 17) {
            let mid = s.open[min(s.count - 1, i / 2)]
            if rng.uniform() < 0.5 {
                events[i].asks.append(BookLevel(price: (mid * 0.5 * 100).rounded() / 100, quantity: 1e6))
            } else {
                events[i].bids.append(BookLevel(price: (mid * 2 * 100).rounded() / 100, quantity: 1e6))
            }
        }
        var c = ExecutionConfig()
        c.depth = .book(events)
        c.allowShort = true
        let r = try EngineTest.run(s, EngineTest.randomSignals(bars: 200, seed: 43), c)
        #expect(r.fills.count > 10)
        #expect(r.fills.allSatisfy { $0.slippageBps > -500 }, "a fill took a stale level through the other side")
        #expect(r.finalEquity < 2 * r.initialCash)
        #expect(r.warnings.contains { $0.kind == .staleBook })
    }
}
