import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestLive

/// The local time `DepthSync` records beside each book event's exchange time: a diff applied on
/// arrival its arrival; at a join the join's time (the book was not known before); an empty
/// snapshot for a gap or a loss the time of the call that found it.
@Suite("Depth sync: the recorded receive times")
struct RecordedLocalTimesTests {
    typealias D = DepthSyncTests

    @Test("diffs on arrival keep their arrival; the snapshot and the buffered diffs joined with it keep the join's time")
    func joinAndArrival() {
        var sync = DepthSync()
        sync.receive(D.diff(9, 10, ms: 1100, bid: 98), localNs: 1_000)       // dropped at the join
        sync.receive(D.diff(11, 12, ms: 1200, bid: 100, qty: 7), localNs: 2_000)  // straddles 11
        sync.receive(D.diff(13, 14, ms: 1250, bid: 97, qty: 1), localNs: 3_000)
        let joined = sync.receive(D.snap, localNs: 9_000)
        #expect(joined)
        sync.receive(D.diff(15, 16, ms: 1300, bid: 99, qty: 0), localNs: 10_000)
        let recorded = sync.takeRecorded()
        #expect(recorded.map(\.kind) == [.snapshot, .update, .update, .update])
        #expect(recorded.map(\.timeMs) == [1200, 1200, 1250, 1300])
        #expect(recorded.map(\.localNs) == [9_000, 9_000, 9_000, 10_000])
    }

    @Test("a gap and a lost connection record an empty snapshot at the time of the call that found them; no time given, none kept")
    func gapAndLoss() {
        var sync = DepthSync()
        sync.receive(D.diff(11, 12, ms: 1200), localNs: 2_000)
        sync.receive(D.snap, localNs: 3_000)
        sync.receive(D.diff(20, 21, ms: 1400), localNs: 4_000)  // a gap
        var recorded = sync.takeRecorded()
        #expect(recorded.last?.kind == .snapshot && recorded.last?.bids.isEmpty == true && recorded.last?.localNs == 4_000)
        sync = DepthSync()
        sync.receive(D.diff(11, 12, ms: 1200), localNs: 2_000)
        sync.receive(D.snap, localNs: 3_000)
        sync.disconnected(localNs: 8_000)
        recorded = sync.takeRecorded()
        #expect(recorded.map(\.localNs) == [3_000, 3_000, 8_000] && recorded.last?.timeMs == 1201)
        var untimed = DepthSync()
        untimed.receive(D.diff(11, 12, ms: 1200))
        untimed.receive(D.snap)
        #expect(untimed.takeRecorded().allSatisfy { $0.localNs == nil })
    }
}
