import Testing
import TestSupport
@testable import BacktestCore

/// The event-level replay's kernel on hand-built events: the queue ahead, trade-throughs, the
/// touch moving onto a quote, latency, post-only, the position limit; and, on seeded random
/// markets, no look-ahead and no fill before the queue ahead has traded away.
@Suite("EventReplay")
struct EventReplayTests {
    static let t0: Int64 = 1_700_000_000_000

    static func snapshot(_ ms: Int64, bids: [(Double, Double)], asks: [(Double, Double)]) -> MarketEvent {
        .book(BookEvent(timeMs: t0 + ms, kind: .snapshot, bids: bids.map { BookLevel(price: $0.0, quantity: $0.1) },
                        asks: asks.map { BookLevel(price: $0.0, quantity: $0.1) }))
    }

    static func update(_ ms: Int64, bids: [(Double, Double)] = [], asks: [(Double, Double)] = []) -> MarketEvent {
        .book(BookEvent(timeMs: t0 + ms, kind: .update, bids: bids.map { BookLevel(price: $0.0, quantity: $0.1) },
                        asks: asks.map { BookLevel(price: $0.0, quantity: $0.1) }))
    }

    static func trade(_ ms: Int64, _ price: Double, _ quantity: Double, taker: OrderSide?) -> MarketEvent {
        .trade(TradePrint(timeMs: t0 + ms, price: price, quantity: quantity, side: taker))
    }

    static func run(_ events: [MarketEvent], bid: String? = "best_bid", ask: String? = nil, everyMs: Int64 = 10,
                    latencyMs: (Int64, Int64) = (0, 0), size: Double = 1, maxPosition: Double = 10, lot: Double = 0.001,
                    makerBps: Double = 0) throws -> ReplayResult {
        let settings = try ReplaySettings(everyNs: everyMs * 1_000_000, quoteSize: size, maxPosition: maxPosition,
                                          latency: try ReplayLatency(entryNs: latencyMs.0 * 1_000_000, responseNs: latencyMs.1 * 1_000_000),
                                          makerBps: makerBps, lot: lot)
        var source = ArrayMarketEvents(events)
        return try EventReplay(settings: settings, bidQuote: try bid.map { try QuoteExpression($0, setting: .quoteBid) },
                               askQuote: try ask.map { try QuoteExpression($0, setting: .quoteAsk) }).run(&source)
    }

    static let book = snapshot(0, bids: [(100, 5), (99, 3)], asks: [(101, 4), (102, 6)])

    @Test("a bid at the touch waits for the 5 ahead: sells of 2, 2 and 1 leave it unfilled, the next lot fills it")
    func queueAhead() throws {
        let r = try Self.run([Self.book, Self.trade(20, 100, 2, taker: .sell), Self.trade(30, 100, 2, taker: .sell),
                              Self.trade(40, 100, 1, taker: .sell), Self.trade(50, 100, 0.001, taker: .sell),
                              Self.update(60, asks: [(101, 4)])])
        let f = try #require(r.fills.first)
        #expect(r.fills.count == 1 && f.side == .buy && f.price == 100 && f.quantity == 1 && f.queueAhead == 5)
        #expect(f.exchangeNs == (Self.t0 + 50) * 1_000_000 && f.arrivalNs == Self.t0 * 1_000_000)
        #expect(r.finalPosition == 1 && r.cash == -100 && r.pnl == -100 + 100.5)
    }

    @Test("a level that shrinks caps the queue ahead (riskaverse): 5 ahead, the level falls to 1, a sell of 1.5 fills")
    func shrinkingLevel() throws {
        let r = try Self.run([Self.book, Self.update(20, bids: [(100, 1)]), Self.trade(30, 100, 1.5, taker: .sell),
                              Self.update(40, asks: [(101, 4)])])
        #expect(r.fills.map(\.exchangeNs) == [(Self.t0 + 30) * 1_000_000])
    }

