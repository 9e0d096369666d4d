import Testing
import TestSupport
@testable import BacktestCore

/// `--fills partial` (hftbacktest 2.4.4's `PartialFillExchange`) on hand-built events: the
/// prints at a quote's price execute what they pass the queue ahead by, in whole lots, up to
/// what is left; a print through the price or the touch moving onto it fills the rest; every
/// piece is a fill and counts in the position and cash.
@Suite("Replay partial fills")
struct PartialFillTests {
    typealias E = EventReplayTests

    static func run(_ events: [MarketEvent], fills: FillModel, bid: String? = "best_bid", ask: String? = nil,
                    size: Double = 2, maxPosition: Double = 10, makerBps: Double = 0) throws -> ReplayResult {
        let settings = try ReplaySettings(everyNs: 10_000_000, quoteSize: size, maxPosition: maxPosition,
                                          latency: try ReplayLatency(entryNs: 0, responseNs: 0), fills: fills,
                                          makerBps: makerBps, lot: 0.001)
        var source = ArrayMarketEvents(events)
        return try EventReplay(settings: settings, bidQuote: try bid.map { try QuoteExpression($0, setting: .quoteBid) },
                               askQuote: try ask.map { try QuoteExpression($0, setting: .quoteAsk) }).run(&source)
    }

    /// A bid of 2 at 100 behind 5: sells at 100 of 4 (1 ahead left), 2 (passes by 1: a piece of
    /// 1), 0.4 (a piece of 0.4), 0.0004 (less than half a lot: nothing), 0.0003 (the two pass
    /// by 0.0007: a lot), then a sell at 99 goes through the bid: the 0.599 left.
    static let pieces: [MarketEvent] = [
        E.book, E.trade(20, 100, 4, taker: .sell), E.trade(30, 100, 2, taker: .sell), E.trade(40, 100, 0.4, taker: .sell),
        E.trade(50, 100, 0.0004, taker: .sell), E.trade(51, 100, 0.0003, taker: .sell), E.trade(60, 99, 0.5, taker: .sell),
        E.update(70, asks: [(101, 4)]),
    ]

    @Test("pieces beyond the queue, in whole lots, then the rest when a print goes through; each its own fill")
    func pieces() throws {
        let r = try Self.run(Self.pieces, fills: .partial, makerBps: 10)
        #expect(r.fills.map(\.quantity) == [1, 0.4, 0.001, 2 - 1 - 0.4 - 0.001])
        #expect(r.fills.map(\.exchangeNs) == [30, 40, 51, 60].map { (E.t0 + $0) * 1_000_000 })
        #expect(r.fills.allSatisfy { $0.orderID == 1 && $0.side == .buy && $0.price == 100 && $0.queueAhead == 5 && $0.maker })
        // The bid stayed at the touch, so the quote was kept until it ended (a new one followed).
        #expect(r.cancelsSent == 0 && r.ordersSent == 2)
        // Position and cash count every piece (fees on each piece's notional).
        #expect(abs(r.finalPosition - 2) < 1e-12)
        #expect(abs(r.cash - (-200 - 200 * 10 / 10_000)) < 1e-9 && abs(r.fees - 0.2) < 1e-12)
        // Whole fills: the quote fills whole when the second print passes the queue (the next
        // one, behind 5 again, fills whole when the print goes through).
        let whole = try Self.run(Self.pieces, fills: .whole)
        #expect(whole.fills.map(\.quantity) == [2, 2] && whole.fills.map(\.orderID) == [1, 2])
        #expect(whole.fills.map(\.exchangeNs) == [30, 60].map { (E.t0 + $0) * 1_000_000 })
    }

    @Test("a print passing the queue by more than is left fills the rest; the touch moving onto a partly filled ask fills the rest")
    func restFills() throws {
        let big = try Self.run([E.book, E.trade(20, 100, 4, taker: .sell), E.trade(30, 100, 1.5, taker: .sell),
                                E.trade(40, 100, 3, taker: .sell), E.update(50, asks: [(101, 4)])], fills: .partial)
        #expect(big.fills.map(\.quantity) == [0.5, 1.5] && big.finalPosition == 2)
        // An ask of 2 at 101 behind 4: a buy of 4.7 gives a piece of 0.7, then the best bid rises to 101.
        let ask = try Self.run([E.book, E.trade(20, 101, 4.7, taker: .buy), E.update(30, bids: [(101, 1)]),
                                E.update(40, asks: [(102, 1)])], fills: .partial, bid: nil, ask: "best_ask")
        #expect(ask.fills.count == 2 && abs(ask.fills[0].quantity - 0.7) < 1e-12 && abs(ask.fills[1].quantity - 1.3) < 1e-12)
        #expect(ask.fills.map(\.exchangeNs) == [20, 30].map { (E.t0 + $0) * 1_000_000 } && ask.fills.allSatisfy { $0.side == .sell })
        #expect(abs(ask.finalPosition + 2) < 1e-12 && abs(ask.cash - 202) < 1e-9)
    }

    @Test("a partly filled quote keeps its pieces when it is cancelled, and the position limit counts them")
    func cancelledAfterPiece() throws {
        // After a piece of 1 the position is 1; with a maximum of 2 a fill of the quote size (2)
        // could pass it, so the next step cancels the bid: the 1 stays, no more fills.
        let r = try Self.run([E.book, E.trade(5, 100, 6, taker: .sell), E.trade(25, 99, 5, taker: .sell),
                              E.update(40, asks: [(101, 4)])], fills: .partial, maxPosition: 2)
        #expect(r.fills.map(\.quantity) == [1] && r.finalPosition == 1 && r.cancelsSent == 1 && r.ordersSent == 1)
    }

    @Test("--fills takes whole or partial; anything else names the setting")
    func parsing() throws {
        #expect(try FillModel(parsing: "partial") == .partial && FillModel(parsing: " Whole ") == .whole)
        #expect(FillModel.partial.name == "partial")
        #expect(throws: InputError.self) { _ = try FillModel(parsing: "fifo") }
        do { _ = try FillModel(parsing: "all") } catch let e as InputError { #expect(e.setting == .fills) }
    }
}
