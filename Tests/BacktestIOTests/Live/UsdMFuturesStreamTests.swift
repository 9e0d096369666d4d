import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestLive

/// The USD-M futures market's stream as `bt live` reads it: its frames (a depth diff's `pu`, the
/// mark price update), its local-book procedure (`DepthProcedure.futures`) and the funding
/// settlements taken from the mark price stream (`LiveFunding`).
@Suite("USD-M futures stream: frames, book procedure, funding")
struct UsdMFuturesStreamTests {
    /// The spot frames' suite reads these with the same parser.
    let frames = BinanceFramesTests()

    func message(_ text: String) throws -> StreamMessage { try frames.message(text) }

    @Test("a mark price update (Binance's documented fields): mark, rate and next funding time")
    func markPrice() throws {
        let m = try message("""
            {"stream":"btcusdt@markPrice@1s","data":{"e":"markPriceUpdate","E":1562305380000,"s":"BTCUSDT","p":"11794.15000000",\
            "i":"11784.62659091","P":"11784.25641265","r":"0.00038167","T":1562306400000}}
            """)
        #expect(m == .mark(MarkPriceUpdate(eventMs: 1562305380000, markPrice: 11794.15, rate: 0.00038167, nextFundingMs: 1562306400000)))
    }

    @Test("a mark price update out of range is skipped with its reason", arguments: [
        (#""p":"-1","r":"0.0001","T":5"#, "mark price"), (#""p":"100","r":"0.2","T":5"#, "funding rate"),
        (#""p":"100","r":"abc","T":5"#, "funding rate"), (#""p":"100","r":"0.0001","T":0"#, "T"),
        (#""p":"100","r":"0.0001""#, "without"),
    ])
    func badMark(_ fields: String, _ named: String) {
        let text = #"{"e":"markPriceUpdate","E":1,"s":"BTCUSDT","# + fields + "}"
        do {
            _ = try message(text)
            Issue.record("accepted \(text)")
        } catch let r as FrameRejection {
            #expect(r.reason.contains(named), "\(r.reason)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("a futures depth diff carries pu, the previous diff's u")
    func depthWithPreviousId() throws {
        let m = try message(#"{"e":"depthUpdate","E":10,"T":9,"s":"BTCUSDT","U":157,"u":160,"pu":149,"b":[["1","2"]],"a":[]}"#)
        #expect(m == .depth(DepthDiff(eventMs: 10, firstId: 157, lastId: 160, bids: [BookLevel(price: 1, quantity: 2)], asks: [],
                                      previousId: 149)))
    }

    static func diff(_ first: Int64, _ last: Int64, pu: Int64, ms: Int64, bid: Double = 100, qty: Double = 1) -> DepthDiff {
        DepthDiff(eventMs: ms, firstId: first, lastId: last, bids: [BookLevel(price: bid, quantity: qty)], asks: [], previousId: pu)
    }

    static let snap = DepthSnapshot(lastUpdateId: 20, bids: [BookLevel(price: 99, quantity: 5)], asks: [BookLevel(price: 101, quantity: 3)])

    @Test("futures: diffs with u < lastUpdateId dropped, the first applied holds lastUpdateId, then each pu is the previous u")
    func futuresProcedure() {
        var sync = DepthSync(procedure: .futures)
        sync.receive(Self.diff(10, 18, pu: 8, ms: 1000, bid: 98))            // u < 20: dropped
        sync.receive(Self.diff(19, 20, pu: 18, ms: 1100, bid: 100, qty: 4))  // U <= 20 <= u: the first applied
        sync.receive(Self.diff(24, 30, pu: 20, ms: 1200, bid: 100, qty: 7))  // ids skip 21..23: joined by pu
        let joined = sync.receive(Self.snap)
        #expect(joined)
        #expect(sync.state == .synced && sync.gaps == 0 && sync.diffsDropped == 1)
        #expect(sync.book.quantity(.buy, at: 100) == 7 && sync.book.quantity(.buy, at: 98) == nil)
        let next = sync.receive(Self.diff(40, 41, pu: 30, ms: 1300))
        #expect(next)
        // A pu that is not the previous u is a gap: the book is unknown until the next sync.
        let gap = sync.receive(Self.diff(50, 52, pu: 45, ms: 1400))
        #expect(!gap)
        #expect(sync.gaps == 1 && sync.wantsSnapshot)
    }

    @Test("futures: the spot rules would see a gap at each of these diffs; a snapshot older than the stream is refused")
    func spotRulesDiffer() {
        var spot = DepthSync(procedure: .spot)
        spot.receive(Self.diff(19, 20, pu: 18, ms: 1100))
        spot.receive(Self.diff(24, 30, pu: 20, ms: 1200))
        spot.receive(Self.snap)
        #expect(spot.state != .synced, "spot joins U == lastUpdateId + 1 only")
        var futures = DepthSync(procedure: .futures)
        futures.receive(Self.diff(21, 25, pu: 20, ms: 1100))  // U > lastUpdateId: the snapshot is older than the stream
        let older = futures.receive(Self.snap)
        #expect(!older)
        #expect(futures.snapshotsRefused == 1)
    }

    static func mark(_ eventMs: Int64, rate: Double, mark: Double, next: Int64) -> MarkPriceUpdate {
        MarkPriceUpdate(eventMs: eventMs, markPrice: mark, rate: rate, nextFundingMs: next)
    }

    @Test("a settlement takes the rate and mark of the last update naming it at or before its time, once the stream passes it")
    func fundingAtSettlement() {
        var f = LiveFunding()
        let r1 = f.receive(Self.mark(7_000, rate: 0.0001, mark: 100, next: 10_000))
        #expect(r1 == nil)
        let r2 = f.receive(Self.mark(9_000, rate: 0.0002, mark: 101, next: 10_000))
        #expect(r2 == nil)
        let r3 = f.receive(Self.mark(10_000, rate: 0.0003, mark: 102, next: 10_000))
        #expect(r3 == nil)  // at T: still this settlement's
        // At T, the next update names the next funding time: the settlement is final, at the mark at T.
        let r4 = f.receive(Self.mark(10_000, rate: 0.0009, mark: 103, next: 20_000))
        #expect(r4 == FundingRate(timeMs: 10_000, rate: 0.0003, markPrice: 102))
        #expect(f.lastRecordedMs == 10_000)
        // A trade after the next settlement makes it final without a later update.
        let r5 = f.passed(20_000)
        #expect(r5 == nil)
        let r6 = f.passed(20_001)
        #expect(r6 == FundingRate(timeMs: 20_000, rate: 0.0009, markPrice: 103))
        let r7 = f.passed(30_000)
        #expect(r7 == nil)
    }

    @Test("a late update, an update after a gap in the stream, a schedule moved, and rows already recorded")
    func fundingEdges() {
        var f = LiveFunding(lastRecordedMs: 10_000)
        // Already recorded (a resumed session): not again.
        let r8 = f.receive(Self.mark(9_000, rate: 0.0002, mark: 101, next: 10_000))
        #expect(r8 == nil)
        let r9 = f.receive(Self.mark(11_000, rate: 0.0002, mark: 101, next: 20_000))
        #expect(r9 == nil)
        // The exchange moves the settlement before it is reached: the new time is waited for.
        let r10 = f.receive(Self.mark(12_000, rate: 0.0004, mark: 104, next: 15_000))
        #expect(r10 == nil)
        let r11 = f.receive(Self.mark(13_000, rate: 0.0005, mark: 105, next: 20_000))
        #expect(r11 == nil)
        // Updates were missed around the settlement: the first after it settles it at the last mark before it.
        let r12 = f.receive(Self.mark(21_000, rate: 0.0001, mark: 90, next: 30_000))
        #expect(r12 == FundingRate(timeMs: 20_000, rate: 0.0005, markPrice: 105))
    }
}
