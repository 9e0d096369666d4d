import Foundation
import Testing
import TestSupport

@Suite("bt run --monte-carlo end to end")
struct MonteCarloCommandTests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// `Tests/Fixtures/montecarlo/goldens.json` (`make_goldens.py` beside it: numpy, 200,000 resamples).
    static func goldens() throws -> [String: Any] {
        try json(try String(contentsOfFile: Repository.path("Tests/Fixtures/montecarlo/goldens.json"), encoding: .utf8))
    }

    @Test("ma-cross on GOOG: every percentile and ruin probability within 4 standard errors of numpy's 200,000 resamples")
    func againstNumpy() throws {
        let golden = try Self.goldens()
        let testResamples = try #require(golden["test_resamples"] as? Int), resamples = try #require(golden["resamples"] as? Int)
        let r = try BT.run(["run", "ma-cross", "GOOG", "--db", try BT.googStore(), "--depth", "none", "--json",
                            "--monte-carlo", String(testResamples)])
        #expect(r.status == 0, "\(r.stderr)")
        let run = try Self.json(r.stdout)
        let stats = try #require(run["stats"] as? [String: Any])
        // The golden was made from this very run.
        #expect(stats["trades"] as? Int == golden["trades_count"] as? Int)
        #expect(abs((stats["final_equity"] as! Double) - (golden["final_equity"] as! Double)) < 1e-6)
        let mc = try #require(run["monte_carlo"] as? [String: Any])
        #expect(mc["resamples"] as? Int == testResamples && mc["seed"] as? Int == 1 && mc["ruin"] as? Double == 0.5)
        #expect(mc["block_length"] as? Double == golden["block_length"] as? Double)
        // bt's estimate from `testResamples` resamples has the golden's standard error `se` (measured by the
        // generator over batches of that size); the golden's own is se * sqrt(testResamples / resamples).
        let inflation = (1 + Double(testResamples) / Double(resamples)).squareRoot()
        var compared = 0
        for (ours, theirs) in [("trades", "trades"), ("bars", "bars_bootstrap")] {
            let a = try #require(mc[ours] as? [String: Any]), b = try #require(golden[theirs] as? [String: Any])
            for figure in ["final_equity", "max_drawdown", "cagr"] {
                let qa = try #require(a[figure] as? [String: Double]), qb = try #require(b[figure] as? [String: [String: Double]])
                for q in ["p5", "p50", "p95"] {
                    let value = try #require(qa[q]), reference = try #require(qb[q]?["value"]), se = try #require(qb[q]?["se"])
                    #expect(abs(value - reference) <= 4 * se * inflation, "\(ours) \(figure) \(q): \(value) vs numpy \(reference) (se \(se))")
                    compared += 1
                }
            }
            let ruin = try #require(a["ruin_probability"] as? Double), reference = try #require(b["ruin_probability"] as? [String: Double])
            #expect(abs(ruin - reference["value"]!) <= 4 * reference["se"]! * inflation + 1 / Double(testResamples), "\(ours) ruin \(ruin)")
            compared += 1
        }
        #expect(compared == 20)
    }

    @Test("the same numbers for a seed on every run, others for another seed; a section in the text and report.md; bt portfolio too")
    func seededAndShown() throws {
        let db = try BT.googStore()
        let base = ["run", "ma-cross", "GOOG", "--db", db, "--depth", "none", "--monte-carlo", "500"]
        let first = try BT.run(base + ["--seed", "9", "--json"]), again = try BT.run(base + ["--seed", "9", "--json"])
        let other = try BT.run(base + ["--seed", "10", "--json", "--ruin", "20%"])
        let a = try #require(try Self.json(first.stdout)["monte_carlo"] as? NSDictionary)
        let b = try #require(try Self.json(again.stdout)["monte_carlo"] as? NSDictionary)
        let c = try #require(try Self.json(other.stdout)["monte_carlo"] as? NSDictionary)
        #expect(a == b && a != c)
        #expect(c["ruin"] as? Double == 0.2)
        #expect(try Self.json(try BT.run(["run", "ma-cross", "GOOG", "--db", db, "--json"]).stdout)["monte_carlo"] == nil)
        let out = BT.scratchDirectory().appendingPathComponent("r").path
        let text = try BT.run(base + ["--no-chart", "--out", out])
        #expect(text.status == 0 && text.stdout.contains("trades: P(drawdown >= 50.00%)") && text.stdout.contains("500 resamples (seed 1)"))
        let md = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        #expect(md.contains("## Monte Carlo") && md.contains("| bars: max drawdown |"))
        let p = try BT.run(["portfolio", "ma-cross", "--symbols", "GOOG", "--db", db, "--json", "--monte-carlo", "200"])
        #expect(p.status == 0, "\(p.stderr)")
        #expect(try Self.json(p.stdout)["monte_carlo"] as? [String: Any] != nil)
    }

    @Test("bad settings exit 2 with the reason", arguments: [
        (["--monte-carlo", "0"], "--monte-carlo '0': must be 1 to"),
        (["--monte-carlo", "x"], "--monte-carlo 'x': not a whole number"),
        (["--monte-carlo", "10", "--ruin", "0"], "--ruin '0': give a drawdown above 0% and at most 100%"),
        (["--monte-carlo", "10", "--ruin", "150%"], "--ruin '150%'"),
        (["--monte-carlo", "10", "--seed", "4294967296"], "--seed '4294967296'"),
        (["--ruin", "20"], "--ruin '20': is for --monte-carlo"),
        (["--seed", "3"], "--seed '3': is for --monte-carlo"),
    ])
    func refused(extra: [String], message: String) throws {
        let r = try BT.run(["run", "ma-cross", "GOOG", "--db", try BT.googStore(), "--no-chart"] + extra)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