    @Test("with zero latency a quote at a price that trades through fills; a buy print does not touch a bid")
    func tradeThrough() throws {
        let r = try Self.run([Self.book, Self.trade(20, 100, 50, taker: .buy), Self.trade(30, 99, 0.5, taker: .sell),
                              Self.update(40, asks: [(101, 4)])])
        #expect(r.fills.map(\.exchangeNs) == [(Self.t0 + 30) * 1_000_000] && r.fills[0].price == 100)
        // Prints without a taker side are not matched.
        let none = try Self.run([Self.book, Self.trade(30, 99, 0.5, taker: nil), Self.update(40, asks: [(101, 4)])])
        #expect(none.fills.isEmpty)
    }

    @Test("an ask quote fills when the best bid rises onto it")
    func touchMovesOnto() throws {
        let r = try Self.run([Self.book, Self.update(20, bids: [(101, 2)]), Self.update(30, asks: [(102, 1)])],
                             bid: nil, ask: "best_ask")
        #expect(r.fills.count == 1 && r.fills[0].side == .sell && r.fills[0].price == 101 && r.fills[0].exchangeNs == (Self.t0 + 20) * 1_000_000)
    }

    @Test("latency: the quote reaches the book entry later, with the queue then, and the fill is heard response later")
    func latency() throws {
        // Sent at t0 (5 ahead), reaches the book at t0+3ms after the level grew to 8: 8 ahead.
        let events = [Self.book, Self.update(2, bids: [(100, 8)]), Self.trade(20, 100, 8.5, taker: .sell),
                      Self.update(40, asks: [(101, 4)])]
        let r = try Self.run(events, latencyMs: (3, 7))
        let f = try #require(r.fills.first)
        #expect(f.queueAhead == 8 && f.arrivalNs == (Self.t0 + 3) * 1_000_000)
        #expect(f.exchangeNs == (Self.t0 + 20) * 1_000_000 && f.localNs == (Self.t0 + 27) * 1_000_000)
        #expect(f.entryLatencyNs == 3_000_000 && f.responseLatencyNs == 7_000_000)
    }

    @Test("post-only: a quote crossing the step's book is not sent; one crossing on arrival is refused")
    func postOnly() throws {
        let crossing = try Self.run([Self.book, Self.update(30, asks: [(101, 4)])], bid: "best_ask")
        #expect(crossing.ordersSent == 0 && crossing.notPlacedCrossing == 3)
        // The ask drops to 100.5 before the bid at 101 - 0.5 arrives 5ms later.
        let refused = try Self.run([Self.book, Self.update(2, asks: [(100.5, 1)]), Self.update(30, asks: [(101, 4)])],
                                   bid: "best_ask - 0.5", everyMs: 100, latencyMs: (5, 0))
        #expect(refused.ordersSent == 1 && refused.rejectedPostOnly == 1 && refused.fills.isEmpty)
    }

    @Test("a side is quoted only while a fill keeps the position within the maximum; NaN quotes nothing")
    func maxPosition() throws {
        var events = [Self.book]
        for k in 1...6 { events.append(Self.trade(Int64(k) * 20, 99, 1, taker: .sell)) }
        events.append(Self.update(200, asks: [(101, 4)]))
        let r = try Self.run(events, size: 1, maxPosition: 2)
        #expect(r.fills.count == 2 && r.finalPosition == 2)
        let nan = try Self.run(events, bid: "0 / 0")
        #expect(nan.ordersSent == 0 && nan.fills.isEmpty)
    }

    @Test("fees: a maker rebate adds to cash")
    func fees() throws {
        let r = try Self.run([Self.book, Self.trade(30, 99, 0.5, taker: .sell), Self.update(40, asks: [(101, 4)])], makerBps: -2)
        #expect(r.fills[0].fee == -100 * 2 / 10_000 && r.cash == -100 + 0.02)
    }

