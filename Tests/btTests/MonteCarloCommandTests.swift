import Backtest
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

    /// The page data of a report.html.
    static func pageData(_ path: String) throws -> [String: Any] {
        let html = try String(contentsOfFile: path, encoding: .utf8)
        let open = try #require(html.range(of: "<script type=\"application/json\" id=\"bt-data\">"))
        let close = try #require(html.range(of: "</script>", range: open.upperBound..<html.endIndex))
        return try json(String(html[open.upperBound..<close.lowerBound]))
    }

    @Test("report.html's equity chart carries the bar resamples' bands: from the first bar's time to the last's, ending at --json's final-equity percentiles, the same for a seed; none without --monte-carlo; bt portfolio too", arguments: [false, true])
    func bandsInReport(portfolio: Bool) throws {
        let db = try BT.googStore()
        let command = portfolio ? ["portfolio", "ma-cross", "--symbols", "GOOG"] : ["run", "ma-cross", "GOOG"]
        let base = command + ["--db", db, "--depth", "none", "--no-chart", "--no-costs"]
        let dir = BT.scratchDirectory()
        var bands: [NSDictionary] = []
        for k in 0..<2 {
            let out = dir.appendingPathComponent("mc\(k)").path
            let r = try BT.run(base + ["--monte-carlo", "300", "--seed", "4", "--out", out])
            #expect(r.status == 0, "\(r.stderr)")
            let chart = try #require(try Self.pageData(out + "/report.html")["chart"] as? [String: Any])
            let equity = try #require(chart["equity"] as? [String: Any])
            bands.append(try #require(equity["monte_carlo"] as? NSDictionary))
        }
        #expect(bands[0] == bands[1])
        let mc = try #require(bands[0] as? [String: Any])
        let time = try #require(mc["time"] as? [Int])
        let p5 = try #require(mc["p5"] as? [Double]), p50 = try #require(mc["p50"] as? [Double]), p95 = try #require(mc["p95"] as? [Double])
        #expect(time.count == 500 && p5.count == 500 && p50.count == 500 && p95.count == 500)
        #expect(zip(time, time.dropFirst()).allSatisfy { $0 < $1 })
        #expect(mc["label"] as? String == "Monte Carlo 5-95% (bootstrap of bar returns)")
        #expect((mc["note"] as? String)?.contains("of 300 stationary-bootstrap resamples of the bar returns (mean block 13 bars, seed 4)") == true)
        let j = try Self.json(try BT.run(base + ["--monte-carlo", "300", "--seed", "4", "--json"]).stdout)
        let final = try #require(((j["monte_carlo"] as? [String: Any])?["bars"] as? [String: Any])?["final_equity"] as? [String: Double])
        #expect([p5.last, p50.last, p95.last] == [final["p5"], final["p50"], final["p95"]])
        let export = try BT.run(["data", "export", "GOOG", "--db", db])
        let rows = export.stdout.split(separator: "\n").dropFirst()
        let first = try #require(rows.first?.split(separator: ",").first), last = try #require(rows.last?.split(separator: ",").first)
        #expect(UTCTime.iso(Int64(time[0])) == String(first) && UTCTime.iso(Int64(time.last!)) == String(last))
        let plain = dir.appendingPathComponent("plain").path
        #expect(try BT.run(base + ["--out", plain]).status == 0)
        let plainEquity = try #require((try Self.pageData(plain + "/report.html")["chart"] as? [String: Any])?["equity"] as? [String: Any])
        #expect(plainEquity["monte_carlo"] == nil)
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
