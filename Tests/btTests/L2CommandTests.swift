import Foundation
import Testing

/// `bt` end to end on the real L2 sample: import the converted book and trades, calibrate on the
/// first half, run on the stored profile and on the recorded book. Skipped unless `BT_L2_DATA`
/// points at the converted folder (`make test-l2` sets it); see Tests/Fixtures/l2/.
@Suite("Real L2 sample through bt (make test-l2)",
       .enabled(if: ProcessInfo.processInfo.environment["BT_L2_DATA"].map { !$0.isEmpty } ?? false, "set BT_L2_DATA (make test-l2)"))
struct L2CommandTests {
    static var directory: String { ProcessInfo.processInfo.environment["BT_L2_DATA"]! }

    @Test("import, calibrate --json on the first half: the held-out targets; then runs on the profile and the book")
    func calibrateAndRun() throws {
        let db = BT.scratchStore()
        let book = try BT.run(["data", "import", Self.directory + "/book.jsonl", "--format", "book", "--symbol", "BTCUSD", "--db", db])
        #expect(book.status == 0 && book.stdout.contains("79534 events added") && !book.stderr.contains("warning"), "\(book.stderr)")
        let trades = try BT.run(["data", "import", Self.directory + "/trades.jsonl", "--format", "trades", "--timeframe", "1m",
                                 "--symbol", "BTCUSD", "--db", db])
        #expect(trades.status == 0 && trades.stdout.contains("30 bars added, 0 updated, 0 unchanged; 284 trade prints kept"), "\(trades.stdout)")
        let list = try BT.run(["data", "list", "--db", db])
        #expect(list.stdout.contains("2026-05-02T02:36:20.521Z  2026-05-02T03:06:20.408Z"), "\(list.stdout)")

        let c = try BT.run(["calibrate", "BTCUSD", "--json", "--db", db])
        #expect(c.status == 0, "\(c.stderr)")
        let j = try RunCommandTests.json(c.stdout)
        #expect(j["tick"] as? Double == 1)
        #expect(abs((j["spread_bps"] as? Double ?? 0) - 0.12758) < 1e-4)
        let half = try #require(j["refill_half_life_seconds"] as? Double)
        #expect(half > 0.05 && half < 0.2)
        let holdout = try #require(j["holdout"] as? [String: Any])
        #expect(holdout["sizes"] as? [Double] == [0.01, 0.03, 0.1, 0.3, 1, 3, 10])
        let median = try #require(holdout["median_abs_error_bps"] as? [Double])
        let p90 = try #require(holdout["p90_abs_error_bps"] as? [Double])
        #expect(median.count == 7 && median.allSatisfy { $0 <= 1 }, "\(median)")
        #expect(p90.count == 7 && p90.allSatisfy { $0 <= 3 }, "\(p90)")

        let text = try BT.run(["calibrate", "BTCUSD", "--db", db])
        #expect(text.stdout.contains("bid Q(x) = 3.4057 x^0.7559, ask Q(x) = 1.6717 x^1.0074"), "\(text.stdout)")

        for depth in ["synthetic", "book"] {
            let run = try BT.run(["run", "ma-cross", "BTCUSD", "--param", "fast=3", "--param", "slow=8", "--size", "0.5u",
                                  "--max-participation", "0", "--cash", "100000", "--depth", depth, "--json", "--no-costs", "--db", db])
            #expect(run.status == 0, "\(run.stderr)")
            let r = try RunCommandTests.json(run.stdout)
            let execution = try #require(r["execution"] as? [String: Any])
            #expect(execution["cost_model"] as? String == (depth == "book" ? "recorded" : "profile"))
            let stats = try #require(r["stats"] as? [String: Any])
            let slippage = try #require(stats["avg_slippage_bps"] as? Double)
            #expect(slippage > 0 && slippage < 1, "\(depth): \(slippage) bps for half a bitcoin")
        }
    }

    @Test("the stream with stale snapshot asks is imported with a warning that counts the crossed updates",
          .enabled(if: ProcessInfo.processInfo.environment["BT_L2_STALE_DATA"].map { !$0.isEmpty } ?? false))
    func staleWarning() throws {
        let db = BT.scratchStore()
        let dir = ProcessInfo.processInfo.environment["BT_L2_STALE_DATA"]!
        let r = try BT.run(["data", "import", dir + "/book.jsonl", "--format", "book", "--symbol", "BTCUSD", "--db", db])
        #expect(r.status == 0)
        #expect(r.stderr.contains("74369 of 79533 book updates leave the book crossed or locked"), "\(r.stderr)")
        #expect(r.stderr.contains("replay drops 6 stale levels"))
    }
}