    @Test("steps fall at t0 + k x every while a later event exists")
    func steps() throws {
        let r = try Self.run([Self.book, Self.update(25, asks: [(101, 4)]), Self.update(30, asks: [(101, 3)])], everyMs: 10)
        // Steps at 0, 10, 20 (< 30); none at 30: no later event.
        #expect(r.steps == 3)
    }

    @Test("bad settings name their setting: every 0, negative latency, a quote size below the lot, a maximum below the size")
    func badSettings() throws {
        let latency = try ReplayLatency(entryNs: 0, responseNs: 0)
        func setting(_ body: () throws -> Void) -> Setting? {
            do { try body(); return nil } catch let e as InputError { return e.setting } catch { return nil }
        }
        #expect(setting { _ = try ReplaySettings(everyNs: 0, quoteSize: 1, maxPosition: 1, latency: latency, lot: 0.1) } == .every)
        #expect(setting { _ = try ReplayLatency(parsing: "-1ms") } == .latency)
        #expect(setting { _ = try ReplayLatency(parsing: "5ms,-2ms") } == .latency)
        #expect(setting { _ = try ReplaySettings(everyNs: 1, quoteSize: 0.001, maxPosition: 1, latency: latency, lot: 0.01) } == .quoteSize)
        #expect(setting { _ = try ReplaySettings(everyNs: 1, quoteSize: 1, maxPosition: 0.5, latency: latency, lot: 0.01) } == .maxPosition)
        #expect(setting { _ = try QueueModel(parsing: "prob:0") } == .queue)
        #expect(setting { _ = try QuoteExpression("best_bidd", setting: .quoteBid) } == .quoteBid)
        #expect(setting { _ = try QuoteExpression("best_bid > 1", setting: .quoteBid) } == .quoteBid)
        #expect(try QueueModel(parsing: "prob:2") == .power(2) && QueueModel(parsing: "logprob") == .log)
        #expect(setting { _ = try QueueModel(parsing: "prob:-1") } == .queue && setting { _ = try QueueModel(parsing: "prob:x") } == .queue)
        #expect(try ReplayLatency(parsing: "5ms") == ReplayLatency(entryNs: 5_000_000, responseNs: 5_000_000))
        #expect(try ReplayLatency(parsing: "250us,1s") == ReplayLatency(entryNs: 250_000, responseNs: 1_000_000_000))
    }

    @Test("probability queues: a decrease not taken by trades is split by f(back) / (f(back) + f(front))")
    func probabilityQueue() {
        // 3 ahead of 5: the level falls to 3 with no trade; p = 2^2 / (2^2 + 3^2) = 4/13.
        var q = QueueModel.power(2).placed(levelQuantity: 3)
        QueueModel.power(2).levelChanged(&q, previous: 5, quantity: 3)
        #expect(abs(q.ahead - (3 - 9.0 / 13 * 2)) < 1e-12)
        // A trade of 1 then the level's fall by 1 from it: the decrease was the trade, nothing moves.
        var t = QueueModel.log.placed(levelQuantity: 3)
        QueueModel.log.traded(&t, quantity: 1)
        QueueModel.log.levelChanged(&t, previous: 5, quantity: 4)
        #expect(t.ahead == 2 && t.tradedSinceChange == 0)
        // Nothing ahead nor behind: 0 / 0 gives the level's new size (as Rust's f64::min).
        var z = QueueModel.power(3).placed(levelQuantity: 0)
        QueueModel.power(3).levelChanged(&z, previous: 0, quantity: 0)
        #expect(z.ahead == 0)
        // Riskaverse: only capped.
        var r = QueueModel.riskAverse.placed(levelQuantity: 3)
        QueueModel.riskAverse.levelChanged(&r, previous: 5, quantity: 4)
        #expect(r.ahead == 3)
    }

