import Foundation
import Testing

/// Inverse (coin-margined) perpetuals on the command line (docs/design/orders.md, "Inverse
/// perpetuals"): the account in the coin everywhere a run reports (the headline, --json's
/// `currency`, report.md, report.html, trades.csv's PnL), every front end that runs a strategy,
/// the stored instrument kind, and the refusals.
@Suite("Inverse perpetuals on the command line")
struct InverseCommandTests {
    /// A store holding GOOG's bars as BTCUSD_PERP (a coin priced in dollars) and GOOG itself.
    static func store() throws -> String {
        let db = try RunCommandTests.store()
        let r = try BT.run(["data", "import", "data/GOOG.csv", "--symbol", "BTCUSD_PERP", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    static let account = ["--instrument", "inverse-perp", "--multiplier", "100", "--cash", "2", "--leverage", "3", "--size", "300%"]

    @Test("a run is in the coin: the headline, --json's currency, report.md, report.html, trades.csv's PnL adding up to the equity")
    func inCoin() throws {
        let db = try Self.store()
        let base = ["run", "ma-cross", "BTCUSD_PERP", "--depth", "none", "--no-costs", "--db", db] + Self.account
        let r = try BT.run(base + ["--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try RunCommandTests.json(r.stdout)
        let stats = try #require(j["stats"] as? [String: Any])
        let execution = try #require(j["execution"] as? [String: Any])
        #expect(stats["currency"] as? String == "BTC" && stats["initial_cash"] as? Double == 2, "\(stats)")
        #expect(execution["instrument"] as? String == "inverse-perp" && execution["multiplier"] as? Double == 100)
        // The linear run on the same bars has no currency field.
        let linear = try RunCommandTests.json(try BT.run(["run", "ma-cross", "BTCUSD_PERP", "--depth", "none", "--no-costs",
                                                           "--instrument", "perp", "--json", "--db", db]).stdout)
        #expect((linear["stats"] as? [String: Any])?["currency"] == nil)

        let dir = BT.scratchDirectory().appendingPathComponent("report")
        let out = try BT.run(base + ["--out", dir.path, "--no-chart"])
        #expect(out.status == 0, "\(out.stderr)")
        let headline = "account: inverse-perp (multiplier 100), 3x cross margin, mmr 0.5%, equity in BTC"
        #expect(out.stdout.contains(headline), "\(out.stdout.prefix(600))")
        let md = try String(contentsOf: dir.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(md.contains("inverse-perp (multiplier 100), 3x cross margin, mmr 0.5%, equity in BTC."), "\(md.prefix(2000))")
        let tables = try #require(try SweepScreenCommandTests.pageData(dir.appendingPathComponent("report.html").path)["tables"]
                                  as? [[String: Any]])
        let account = try #require(tables.first { $0["id"] as? String == "account" })
        #expect((account["notes"] as? [String])?.first == "inverse-perp (multiplier 100), 3x cross margin, mmr 0.5%, equity in BTC.")
        // trades.csv's pnl is in coins: the trades add up to final equity − 2 coins.
        let rows = try String(contentsOf: dir.appendingPathComponent("trades.csv"), encoding: .utf8).split(separator: "\n")
        let header = rows.first?.split(separator: ",").map(String.init) ?? []
        let pnlColumn = try #require(header.firstIndex(of: "pnl"))
        let pnl = rows.dropFirst().compactMap { Double($0.split(separator: ",", omittingEmptySubsequences: false)[pnlColumn]) }
        let final = try #require(stats["final_equity"] as? Double)
        #expect(rows.count > 2 && abs(pnl.reduce(0, +) - (final - 2)) <= 1e-6, "\(pnl.reduce(0, +)) vs \(final - 2)")
    }

    @Test("the text summary, report.md and report.html show coins with eight decimals and name the coin over the cost split; cash keeps two")
    func coinDecimals() throws {
        let db = try Self.store()
        let r = try BT.run(["run", "ma-cross", "BTCUSD_PERP", "--depth", "none", "--db", db] + Self.account)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        func value(_ name: String) -> String? { lines.first { $0.hasPrefix(name + " ") }?.split(separator: " ").last.map(String.init) }
        for name in ["final_equity", "peak_equity", "fees_paid", "expectancy"] {
            let v = try #require(value(name), "\(name) in \(r.stdout.prefix(300))")
            #expect(v.split(separator: ".").last?.count == 8, "\(name) \(v)")
        }
        let split = try #require(lines.first { $0.hasPrefix("pnl ") })
        #expect(split.contains(" BTC ") && !split.contains("cash"), "\(split)")
        #expect(lines.contains { $0.hasPrefix("net ") && $0.range(of: #"\d\.\d{8} "#, options: .regularExpression) != nil }, "\(lines)")
        // The cost table's fees paid too: 1x row's fifth column.
        let oneX = try #require(lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("1x ") })
        #expect(oneX.range(of: #"\d\.\d{8}"#, options: .regularExpression) != nil, "\(oneX)")
        let dir = BT.scratchDirectory().appendingPathComponent("coin")
        #expect(try BT.run(["run", "ma-cross", "BTCUSD_PERP", "--depth", "none", "--no-costs", "--out", dir.path, "--no-chart", "--db", db]
                           + Self.account).status == 0)
        let md = try String(contentsOf: dir.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(md.range(of: #"\| final_equity \| \d+\.\d{8} \|"#, options: .regularExpression) != nil, "\(md.prefix(3000))")
        // report.html's statistics likewise.
        let tables = try #require(try SweepScreenCommandTests.pageData(dir.appendingPathComponent("report.html").path)["tables"]
                                  as? [[String: Any]])
        let stats = try #require(tables.first { $0["id"] as? String == "stats" }?["rows"] as? [[String]])
        let equity = try #require(stats.first { $0.first == "Final equity" }?.last)
        #expect(equity.range(of: #"^\d+\.\d{8}$"#, options: .regularExpression) != nil, "\(equity)")
        // A linear run keeps cents.
        let linear = try BT.run(["run", "ma-cross", "BTCUSD_PERP", "--depth", "none", "--no-costs", "--instrument", "perp", "--db", db])
        let linearEquity = linear.stdout.split(separator: "\n").first { $0.hasPrefix("final_equity ") }
        #expect(linearEquity?.split(separator: ".").last?.count == 2, "\(String(describing: linearEquity))")
        #expect(linear.stdout.contains("\npnl ") && linear.stdout.split(separator: "\n").contains { $0.hasPrefix("pnl ") && $0.contains(" cash ") })
    }

    @Test("refused with the reason: a per-unit fee on run, portfolio, sweep, walk-forward and screen; a price at or below 0 at import")
    func refused() throws {
        try FeeOptionsCommandTests.refusedEverywhere(["--instrument", "inverse-perp", "--fee-per-unit", "0.1"],
                                                     "--fee-per-unit '0.1': an inverse-perp's fees are in the coin")
        let dir = BT.scratchDirectory()
        let csv = dir.appendingPathComponent("zero.csv")
        try """
            time,open,high,low,close,volume
            2024-01-01,100,101,99,100,10
            2024-01-02,100,101,0,100,10
            2024-01-03,100,101,99,100,10

            """.write(to: csv, atomically: true, encoding: .utf8)
        // A price at or below 0 never reaches a run: the store (and the C library's and btcore's bars) refuse it
        // (the engine's own refusal for a library caller's bars is InverseTests' `refused`).
        let imported = try BT.run(["data", "import", csv.path, "--symbol", "BTCUSD", "--db", BT.scratchStore()])
        #expect(imported.status == 2 && imported.stderr.contains("zero.csv:3: low 0 is not a price bt supports"), "\(imported.stderr)")
    }

    @Test("every front end that runs a strategy takes it: sweep, walk-forward, screen, a portfolio of one coin, a stored kind and a strategy file")
    func everywhere() throws {
        let db = try Self.store()
        let out = BT.scratchDirectory().path
        let sweep = try BT.run(["sweep", "ma-cross", "BTCUSD_PERP", "--grid", "fast=5,10", "--out", out + "/sweep", "--db", db] + Self.account)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let wf = try BT.run(["sweep", "ma-cross", "BTCUSD_PERP", "--grid", "fast=5,10", "--walk-forward", "2", "--out", out + "/wf", "--db", db]
                            + Self.account)
        #expect(wf.status == 0, "\(wf.stderr)")
        let screen = try BT.run(["screen", "ma-cross", "--symbols", "BTCUSD_PERP", "--out", out + "/screen", "--db", db] + Self.account)
        #expect(screen.status == 0, "\(screen.stderr)")
        let portfolio = try BT.run(["portfolio", "ma-cross", "--symbols", "BTCUSD_PERP", "--instrument", "inverse-perp", "--no-chart", "--db", db])
        #expect(portfolio.status == 0 && portfolio.stdout.contains("equity in BTC"), "\(portfolio.stderr)")
        // One account settles in one coin: a second symbol whose name does not tell its coin is refused.
        let mixed = try BT.run(["portfolio", "ma-cross", "--symbols", "BTCUSD_PERP,GOOG", "--instrument", "inverse-perp", "--db", db])
        #expect(mixed.status == 2 && mixed.stderr.contains("settles in"), "\(mixed.stderr)")
        // The stored kind and multiplier are the run's defaults.
        let stored = try BT.run(["data", "instrument", "BTCUSD_PERP", "--kind", "inverse-perp", "--multiplier", "100", "--db", db])
        #expect(stored.status == 0 && stored.stdout.contains("inverse-perp"), "\(stored.stdout) \(stored.stderr)")
        let run = try BT.run(["run", "ma-cross", "BTCUSD_PERP", "--depth", "none", "--no-chart", "--db", db])
        #expect(run.status == 0 && run.stdout.contains("account: inverse-perp (multiplier 100), 1x cross margin, mmr 0.5%, equity in BTC"),
                "\(run.stdout.prefix(500)) \(run.stderr)")
        // A strategy file's [account].
        let file = BT.scratchDirectory().appendingPathComponent("coin.bt")
        try "[rules]\nentry = close > sma(close, 20)\nexit = close < sma(close, 20)\n[account]\ninstrument = inverse-perp\nleverage = 2\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let fromFile = try BT.run(["run", file.path, "GOOG", "--json", "--no-costs", "--db", db])
        let e = try #require(try RunCommandTests.json(fromFile.stdout)["execution"] as? [String: Any])
        let s = try #require(try RunCommandTests.json(fromFile.stdout)["stats"] as? [String: Any])
        #expect(e["instrument"] as? String == "inverse-perp" && s["currency"] as? String == "coin", "\(e) \(s)")
    }
}
