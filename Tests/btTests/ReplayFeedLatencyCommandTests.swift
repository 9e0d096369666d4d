import Foundation
import Testing
import TestSupport
import Backtest

/// `bt replay --latency feed:M,C` end to end, on a recording with receive times (the synthetic
/// market written as `bt live` writes it): the replay equals the one with a latency file whose
/// rows are made the same way (restated here); imported data and bad text exit 2 with the reason.
@Suite("bt replay --latency feed:M,C")
struct ReplayFeedLatencyCommandTests {
    /// The synthetic market recorded with receive times: each event received 1 to 12 ms after it
    /// was made, now and then 40 to 120 ms (plus its index in ns, so no two share a time).
    static func recording() throws -> (db: String, local: [(exchangeMs: Int64, localNs: Int64)]) {
        let imported = try CandleStore(existingAt: try ReplayCommandTests.store())
        var rng = SplitMix64(seed: 56)
        var local: [(exchangeMs: Int64, localNs: Int64)] = []
        func received(_ ms: Int64) -> Int64 {
            let delay = rng.unit() < 0.04 ? Int64(rng.int(40_000...120_000)) * 1000 : Int64(rng.int(1_000...12_000)) * 1000
            let ns = ms * 1_000_000 + delay + Int64(local.count)
            local.append((ms, ns))
            return ns
        }
        let events = try imported.bookEvents(symbol: "SYN").map { e -> BookEvent in var e = e; e.localNs = received(e.timeMs); return e }
        let prints = try imported.trades(symbol: "SYN").map { p -> TradePrint in var p = p; p.localNs = received(p.timeMs); return p }
        let db = BT.scratchStore()
        try CandleStore(path: db).recordLiveBar(symbol: "SYN", bars: CandleSeries(symbol: "SYN", timeframe: .minute1), prints: prints,
                                                events: events, journal: nil)
        return (db, local)
    }

    static func args(_ db: String) -> [String] {
        ["replay", "SYN", "--db", db, "--quote-bid", "best_bid", "--quote-ask", "best_ask", "--quote-size", "1", "--max-position", "3",
         "--every", "50ms"]
    }

    @Test("feed:1.5,2ms equals --latency-file with rows made the same way: the last event of each second of local time, M x feed + C")
    func equalsLatencyFile() throws {
        let (db, local) = try Self.recording()
        // The rows, restated: per second of local time the event received last; req = its local
        // time, exch = req + trunc(1.5 x feed + 2 ms), resp = exch + the same.
        var last: [Int64: (exchangeMs: Int64, localNs: Int64)] = [:]
        for e in local where (last[e.localNs / 1_000_000_000]?.localNs ?? .min) < e.localNs { last[e.localNs / 1_000_000_000] = e }
        var csv = "req_ts,exch_ts,resp_ts\n"
        for second in last.keys.sorted() {
            let e = last[second]!
            let latency = Int64((1.5 * Double(e.localNs - e.exchangeMs * 1_000_000) + 2e6).rounded(.towardZero))
            csv += "\(e.localNs),\(e.localNs + latency),\(e.localNs + 2 * latency)\n"
        }
        #expect(last.count > 100)
        let file = BT.scratchDirectory().appendingPathComponent("feed_rows.csv").path
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        let feedOut = BT.scratchDirectory().appendingPathComponent("feed").path
        let fileOut = BT.scratchDirectory().appendingPathComponent("file").path
        let feed = try BT.run(Self.args(db) + ["--latency", "feed:1.5,2ms", "--out", feedOut, "--json"])
        let byFile = try BT.run(Self.args(db) + ["--latency-file", file, "--out", fileOut, "--json"])
        #expect(feed.status == 0 && byFile.status == 0, "\(feed.stderr)\(byFile.stderr)")
        let a = try RunCommandTests.json(feed.stdout), b = try RunCommandTests.json(byFile.stdout)
        #expect(a["latency_model"] as? String == "feed" && b["latency_model"] as? String == "file")
        #expect((a["fills"] as? Int ?? 0) > 20 && a["fills"] as? Int == b["fills"] as? Int && a["pnl"] as? Double == b["pnl"] as? Double)
        let fills = try String(contentsOfFile: feedOut + "/fills.csv", encoding: .utf8)
        #expect(fills == (try String(contentsOfFile: fileOut + "/fills.csv", encoding: .utf8)))
        let report = try String(contentsOfFile: feedOut + "/report.md", encoding: .utf8)
        #expect(report.contains("1.5 x feed + 2 ms, \(last.count) rows"))
        // The strategy sees the recording at its receive times: a constant latency replays it
        // otherwise than the same events imported.
        let constant = try BT.run(Self.args(db) + ["--latency", "2ms", "--json"])
        let importedRun = try BT.run(Self.args(try ReplayCommandTests.store()) + ["--latency", "2ms", "--json"])
        #expect(constant.status == 0 && importedRun.status == 0)
        #expect(try RunCommandTests.json(constant.stdout)["pnl"] as? Double != RunCommandTests.json(importedRun.stdout)["pnl"] as? Double)
    }

    @Test("bad input exits 2 with the reason: feed: on imported data, negative M or C, malformed text", arguments: [
        ("imported", "feed:1,2ms", "bt live"),
        ("recorded", "feed:-1,2ms", "at least 0"),
        ("recorded", "feed:1,-2ms", "negative"),
        ("recorded", "feed:1", "feed:M,C"),
        ("recorded", "feed:one,2ms", "multiplier"),
    ])
    func badInput(store: String, latency: String, reason: String) throws {
        let db = store == "imported" ? try ReplayCommandTests.store() : try Self.recording().db
        let r = try BT.run(Self.args(db) + ["--latency", latency])
        #expect(r.status == 2 && r.stderr.contains("--latency") && r.stderr.contains(reason), "\(r.stderr)")
    }
}