    @Test("book values: mid, spread, levels, imbalance, microprice")
    func bookValues() throws {
        var book = OrderBook()
        book.apply(BookEvent(timeMs: 0, kind: .snapshot, bids: [BookLevel(price: 100, quantity: 3), BookLevel(price: 99, quantity: 1)],
                             asks: [BookLevel(price: 101, quantity: 1)]))
        let s = BookState(book: book, lastTrade: 100.5, position: 2)
        func v(_ text: String) throws -> Double {
            var q = try QuoteExpression(text, setting: .quoteBid)
            return q.next(s)
        }
        #expect(try v("mid") == 100.5 && v("spread") == 1 && v("bid_qty(2)") == 1 && v("ask_qty(2)") == 0)
        #expect(try v("imbalance(2)") == (4.0 - 1) / 5 && v("microprice") == (100.0 * 1 + 101 * 3) / 4)
        #expect(try v("min(best_bid, last_trade) - position * 0.5") == 99 && v("floor(mid)") == 100)
    }

    // MARK: - Properties on seeded random markets

    /// A seeded market: a ladder of whole-number prices, level changes, cancels at the touch,
    /// trades at the touch followed by their depth message, several events per millisecond.
    static func market(seed: UInt64, count: Int = 3000) -> [MarketEvent] {
        var rng = SplitMix64(seed: seed)
        var bids: [Double: Double] = [:], asks: [Double: Double] = [:]
        for k in 0..<8 { bids[Double(99 - k)] = Double(rng.int(1...4000)) / 1000; asks[Double(101 + k)] = Double(rng.int(1...4000)) / 1000 }
        func levels(_ side: [Double: Double]) -> [(Double, Double)] { side.map { ($0.key, $0.value) } }
        var out = [snapshot(0, bids: levels(bids).sorted { $0.0 > $1.0 }, asks: levels(asks).sorted { $0.0 < $1.0 })]
        var t: Int64 = 0
        for _ in 0..<count {
            t += Int64([0, 0, 1, 2, 5, 11, 30][rng.int(0...6)])
            let bb = bids.keys.max()!, ba = asks.keys.min()!
            let r = rng.unit()
            if r < 0.4 {
                let buy = rng.unit() < 0.5
                let p = buy ? ba : bb
                let level = buy ? asks[p]! : bids[p]!
                let q = min(level, Double(rng.int(1...3000)) / 1000)
                out.append(trade(t, p, q, taker: buy ? .buy : .sell))
                var left = ((level - q) * 1000).rounded() / 1000
                if left <= 0 && (buy ? asks.count : bids.count) <= 3 { left = Double(rng.int(1...3000)) / 1000 }
                if buy { asks[p] = left > 0 ? left : nil } else { bids[p] = left > 0 ? left : nil }
                out.append(buy ? update(t, asks: [(p, max(left, 0))]) : update(t, bids: [(p, max(left, 0))]))
            } else if r < 0.6, ba - bb > 1 {
                let buy = rng.unit() < 0.5
                let p = buy ? bb + 1 : ba - 1, q = Double(rng.int(1...3000)) / 1000
                if buy { bids[p] = q } else { asks[p] = q }
                out.append(buy ? update(t, bids: [(p, q)]) : update(t, asks: [(p, q)]))
            } else {
                let buy = rng.unit() < 0.5
                let p = buy ? bb - Double(rng.int(0...3)) : ba + Double(rng.int(0...3))
                let q = rng.unit() < 0.3 && (buy ? bids.count : asks.count) > 3 ? 0 : Double(rng.int(1...3000)) / 1000
                if buy { bids[p] = q > 0 ? q : nil } else { asks[p] = q > 0 ? q : nil }
                out.append(buy ? update(t, bids: [(p, q)]) : update(t, asks: [(p, q)]))
            }
        }
        return out
    }

    @Test("no look-ahead: cutting the events after T changes no fill at or before T", arguments: [UInt64(1), 2, 3])
    func noLookAhead(seed: UInt64) throws {
        try Self.expectNoLookAhead(Self.market(seed: seed))
    }

