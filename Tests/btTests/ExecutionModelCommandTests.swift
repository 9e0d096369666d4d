import Foundation
import Testing

/// `bt calibrate`, the cost models on the command line, the cost split and the warnings.
@Suite("bt calibrate and the execution model on the command line")
struct ExecutionModelCommandTests {
    /// A store with one synthetic symbol and its recorded-style book.
    static func synthStore() throws -> String {
        let db = BT.scratchStore()
        let r = try BT.run(["data", "synth", "--symbols", "1", "--bars", "300", "--book", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    @Test("calibrate: the profile's documented JSON fields, stored with the symbol and used by --depth synthetic")
    func calibrate() throws {
        let db = try Self.synthStore()
        let c = try BT.run(["calibrate", "syn0001", "--json", "--db", db])
        #expect(c.status == 0, "\(c.stderr)")
        let j = try RunCommandTests.json(c.stdout)
        #expect(Set(j.keys) == ["symbol", "tick", "spread_bps", "spread_p90_bps", "bid", "ask", "volume_rank_correlation",
                                "refill_half_life_seconds", "holdout"])
        #expect(j["symbol"] as? String == "SYN0001" && j["refill_half_life_seconds"] is NSNull)
        let holdout = try #require(j["holdout"] as? [String: Any])
        #expect(Set(holdout.keys) == ["sizes", "median_abs_error_bps", "p90_abs_error_bps"])
        #expect(c.stderr.contains("profile stored for SYN0001"))

        let run = try BT.run(["run", "ma-cross", "SYN0001", "--json", "--no-costs", "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        let execution = try #require(try RunCommandTests.json(run.stdout)["execution"] as? [String: Any])
        #expect(execution["cost_model"] as? String == "profile")
        #expect(execution["profile"] as? String == "stored profile of SYN0001")
        #expect(execution["bid_depth"] as? String != nil && execution["model_tick_source"] as? String == "profile")
        let text = try BT.run(["run", "ma-cross", "SYN0001", "--no-chart", "--no-costs", "--db", db])
        #expect(text.stdout.contains("cost_model profile, profile stored profile of SYN0001"), "\(text.stdout)")
        // The human report of calibrate.
        let human = try BT.run(["calibrate", "SYN0001", "--holdout", "30%", "--sizes", "10,100", "--db", db])
        #expect(human.status == 0, "\(human.stderr)")
        for needle in ["tick 0.", "spread median", "bid Q(x) =", "refill half-life: n/a", "median |error|"] {
            #expect(human.stdout.contains(needle), "missing \(needle) in\n\(human.stdout)")
        }
    }

    @Test("calibrate --out writes the profile; --depth-profile FILE uses it; an existing file needs --force")
    func profileFile() throws {
        let db = try Self.synthStore()
        let path = BT.scratchDirectory().appendingPathComponent("p.json").path
        let c = try BT.run(["calibrate", "SYN0001", "--out", path, "--db", db])
        #expect(c.status == 0, "\(c.stderr)")
        let file = try RunCommandTests.json(String(contentsOfFile: path, encoding: .utf8))
        #expect(file["symbol"] as? String == "SYN0001")
        let again = try BT.run(["calibrate", "SYN0001", "--out", path, "--db", db])
        #expect(again.status == 2 && again.stderr.contains("--force"))
        #expect(try BT.run(["calibrate", "SYN0001", "--out", path, "--force", "--db", db]).status == 0)

        let other = try RunCommandTests.store()
        let run = try BT.run(["run", "ma-cross", "GOOG", "--depth-profile", path, "--json", "--no-costs", "--db", other])
        #expect(run.status == 0, "\(run.stderr)")
        let execution = try #require(try RunCommandTests.json(run.stdout)["execution"] as? [String: Any])
        #expect(execution["profile"] as? String == path && execution["cost_model"] as? String == "profile")
        // The command line overrides a profile's knobs.
        let knobs = try BT.run(["run", "ma-cross", "GOOG", "--depth-profile", path, "--bid-depth", "3,0.8", "--ask-depth", "2,1",
                                "--refill-seconds", "5", "--spread-bps", "1.5", "--json", "--no-costs", "--db", other])
        let e = try #require(try RunCommandTests.json(knobs.stdout)["execution"] as? [String: Any])
        #expect(e["bid_depth"] as? String == "3,0.8" && e["ask_depth"] as? String == "2,1")
        #expect(e["refill_seconds"] as? Double == 5 && e["spread_bps"] as? Double == 1.5)
        let bad = try BT.run(["run", "ma-cross", "GOOG", "--depth-profile", "/nonexistent.json", "--db", other])
        #expect(bad.status == 2 && bad.stderr.contains("/nonexistent.json"))
    }

    @Test("calibrate refuses bad input with the option's name", arguments: [
        (["--holdout", "1.5"], "--holdout '1.5'"),
        (["--sizes", "1,-2"], "--sizes '1,-2'"),
    ])
    func calibrateErrors(extra: [String], message: String) throws {
        let db = try Self.synthStore()
        let r = try BT.run(["calibrate", "SYN0001", "--db", db] + extra)
        #expect(r.status == 2 && r.stderr.contains(message), "\(r.stderr)")
    }

    @Test("calibrate a symbol without a book: exit 2 with advice")
    func calibrateNoBook() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["calibrate", "GOOG", "--db", db])
        #expect(r.status == 2 && r.stderr.contains("no recorded book stored for symbol 'GOOG'") && r.stderr.contains("--format book"))
    }

    @Test("candle-only knobs and fixed slippage on the command line")
    func knobs() throws {
        let db = try RunCommandTests.store()
        let r = try BT.run(["run", "ma-cross", "GOOG", "--impact", "0.5", "--touch-seconds", "30", "--spread-window", "60",
                            "--impact-window", "10", "--json", "--no-costs", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let e = try #require(try RunCommandTests.json(r.stdout)["execution"] as? [String: Any])
        #expect(e["impact"] as? Double == 0.5 && e["touch_seconds"] as? Double == 30)
        #expect(e["spread_window"] as? Int == 60 && e["impact_window"] as? Int == 10)
        #expect(e["cost_model"] as? String == "square-root" && e["model_tick"] as? Double == 0.01)
        #expect(e["model_tick_source"] as? String == "inferred")

        let fixed = try BT.run(["run", "ma-cross", "GOOG", "--slippage-bps", "5", "--json", "--no-costs", "--db", db])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        let j = try RunCommandTests.json(fixed.stdout)
        let fe = try #require(j["execution"] as? [String: Any])
        #expect(fe["depth"] as? String == "fixed" && fe["slippage_bps"] as? Double == 5 && fe["cost_model"] as? String == "fixed")
        let stats = try #require(j["stats"] as? [String: Any])
        #expect(abs((stats["avg_slippage_bps"] as? Double ?? 0) - 5) < 1e-9)

        for (args, message) in [
            (["--slippage-bps", "5", "--depth", "book"], "--slippage-bps is fixed slippage"),
            (["--depth", "fixed"], "--slippage-bps"),
            (["--slippage-bps", "-1"], "--slippage-bps '-1'"),
            (["--bid-depth", "x"], "--bid-depth 'x'"),
            (["--bid-depth", "3,0.8"], "--ask-depth"),
            (["--impact", "-1"], "--impact '-1'"),
            (["--spread-window", "1"], "--spread-window '1'"),
        ] {
            let bad = try BT.run(["run", "ma-cross", "GOOG", "--db", db] + args)
            #expect(bad.status == 2 && bad.stderr.contains(message), "\(args): \(bad.stderr)")
        }
        // Model knobs mean nothing without the model: said, not silently ignored.
        let none = try BT.run(["run", "ma-cross", "GOOG", "--depth", "none", "--impact", "0.5", "--no-costs", "--no-chart", "--db", db])
        #expect(none.status == 0 && none.stderr.contains("--impact has no effect"))
    }

    @Test("gross and net: the cost split adds up in --json, and shows in the text and the report")
    func costSplit() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory().appendingPathComponent("r").path
        let r = try BT.run(["run", "ma-cross", "GOOG", "--json", "--out", dir, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try RunCommandTests.json(r.stdout)
        let split = try #require(j["cost_split"] as? [String: Any])
        let value = { (k: String) in split[k] as? Double ?? .nan }
        #expect(abs(value("gross_pnl") - value("net_pnl") - (value("fees") + value("spread") + value("impact"))) < 1e-6)
        let stats = try #require(j["stats"] as? [String: Any])
        #expect(abs(value("net_return") - (stats["total_return"] as? Double ?? .nan)) < 1e-12)
        #expect(abs(value("gross_return") - (stats["gross_return"] as? Double ?? .nan)) < 1e-12)
        #expect(abs(value("fees_share") - value("fees") / value("gross_pnl")) < 1e-12)
        #expect((j["warnings"] as? [Any]) != nil)
        let md = try String(contentsOfFile: dir + "/report.md", encoding: .utf8)
        #expect(md.contains("## Gross and net") && md.contains("| - spread |"))
        let text = try BT.run(["run", "ma-cross", "GOOG", "--no-chart", "--no-costs", "--db", db])
        #expect(text.stdout.contains("gross (reference prices, no fees)") && text.stdout.contains("of gross pnl"))
    }

    @Test("no volume: the run fills, and the warning stands first in the text, in --json and in report.md")
    func noVolumeWarning() throws {
        let db = BT.scratchStore()
        var csv = "date,open,high,low,close\n"
        for i in 0..<120 {
            let p = 100 + 10 * sin(Double(i) / 7)
            csv += "2020-\(String(format: "%02d", 1 + i / 28))-\(String(format: "%02d", 1 + i % 28)),\(p),\(p + 1),\(p - 1),\(p + 0.5)\n"
        }
        let file = BT.scratchDirectory().appendingPathComponent("idx.csv").path
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try BT.run(["data", "import", file, "--timeframe", "1d", "--db", db]).status == 0)
        let dir = BT.scratchDirectory().appendingPathComponent("r").path
        let text = try BT.run(["run", "ma-cross", "IDX", "--no-chart", "--no-costs", "--out", dir, "--db", db])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("warning: the candles have no volume: the participation cap and market impact are off"),
                "\(text.stdout.prefix(300))")
        let md = try String(contentsOfFile: dir + "/report.md", encoding: .utf8)
        #expect(md.contains("## Warnings\n\n- the candles have no volume"))
        let j = try RunCommandTests.json(try BT.run(["run", "ma-cross", "IDX", "--json", "--no-costs", "--db", db]).stdout)
        let warnings = try #require(j["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["kind"] as? String } == ["no_volume"])
        let stats = try #require(j["stats"] as? [String: Any])
        #expect(stats["rejected_orders"] as? Int == 0 && (stats["trades"] as? Int ?? 0) > 0)
    }

    @Test("a crossed recorded book is imported with a warning that counts the updates")
    func crossedImport() throws {
        let db = BT.scratchStore()
        let text = """
            {"time": "2024-03-01T00:00:00.000Z", "type": "snapshot", "bids": [[99, 1]], "asks": [[100, 1], [101, 1]]}
            {"time": "2024-03-01T00:00:00.250Z", "type": "update", "bids": [[100.5, 1]]}
            {"time": "2024-03-01T00:00:01.000Z", "type": "update", "bids": [[99.5, 1]]}
            """
        let file = BT.scratchDirectory().appendingPathComponent("x.jsonl").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try BT.run(["data", "import", file, "--format", "book", "--symbol", "X", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning: \(file): 2 of 2 book updates leave the book crossed or locked"), "\(r.stderr)")
        #expect(r.stderr.contains("replay drops 1 stale level"))
        let list = try BT.run(["data", "list", "--json", "--db", db])
        #expect(list.stdout.contains("\"first\":\"2024-03-01T00:00:00Z\",\"last\":\"2024-03-01T00:00:01Z\""), "\(list.stdout)")
    }
}
