import Foundation
import Testing

@Suite("bt bench stats")
struct BenchStatsCommandTests {
    @Test("prints milliseconds per call")
    func text() throws {
        let r = try BT.run(["bench", "stats", "--returns", "500", "--runs", "2"])
        #expect(r.status == 0 && r.stdout.contains("500 returns, 1000 resamples: median") && r.stdout.contains("with the blocks drawn once")
                && r.stdout.contains("read from a tape"), "\(r.stdout)\(r.stderr)")
    }

    @Test("--json prints one object with the timings")
    func json() throws {
        let r = try BT.run(["bench", "stats", "--returns=500", "--runs", "2", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(object["returns"] as? Int == 500 && object["runs"] as? Int == 2)
        let median = try #require(object["median_ms"] as? Double), best = try #require(object["best_ms"] as? Double)
        #expect(best > 0 && best <= median && median.isFinite)
        let shared = try #require(object["shared_median_ms"] as? Double), sharedBest = try #require(object["shared_best_ms"] as? Double)
        #expect(sharedBest > 0 && sharedBest <= shared && (object["draw_blocks_ms"] as? Double ?? 0) > 0)
        let tape = try #require(object["tape_median_ms"] as? Double), tapeBest = try #require(object["tape_best_ms"] as? Double)
        #expect(tapeBest > 0 && tapeBest <= tape)
    }

    @Test("too few returns is a usage error")
    func usage() throws {
        let r = try BT.run(["bench", "stats", "--returns", "2"])
        #expect(r.status == 2 && r.stderr.contains("--returns must be from 3 to"), "\(r.stderr)")
    }
}
