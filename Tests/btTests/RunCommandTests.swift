import Foundation
import Testing

@Suite("bt run, bt strategies, bt bench engine")
struct RunCommandTests {
    /// A scratch store holding GOOG and EURUSD from `data/`.
    static func store() throws -> String {
        let db = BT.scratchStore()
        let r = try BT.run(["data", "import", "data/GOOG.csv", "data/EURUSD.csv", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    static func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any])
    }

    @Test("--depth none --json agrees with the vectorbt golden and uses fractions")
    func runJSON() throws {
        let db = try Self.store()
        let r = try BT.run(["run", "ma-cross", "GOOG", "--depth", "none", "--max-participation", "0", "--json", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try Self.json(r.stdout)
        #expect(j["strategy"] as? String == "ma-cross" && j["symbol"] as? String == "GOOG" && j["timeframe"] as? String == "1d")
        let params = try #require(j["params"] as? [String: Any])
        #expect(params["fast"] as? Int == 10 && params["slow"] as? Int == 30 && params["type"] as? String == "sma")
        let stats = try #require(j["stats"] as? [String: Any])
        let final = try #require(stats["final_equity"] as? Double)
        #expect(abs(final / 54611.23708225305 - 1) < 1e-9)  // Tests/Fixtures/vectorbt/goldens.json
        #expect(stats["trades"] as? Int == 33)
        #expect(abs((stats["total_return"] as? Double ?? 0) - (final / 10_000 - 1)) < 1e-12)
        let dd = try #require(stats["max_drawdown"] as? Double)
        #expect(dd < 0 && dd > -1)  // a negative fraction, as empyrical gives it
        for key in ["fees_paid", "avg_slippage", "partial_fills", "rejected_orders", "fills"] {
            #expect(stats[key] != nil, "missing \(key)")
        }
    }

    @Test("the default run goes through synthetic depth and prints the headline, stats and notes")
    func runText() throws {
        let db = try Self.store()
        let r = try BT.run(["run", "rsi", "EURUSD", "--param", "period=10", "--sl", "1%", "--tp", "2%", "--no-costs",
                            "--no-chart", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        for label in ["rsi period=10 lower=30 upper=70 on EURUSD 1h", "depth synthetic", "sl 0.01, tp 0.02", "final_equity",
                      "total_return [%]", "trades", "fees_paid", "max_drawdown [%]", "avg_slippage_bps [bps]",
                      "partial_fills", "rejected_orders", "SL/TP ambiguous bars"] {
            #expect(r.stdout.contains(label), "missing '\(label)' in:\n\(r.stdout)")
        }
        #expect(!r.stdout.contains("Break-even") && !r.stdout.contains("Equity"))
        #expect(!r.stdout.contains("\u{1B}"))
    }

    @Test("--depth book fills through the recorded book imported into the store")
    func runBook() throws {
        let db = try Self.store()
        let dir = BT.scratchDirectory()
        let book = dir.appendingPathComponent("goog-book.jsonl")
        try """
            {"time":"2012-01-01T00:00:00Z","type":"snapshot","bids":[[590,10],[550,1000]],"asks":[[600,10],[650,1000]]}

            """.write(to: book, atomically: true, encoding: .utf8)
        let imported = try BT.run(["data", "import", book.path, "--format", "book", "--symbol", "GOOG", "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        let r = try BT.run(["run", "ma-cross", "GOOG", "--from", "2012-01-02", "--depth", "book", "--size", "15u",
                            "--fee-bps", "0", "--json", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let stats = try #require(try Self.json(r.stdout)["stats"] as? [String: Any])
        #expect((stats["fills"] as? Int ?? 0) > 0)
        #expect(try Self.json(r.stdout)["execution"].flatMap { ($0 as? [String: Any])?["depth"] as? String } == "book")
    }

    @Test("bad strategy, parameter or option: exit 2 naming the valid ones",
          arguments: [
            (["run", "ma-crss", "GOOG"], "built-in: ma-cross, rsi, macd, bollinger, donchian"),
            (["run", "rsi", "GOOG", "--param", "perod=3"], "valid: period, lower, upper"),
            (["run", "rsi", "GOOG", "--param", "period=x"], "parameter 'period' needs a whole number"),
            (["run", "ma-cross", "GOOG", "--size", "150%"], "--size"),
            (["run", "ma-cross", "GOOG", "--depth", "deep"], "none, synthetic, book"),
            (["run", "ma-cross", "GOOG", "--fill", "later"], "next-open or close"),
            (["run", "ma-cross", "GOOG", "--fee-bps", "-3"], "--fee-bps"),
            (["run", "ma-cross", "NOPE"], "NOPE"),
          ])
    func badInput(args: [String], message: String) throws {
        let db = try Self.store()
        let r = try BT.run(args + ["--db", db])
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "stderr: \(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("bt strategies lists every strategy with parameters and defaults")
    func strategies() throws {
        let r = try BT.run(["strategies"])
        #expect(r.status == 0)
        for name in ["ma-cross", "rsi", "macd", "bollinger", "donchian"] { #expect(r.stdout.contains("\(name): ")) }
        #expect(r.stdout.contains("type   sma      sma|ema"))
        let j = try BT.run(["strategies", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [[String: Any]])
        #expect(list.filter { $0["source"] as? String == "built-in" }.count == 5)
        let params = try #require(list.first?["params"] as? [[String: Any]])
        #expect(params.first?["name"] as? String == "fast" && params.first?["default"] as? Int == 10)
    }

    @Test("bt bench engine --json has the agreed keys")
    func bench() throws {
        let r = try BT.run(["bench", "engine", "--bars", "3000", "--repeat", "1", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try Self.json(r.stdout)
        #expect(j["bars"] as? Int == 3000)
        #expect((j["seconds"] as? Double ?? -1) > 0 && (j["seconds_synthetic"] as? Double ?? -1) > 0 && (j["seconds_orders"] as? Double ?? -1) > 0)
        #expect((j["seconds_perp"] as? Double ?? -1) > 0)
    }
}
