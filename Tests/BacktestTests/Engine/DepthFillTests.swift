import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

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
            BookEvent(time: t[1] - 60, kind: .snapshot,
                      bids: [BookLevel(price: 101.5, quantity: 10)],
                      asks: [BookLevel(price: 102, quantity: 30), BookLevel(price: 102.5, quantity: 40),
                             BookLevel(price: 103, quantity: 100)]),
            // After bar 1's open: must not affect the entry at bar 1.
            BookEvent(time: t[1] + 1, kind: .update, bids: [],
                      asks: [BookLevel(price: 102, quantity: 0)]),
            // Exactly at bar 3's open: counts for the exit at bar 3.
            BookEvent(time: t[3], kind: .snapshot,
                      bids: [BookLevel(price: 101, quantity: 20), BookLevel(price: 100, quantity: 10)],
                      asks: [BookLevel(price: 101.5, quantity: 5)]),
            BookEvent(time: t[4] - 1, kind: .update,
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

    // MARK: Synthetic book

    @Test("synthetic spread: Corwin-Schultz averaged over pairs, negatives as 0, clamped")
    func spreadEstimate() {
        let high = [101, 101.5, 103, 102], low = [99, 99.5, 98, 100]
        let model = SyntheticDepth()
        high.withUnsafeBufferPointer { h in
            low.withUnsafeBufferPointer { l in
                #expect(close(model.spread(high: h, low: l, at: 1), 0.007908892526591878, 1e-12))
                #expect(close(model.spread(high: h, low: l, at: 2), 0.008580040939091479, 1e-12))
                #expect(model.spread(high: h, low: l, at: 0) == 1e-4)  // no pair: the floor
                var narrow = model
                narrow.maxSpreadBps = 50
                #expect(narrow.spread(high: h, low: l, at: 1) == 0.005)
                #expect(SyntheticDepth(spreadBps: 7).spread(high: h, low: l, at: 2) == 7e-4)
            }
        }
    }

    @Test("synthetic book: tick-spaced levels around the reference, sizes from volume and range")
    func syntheticBook() {
        // Range 2% of price with rangeScale 1%: depth = 0.2 x 3150 / 3 = 210 = unit x 210.
        let book = SyntheticDepth().book(reference: 100, high: 101, low: 99, volume: 3150, spread: 0.001, tick: 0.01)
        #expect(book.asks.count == 20 && book.bids.count == 20)
        #expect(close(book.asks[0].price, 100.05) && close(book.bids[0].price, 99.95))
        #expect(close(book.asks[19].price, 100.24) && close(book.bids[19].price, 99.76))
        #expect(close(book.asks[0].quantity, 1) && close(book.asks[19].quantity, 20))
        #expect(close(book.asks.reduce(0) { $0 + $1.quantity }, 210))
        // One tick at least from the reference even with a zero spread.
        let tight = SyntheticDepth().book(reference: 100, high: 100, low: 100, volume: 100, spread: 0, tick: 0.5)
        #expect(tight.bestAsk == 100.5 && tight.bestBid == 99.5)
        #expect(SyntheticDepth().book(reference: 100, high: 101, low: 99, volume: 0, spread: 0.001, tick: 0.01).isEmpty)
    }

    @Test("synthetic depletion: a repeated order pays more, and the book refills at the half-life")
    func depletion() {
        var c = ExecutionConfig()
        c.synthetic.spreadBps = 10
        c.tick = 0.01
        let s = EngineTest.candles(Array(repeating: (100.0, 101.0, 99.0, 100.0, 3150.0), count: 6))
        var liquidity = Liquidity(config: c, candles: s)
        func buy(_ bar: Int) -> BookFill {
            liquidity.execute(.buy, quantity: 3, notionalLimit: .infinity, reference: 100, bar: bar,
                              time: s.time[bar], lot: nil)
        }
        // Fresh book: 1 @ 100.05 + 2 @ 100.06.
        #expect(close(buy(1).vwap, (100.05 + 2 * 100.06) / 3))
        // One bar later half of the 3 taken is still missing: 1.5 @ 100.06 + 1.5 @ 100.07.
        #expect(close(buy(2).vwap, (1.5 * 100.06 + 1.5 * 100.07) / 3))
        // Missing now 1.5 + 3 = 4.5; after 3 quiet bars 4.5 / 8 = 0.5625.
        let later = buy(5)
        #expect(close(later.vwap, (0.4375 * 100.05 + 2 * 100.06 + 0.5625 * 100.07) / 3))
        // Sells walk the bids, which were untouched.
        let sell = liquidity.execute(.sell, quantity: 1, notionalLimit: .infinity, reference: 100, bar: 5,
                                     time: s.time[5], lot: nil)
        #expect(close(sell.vwap, 99.95))
    }

    @Test("synthetic through the engine: a lot-rounded partial fill never exceeds the book")
    func syntheticPartial() throws {
        var c = ExecutionConfig()
        c.synthetic.spreadBps = 10
        c.tick = 0.01
        c.lot = 2
        c.maxParticipation = nil
        c.feeBps = 0
        c.sizing = .units(500)
        c.initialCash = 1_000_000
        let s = EngineTest.candles(Array(repeating: (100.0, 101.0, 99.0, 100.0, 3150.0), count: 4))
        let r = try EngineTest.run(s, Signals(entries: [true, false, false, false], exits: [false, true, false, false]), c)
        // 210 units rest on the asks: 210 is a multiple of 2, so everything fills.
        #expect(r.fills[0].quantityFilled == 210 && r.fills[0].isPartial && r.fills[0].depthAvailable == 210)
        var notional = 0.0
        for k in 1...20 {
            let price: Double = 100.04 + 0.01 * Double(k)
            notional += Double(k) * price
        }
        let vwap = notional / 210
        #expect(close(r.fills[0].vwap, vwap))
        #expect(r.partialFills >= 1)
    }
}
