import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestLive

/// Each branch of Binance's local-book procedure (`DepthSync`), on hand-made diffs.
@Suite("Depth sync: Binance's local order book procedure")
struct DepthSyncTests {
    static func diff(_ first: Int64, _ last: Int64, ms: Int64, bid: Double = 100, qty: Double = 1) -> DepthDiff {
        DepthDiff(eventMs: ms, firstId: first, lastId: last, bids: [BookLevel(price: bid, quantity: qty)], asks: [])
    }
    static let snap = DepthSnapshot(lastUpdateId: 10, bids: [BookLevel(price: 99, quantity: 5), BookLevel(price: 100, quantity: 2)],
                                    asks: [BookLevel(price: 101, quantity: 3)])

    @Test("no snapshot is asked for before a diff is buffered; the first diff asks for one")
    func asksAfterFirstDiff() {
        var sync = DepthSync()
        #expect(!sync.wantsSnapshot)
        sync.receive(Self.diff(8, 9, ms: 1000))
        #expect(sync.wantsSnapshot)
        #expect(sync.state == .needsSnapshot)
    }

    @Test("diffs with u <= lastUpdateId are dropped; the straddling diff and the rest apply in order")
    func dropsOldAndApplies() {
        var sync = DepthSync()
        sync.receive(Self.diff(5, 8, ms: 1000, bid: 98))
        sync.receive(Self.diff(9, 10, ms: 1100, bid: 98))     // u == lastUpdateId: dropped
        sync.receive(Self.diff(11, 12, ms: 1200, bid: 100, qty: 7))  // straddles 11
        let ok1 = sync.receive(Self.snap)
        #expect(ok1)
        #expect(sync.state == .synced)
        #expect(sync.diffsDropped == 2)
        #expect(sync.book.quantity(.buy, at: 100) == 7)
        #expect(sync.book.quantity(.buy, at: 98) == nil)
        #expect(sync.lastUpdateId == 12)
        let ok2 = sync.receive(Self.diff(13, 15, ms: 1300, bid: 99, qty: 0))
        #expect(ok2)  // 0 removes the level
        #expect(sync.book.quantity(.buy, at: 99) == nil)
        let recorded = sync.takeRecorded()
        #expect(recorded.map(\.kind) == [.snapshot, .update, .update])
        // The snapshot is stamped with the first applied diff's event time.
        #expect(recorded.map(\.timeMs) == [1200, 1200, 1300])
        #expect(sync.takeRecorded().isEmpty)
    }

    @Test("a straddling diff that starts before lastUpdateId + 1 is applied (U <= lastUpdateId + 1 <= u)")
    func straddleInside() {
        var sync = DepthSync()
        sync.receive(Self.diff(7, 14, ms: 1000))
        let ok3 = sync.receive(Self.snap)
        #expect(ok3)
        #expect(sync.lastUpdateId == 14)
    }

    @Test("a snapshot older than the first buffered diff is refused and another asked for")
    func snapshotTooOld() {
        var sync = DepthSync()
        sync.receive(Self.diff(13, 14, ms: 1000))   // lastUpdateId + 1 = 11 < U = 13
        let ok4 = sync.receive(Self.snap)
        #expect(!ok4)
        #expect(sync.snapshotsRefused == 1)
        #expect(sync.wantsSnapshot)
        let ok5 = sync.receive(DepthSnapshot(lastUpdateId: 13, bids: [], asks: [BookLevel(price: 101, quantity: 1)]))
        #expect(ok5)
        #expect(sync.state == .synced)
    }

    @Test("a snapshot newer than every buffered diff is held until the diff that straddles it")
    func snapshotHeldForLaterDiff() {
        var sync = DepthSync()
        sync.receive(Self.diff(3, 6, ms: 1000))
        let ok6 = sync.receive(Self.snap)
        #expect(!ok6)
        #expect(!sync.wantsSnapshot)                 // held, not refused
        let ok7 = sync.receive(Self.diff(7, 10, ms: 1100))
        #expect(!ok7)  // u <= 10: still dropped
        let ok8 = sync.receive(Self.diff(11, 11, ms: 1200))
        #expect(ok8)
        #expect(sync.state == .synced)
        #expect(sync.diffsDropped == 2)
    }

    @Test("a held snapshot that the next diff skips past is refused (a gap between them)")
    func heldThenSkipped() {
        var sync = DepthSync()
        sync.receive(Self.diff(3, 6, ms: 1000))
        let ok9 = sync.receive(Self.snap)
        #expect(!ok9)
        let ok10 = sync.receive(Self.diff(12, 13, ms: 1100))
        #expect(!ok10)  // U = 12 > 11: no straddle
        #expect(sync.snapshotsRefused == 1)
        #expect(sync.wantsSnapshot)
    }

