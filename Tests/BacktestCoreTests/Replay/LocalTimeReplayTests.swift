import Testing
import TestSupport
@testable import BacktestCore

/// A replay of a `bt live` recording, whose events carry the recorder's receive times: the
/// strategy sees each event at its local time while the exchange takes it at its exchange time
/// (`LocalMarketView`); no look-ahead; a feed delay D is the same as seeing the book D later.
@Suite("EventReplay: a recording's local times")
struct LocalTimeReplayTests {
    typealias E = EventReplayTests

    /// `event` received at `localMs` after the start (nil: no receive time).
    static func received(_ event: MarketEvent, _ localNs: Int64?) -> MarketEvent {
        switch event {
        case .trade(var t): t.localNs = localNs; return .trade(t)
        case .book(var b): b.localNs = localNs; return .book(b)
        }
    }

    static func ns(_ ms: Int64) -> Int64 { (E.t0 + ms) * 1_000_000 }

    @Test("a bid quote follows the best bid when the strategy receives the update (local 35 ms), not when it was made (5 ms)")
    func seesLocalTime() throws {
        let events = [E.book, E.update(5, bids: [(100.5, 1)]), E.trade(60, 100.5, 5, taker: .sell), E.update(100, asks: [(102, 1)])]
        let local: [Int64?] = [Self.ns(0), Self.ns(35), Self.ns(61), Self.ns(100)]
        let recorded = zip(events, local).map { Self.received($0, $1) }
        let r = try E.run(recorded)
        // The quote at 100.5 is sent at the first step after 35 ms (40 ms): it arrives then, with
        // nothing ahead, and the sell at 60 ms fills it.
        let f = try #require(r.fills.first { $0.price == 100.5 })
        #expect(f.arrivalNs == Self.ns(40) && f.exchangeNs == Self.ns(60) && f.queueAhead == 1)
        // Without receive times the update is seen at the step at 10 ms.
        let plain = try E.run(events)
        #expect(try #require(plain.fills.first { $0.price == 100.5 }).arrivalNs == Self.ns(10))
        // The steps start at the first event's exchange time (as hftbacktest's clock does): the
        // steps at 0 and 10 ms, before the book is received (12 ms), see an empty book and quote
        // nothing; the bid at 100 is sent at 20 ms.
        let late = try E.run([Self.received(E.book, Self.ns(12))] + recorded.dropFirst())
        #expect(late.steps == r.steps && late.ordersSent == r.ordersSent && r.ordersSent >= 2)
        #expect(try #require(late.fills.first { $0.price == 100.5 }).arrivalNs == Self.ns(40))
    }

    @Test("a receive time before the exchange time (clocks that disagree) counts as the exchange time")
    func earlyReceiveTime() throws {
        let events = [E.book, E.update(5, bids: [(100.5, 1)]), E.trade(60, 100.5, 5, taker: .sell), E.update(100, asks: [(102, 1)])]
        let early = zip(events, [Self.ns(0) - 7_000_000, Self.ns(5) - 1, Self.ns(60) - 3, Self.ns(90)]).map { Self.received($0, $1) }
        let exact = zip(events, [Self.ns(0), Self.ns(5), Self.ns(60), Self.ns(100)]).map { Self.received($0, $1) }
        let (a, b, c) = (try E.run(early), try E.run(exact), try E.run(events))
        #expect(a.fills == b.fills && b.fills == c.fills)
    }

    /// A seeded market whose events are received 0 to 20 ms after they were made, now and then
    /// 60 to 150 ms (out of exchange-time order), several in one burst.
    static func recording(seed: UInt64) -> [MarketEvent] {
        var rng = SplitMix64(seed: seed &+ 100)
        return E.market(seed: seed).map { e in
            let delay = rng.unit() < 0.05 ? Int64(rng.int(60_000...150_000)) * 1000 : Int64(rng.int(0...20_000)) * 1000
            return received(e, e.timeMs * 1_000_000 + delay)
        }
    }

    @Test("no look-ahead: cutting the events made after T changes no fill at or before T", arguments: [UInt64(1), 2, 3])
    func noLookAhead(seed: UInt64) throws {
        let recorded = try E.expectNoLookAhead(Self.recording(seed: seed))
        // The receive times change what the strategy does.
        let plain = try E.run(E.market(seed: seed), ask: "best_ask", everyMs: 7, latencyMs: (3, 5))
        #expect(recorded[1].fills != plain.fills)
    }

    @Test("every event received D late: the fills of a replay without receive times whose entry latency is D longer and response D shorter",
          arguments: [UInt64(4), 5])
    func constantFeedDelay(seed: UInt64) throws {
        let events = E.market(seed: seed)
        // D one step long, so that the steps of both replays fall at the same times once shifted
        // by D (the delayed one's first step, before anything is received, quotes nothing).
        let d: Int64 = 7
        let delayed = events.map { Self.received($0, $0.timeMs * 1_000_000 + d * 1_000_000) }
        let seen = try E.run(delayed, ask: "best_ask", everyMs: 7, latencyMs: (2, 9))
        let shifted = try E.run(events, ask: "best_ask", everyMs: 7, latencyMs: (2 + d, 9 - d))
        #expect(seen.fills.count > 20)
        // The same exchange timeline; each fill heard D later by the strategy whose clock runs D ahead.
        let lastNs = events.last!.timeMs * 1_000_000
        func key(_ f: ReplayFill, _ shift: Int64) -> String {
            "\(f.orderID) \(f.side) \(f.price) \(f.quantity) \(f.exchangeNs) \(f.arrivalNs) \(f.localNs + shift)"
        }
        // Orders sent in the last D before the end are sent only by the replay that steps longer.
        let a = seen.fills.filter { $0.arrivalNs < lastNs - 20_000_000 }.map { key($0, 0) }
        let b = shifted.fills.filter { $0.arrivalNs < lastNs - 20_000_000 }.map { key($0, d * 1_000_000) }
        #expect(a == b)
    }
}
