import Testing
@testable import BacktestCore
@testable import BacktestLive

/// The parts of a live session that decide on time and repetition: the exchange clock that
/// judges frame times, the depth snapshots' schedule, and coalesced warnings.
@Suite("Live session parts: exchange clock, snapshot schedule, warnings")
struct LiveSessionPartsTests {
    static let server: Int64 = 1_710_504_000_000

    @Test("a frame far ahead of the exchange's clock is refused after asking the server once; one within a minute is admitted")
    func farFutureFrames() {
        var clock = ExchangeClock(serverMs: Self.server, at: 100)
        var asked = 0
        let ask = { () -> Int64? in asked += 1; return Self.server + 2_000 }
        let near = clock.admit(Self.server + 59_000, at: 100.5) { Issue.record("asked"); return nil }
        #expect(near)
        let century = Self.server + 100 * 31_557_600_000
        let first = clock.admit(century, at: 101, ask: ask)
        #expect(!first && asked == 1)
        // Asked again only after the wait, which doubled: a stream of such frames costs few requests.
        let soon = clock.admit(century, at: 101.1, ask: ask)
        #expect(!soon && asked == 1)
        let later = clock.admit(century, at: 101.3, ask: ask)
        #expect(!later && asked == 2)
        var t = 101.3
        for _ in 0..<1_000 { t += 0.01; _ = clock.admit(century, at: t, ask: ask) }
        #expect(asked <= 6, "\(asked) requests in 10 s")
        // Frames behind the clock are the bar builder's business: admitted here.
        let behind = clock.admit(Self.server - 3_600_000, at: t) { nil }
        #expect(behind)
    }

    @Test("an exchange faster than the wall clock is followed through the stream and by asking the server")
    func fastExchange() {
        // 120 exchange seconds per wall second, frames every 100 exchange ms.
        let speed = 120.0
        var clock = ExchangeClock(serverMs: Self.server, at: 0)
        var refused = 0, asked = 0
        var wall = 0.5  // the first frame comes 60 s of exchange time after the clock was read
        while wall < 20 {
            let exchangeMs = Self.server + Int64(wall * speed * 1000)
            let ok = clock.admit(exchangeMs, at: wall) { asked += 1; return Self.server + Int64(wall * speed * 1000) }
            if !ok { refused += 1 }
            // A pause of 3 s (a stale stream, a reconnection) now and then.
            wall += wall.truncatingRemainder(dividingBy: 5) < 0.01 ? 3 : 0.1 / speed * 10
        }
        #expect(refused == 0)
        #expect(asked < 20, "\(asked)")
    }

    @Test("a server that does not answer: frames ahead stay refused, and it is not asked in a loop")
    func silentServer() {
        var clock = ExchangeClock(serverMs: Self.server, at: 0)
        var asked = 0
        for k in 0..<200 { _ = clock.admit(Self.server + 600_000, at: 5 + Double(k) * 0.05) { asked += 1; return nil } }
        #expect(asked <= 6, "\(asked)")
    }

    @Test("refused snapshots: at least a second apart, doubling to the cap, at once again after a sync; Retry-After pushes further")
    func snapshotSchedule() {
        var s = SnapshotSchedule(cap: 8)
        #expect(s.isDue(at: 0))
        let waits = (0..<6).map { _ in s.refused(at: 10, jitter: 1) }
        #expect(waits == [1, 1, 2, 4, 8, 8])
        #expect(!s.isDue(at: 17.9) && s.isDue(at: 18))
        s.synced()
        #expect(s.isDue(at: 0) && s.refusals == 0)
        // A tiny cap (--max-backoff 0.1) keeps the floor of a second.
        var tiny = SnapshotSchedule(cap: 0.1)
        let floors = (0..<3).map { _ in tiny.refused(at: 0, jitter: 0.5) }
        #expect(floors == [1, 1, 1])
        tiny.postpone(until: 60)
        #expect(!tiny.isDue(at: 59) && tiny.isDue(at: 60))
        tiny.postpone(until: 30)
        #expect(!tiny.isDue(at: 59), "an earlier time does not shorten a wait")
    }

    @Test("warnings of one kind are one line with a count; repeats are shown at 10, 100, 1000")
    func coalescedWarnings() {
        var w = LiveWarnings()
        var shown: [String] = []
        for k in 1...1_500 {
            if let line = w.add("a depth snapshot was refused (#\(k))", key: "snapshot") { shown.append(line) }
        }
        #expect(w.add("another") == "another")
        #expect(shown == ["a depth snapshot was refused (#1)", "a depth snapshot was refused (#1) (10 times so far)",
                          "a depth snapshot was refused (#1) (100 times so far)", "a depth snapshot was refused (#1) (1000 times so far)"])
        #expect(w.lines == ["a depth snapshot was refused (#1) (1500 times in all)", "another"])
        #expect(w.count("snapshot") == 1_500)
    }
}