    /// Replays `events` whole and cut after a third and two thirds of them (at latencies 0/0 and
    /// 3/5 ms), expecting the same fills at or before each cut; returns the whole replays.
    @discardableResult
    static func expectNoLookAhead(_ events: [MarketEvent]) throws -> [ReplayResult] {
        try [(Int64(0), Int64(0)), (3, 5)].map { latency in
            let full = try run(events, ask: "best_ask", everyMs: 7, latencyMs: latency)
            #expect(full.fills.count > 20)
            for cut in [events.count / 3, events.count * 2 / 3] {
                let tNs = events[cut].timeMs * 1_000_000
                let part = try run(Array(events.prefix { $0.timeMs <= events[cut].timeMs }), ask: "best_ask", everyMs: 7, latencyMs: latency)
                #expect(part.fills.filter { $0.exchangeNs <= tNs } == full.fills.filter { $0.exchangeNs <= tNs })
            }
            return full
        }
    }

    @Test("a quote never fills before the queue ahead of it is gone (or the market went through its price)", arguments: [UInt64(4), 5, 6])
    func noFillBeforeQueue(seed: UInt64) throws {
        let events = Self.market(seed: seed)
        let r = try Self.run(events, bid: "best_bid - 1", ask: "best_ask", everyMs: 13, latencyMs: (2, 2))
        #expect(r.fills.count > 10)
        for f in r.fills {
            // The queue restated: the level at arrival, less the prints at the price that meet the
            // quote, capped by the level's later sizes (riskaverse); or the price went through.
            var book = OrderBook()
            var ahead: Double?
            var through = false
            for e in events where e.timeMs * 1_000_000 <= f.exchangeNs {
                let ns = e.timeMs * 1_000_000
                if ns > f.arrivalNs && ahead == nil { ahead = book.quantity(f.side, at: f.price) ?? 0 }
                switch e {
                case .trade(let t):
                    guard ahead != nil, t.side == (f.side == .buy ? .sell : .buy) else { break }
                    if t.price == f.price { ahead! -= t.quantity }
                    if f.side == .buy ? t.price < f.price : t.price > f.price { through = true }
                case .book(let b):
                    book.apply(b)
                    guard ahead != nil else { break }
                    ahead = min(ahead!, book.quantity(f.side, at: f.price) ?? 0)
                    if f.side == .buy ? (book.bestAsk ?? .infinity) <= f.price : (book.bestBid ?? -.infinity) >= f.price { through = true }
                }
            }
            let left = try #require(ahead, "fill \(f.orderID) before any event after its arrival")
            #expect(through || left <= -0.0005 + 1e-9, "fill \(f.orderID) at \(f.exchangeNs): \(left) still ahead")
        }
    }

    @Test("the queue ahead at placement is the level resting at the price when the quote arrives", arguments: [UInt64(7)])
    func queueAtPlacement(seed: UInt64) throws {
        let events = Self.market(seed: seed)
        let r = try Self.run(events, bid: "best_bid", ask: "best_ask + 1", everyMs: 9, latencyMs: (4, 1))
        #expect(r.fills.count > 10)
        for f in r.fills {
            var book = OrderBook()
            for e in events where e.timeMs * 1_000_000 <= f.arrivalNs {
                if case .book(let b) = e { book.apply(b) }
            }
            #expect(f.queueAhead == book.quantity(f.side, at: f.price) ?? 0)
        }
    }
}

@Suite("LotInference")
struct LotInferenceTests {
    @Test("the largest power of ten every quantity is a multiple of, large quantities included")
    func lot() {
        func lot(_ qs: [Double]) -> Double {
            var inference = LotInference()
            qs.forEach { inference.add($0) }
            return inference.lot
        }
        #expect(lot([1.76789211, 0.0000004, 159992.99318725, 1139.11015936]) == 1e-8)
        #expect(lot([1, 2, 30]) == 1 && lot([0.5, 2]) == 0.1 && lot([0.001, 0]) == 0.001)
        #expect(lot([159992.993187251]) == 1e-9)
    }
}
