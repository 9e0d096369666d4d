import Foundation
import Testing

/// `bt bench replay`: the synthetic day's events all go through the replay, the same steps and
/// fills on every run (the market is seeded), and a stored symbol is streamed from the store.
@Suite("bt bench replay")
struct BenchReplayCommandTests {
    static func json(_ args: [String]) throws -> [String: Any] {
        let r = try BT.run(["bench", "replay", "--json"] + args)
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    @Test("--json: every synthetic event replayed, steps every 100ms of its day, the same fills twice, the peak memory")
    func synthetic() throws {
        let a = try Self.json(["--updates", "200000"]), b = try Self.json(["--updates", "200000"])
        let run = try #require((a["runs"] as? [[String: Any]])?.first), again = try #require((b["runs"] as? [[String: Any]])?.first)
        #expect(run["events"] as? Int == 200_000 && run["steps"] as? Int == 863_996)
        #expect((run["fills"] as? Int ?? 0) > 100 && run["fills"] as? Int == again["fills"] as? Int)
        #expect((run["events_per_second"] as? Double ?? 0) > 0 && (a["peak_rss_bytes"] as? Int ?? 0) > 1_000_000)
    }

    @Test("--symbol replays the stored events as bt replay reads them; an unknown symbol exits 2")
    func stored() throws {
        let db = try ReplayCommandTests.store()
        let j = try Self.json(["--updates", "1000", "--symbol", "syn", "--db", db])
        let runs = try #require(j["runs"] as? [[String: Any]])
        let replay = try BT.run(["replay", "SYN", "--db", db, "--quote-bid", "best_bid", "--quote-size", "1", "--max-position", "2", "--json"])
        let events = try RunCommandTests.json(replay.stdout)["events"] as? Int
        #expect(runs.count == 2 && runs[1]["name"] as? String == "SYN (store)" && events != nil && runs[1]["events"] as? Int == events)
        let r = try BT.run(["bench", "replay", "--updates", "10", "--symbol", "NOPE", "--db", db])
        #expect(r.status == 2, "\(r.stderr)")
    }

    @Test("text: events a second for each run, then the peak memory")
    func text() throws {
        let r = try BT.run(["bench", "replay", "--updates", "5000"])
        #expect(r.status == 0 && r.stdout.contains("synthetic day: 5000 events in") && r.stdout.contains("million events/s")
                && r.stdout.contains("peak resident memory:"), "\(r.stdout)\(r.stderr)")
    }
}