    @Test("a gap after sync (U != previous u + 1) records an empty book and resyncs from a fresh snapshot")
    func gapResyncs() {
        var sync = DepthSync()
        sync.receive(Self.diff(11, 12, ms: 1000))
        let ok11 = sync.receive(Self.snap)
        #expect(ok11)
        _ = sync.takeRecorded()
        let ok12 = sync.receive(Self.diff(14, 15, ms: 1100))
        #expect(!ok12)  // 13 is missing
        #expect(sync.gaps == 1)
        #expect(sync.state == .needsSnapshot && sync.wantsSnapshot)
        #expect(sync.book.isEmpty)
        let lost = sync.takeRecorded()
        #expect(lost == [BookEvent(timeMs: 1100, kind: .snapshot, bids: [], asks: [])])
        let ok13 = sync.receive(DepthSnapshot(lastUpdateId: 14, bids: [BookLevel(price: 90, quantity: 1)], asks: []))
        #expect(ok13)
        #expect(sync.syncs == 2)
        #expect(sync.book.quantity(.buy, at: 100) == 1)   // the buffered diff 14-15 applied on the snapshot
        #expect(sync.book.quantity(.buy, at: 90) == 1)
    }

    @Test("a gap inside the buffer after a sync resyncs from the diff after the gap")
    func gapInBuffer() {
        var sync = DepthSync()
        sync.receive(Self.diff(11, 12, ms: 1000))
        sync.receive(Self.diff(13, 14, ms: 1100))
        sync.receive(Self.diff(16, 17, ms: 1200))   // 15 missing
        let ok14 = sync.receive(Self.snap)
        #expect(!ok14)
        #expect(sync.gaps == 1)
        #expect(sync.wantsSnapshot)
        let events = sync.takeRecorded()
        #expect(events.map(\.kind) == [.snapshot, .update, .update, .snapshot])
        #expect(events.last!.bids.isEmpty && events.last!.timeMs == 1200)
        let ok15 = sync.receive(DepthSnapshot(lastUpdateId: 16, bids: [], asks: []))
        #expect(ok15)
        #expect(sync.lastUpdateId == 17)
    }

    @Test("a lost connection records an empty book just after the last diff and starts over")
    func disconnect() {
        var sync = DepthSync()
        sync.receive(Self.diff(11, 12, ms: 1000))
        let ok16 = sync.receive(Self.snap)
        #expect(ok16)
        _ = sync.takeRecorded()
        sync.disconnected()
        #expect(sync.state == .waitingForDiff && !sync.wantsSnapshot)
        #expect(sync.takeRecorded() == [BookEvent(timeMs: 1001, kind: .snapshot, bids: [], asks: [])])
    }

    @Test("recorded times never go backwards, and replaying the record gives the live book")
    func recordReplays() {
        var rng = SplitMix64(seed: 21)
        var sync = DepthSync()
        var id: Int64 = 100
        var ms: Int64 = 5_000
        var all: [BookEvent] = []
        sync.receive(Self.diff(101, 102, ms: ms))
        sync.receive(DepthSnapshot(lastUpdateId: 101, bids: [BookLevel(price: 50, quantity: 1)], asks: [BookLevel(price: 60, quantity: 1)]))
        id = 102
        for _ in 0..<2_000 {
            ms += Int64(rng.next() % 3) * 50 - 20      // sometimes earlier than the last
            let skip = rng.next() % 200 == 0 ? 2 : 1
            let n = Int64(1 + rng.next() % 3)
            let levels = (0..<Int(1 + rng.next() % 4)).map { _ in
                BookLevel(price: Double(40 + rng.next() % 30), quantity: rng.next() % 4 == 0 ? 0 : Double(1 + rng.next() % 9))
            }
            let d = DepthDiff(eventMs: ms, firstId: id + Int64(skip), lastId: id + Int64(skip) + n - 1,
                              bids: levels.filter { $0.price < 55 }, asks: levels.filter { $0.price >= 55 })
            id = d.lastId
            sync.receive(d)
            if sync.wantsSnapshot {
                all += sync.takeRecorded()
                let ok17 = sync.receive(DepthSnapshot(lastUpdateId: id - 1, bids: [BookLevel(price: 50, quantity: 2)], asks: []))
                #expect(ok17)
            }
        }
        all += sync.takeRecorded()
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.timeMs <= $1.timeMs })
        var replayed = OrderBook()
        for e in all { replayed.apply(e) }
        #expect(replayed == sync.book)
        #expect(sync.gaps > 0)
    }
}
