import Foundation
import Testing

/// The margin account on the command line (docs/design/orders.md, "Margin" and "Funding"): bad
/// values exit 2 with the reason and the range everywhere a strategy runs; good ones reach the
/// run (its parameters, statistics, trades.csv, the headline), a perpetual's stored funding is
/// charged, and one without funding rows says so.
@Suite("Margin and funding options on the command line")
struct MarginOptionCommandTests {
    static let bad: [([String], String)] = [
        (["--leverage", "0.5"], "--leverage '0.5': leverage must be from 1 to 125"),
        (["--leverage", "126"], "--leverage '126': leverage must be from 1 to 125"),
        (["--size", "300%"], "--size '300%': is more than the leverage allows: at most 100% of equity at leverage 1"),
        (["--leverage", "2", "--size", "300%"], "--size '300%': is more than the leverage allows: at most 200% of equity at leverage 2"),
        (["--leverage", "5"], "--mmr: the maintenance margin rate 25% (the default for spot; give --mmr) must be below 1 / leverage = 20%"),
        (["--leverage", "10", "--mmr", "10%"], "--mmr: the maintenance margin rate 10% must be below 1 / leverage = 10%"),
        (["--instrument", "swap"], "--instrument 'swap': not one of spot, perp, future, inverse-perp"),
        (["--margin", "portfolio"], "--margin 'portfolio': not cross or isolated"),
        (["--instrument", "perp", "--borrow-bps", "50"], "--borrow-bps: borrow is charged on spot shorts: a perp's short pays no borrow"),
        (["--instrument", "future", "--margin-rate", "5%"], "--margin-rate: margin interest is charged on spot: a future borrows no cash"),
        (["--liq-fee-bps", "-1"], "--liq-fee-bps '-1': liquidation fee must be in [0, 10000) basis points"),
        (["--multiplier", "50"], "--multiplier '50': a multiplier sizes contracts: give --instrument perp, future or inverse-perp"),
        (["--instrument", "future", "--multiplier", "0"], "--multiplier '0': the multiplier must be above 0 and at most 1e6"),
    ]

    @Test("a bad account setting exits 2 with the reason and the range, on run, portfolio, sweep, walk-forward and screen",
          arguments: bad)
    func badValues(_ option: [String], _ message: String) throws {
        try FeeOptionsCommandTests.refusedEverywhere(option, message)
    }

    static func stats(_ j: [String: Any]) throws -> [String: Any] { try #require(j["stats"] as? [String: Any]) }

    @Test("leverage reaches the run: the parameters, max_leverage above 1, the headline, trades.csv's interest and funding")
    func leveraged() throws {
        let db = try RunCommandTests.store()
        let base = ["run", "ma-cross", "GOOG", "--depth", "none", "--no-costs", "--db", db]
        let plain = try RunCommandTests.json(try BT.run(base + ["--json"]).stdout)
        // A cash account lists no account setting; its margin ratio is undefined.
        #expect((plain["execution"] as? [String: Any])?["leverage"] == nil)
        #expect(try Self.stats(plain)["min_margin_ratio"] is NSNull && Self.stats(plain)["liquidations"] as? Int == 0)
        let r = try BT.run(base + ["--json", "--leverage", "3", "--size", "300%", "--margin-rate", "8%"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try RunCommandTests.json(r.stdout)
        let execution = try #require(j["execution"] as? [String: Any])
        #expect(execution["leverage"] as? Double == 3 && execution["margin"] as? String == "cross"
                && execution["instrument"] as? String == "spot" && execution["mmr"] as? Double == 0.25 && execution["margin_rate"] as? Double == 0.08)
        let s = try Self.stats(j)
        #expect((s["max_leverage"] as? Double ?? 0) > 2.5 && (s["interest_paid"] as? Double ?? 0) > 0, "\(s)")
        #expect((s["min_margin_ratio"] as? Double).map { $0 > 0 } == true)
        let split = try #require(j["cost_split"] as? [String: Any])
        #expect(split["interest"] as? Double == s["interest_paid"] as? Double)

        let dir = BT.scratchDirectory().appendingPathComponent("report")
        let out = try BT.run(base + ["--leverage", "3", "--size", "300%", "--margin-rate", "8%", "--out", dir.path, "--no-chart"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("account: spot, 3x cross margin, mmr 25%"), "\(out.stdout)")
        let rows = try String(contentsOf: dir.appendingPathComponent("trades.csv"), encoding: .utf8).split(separator: "\n")
        #expect(rows.first?.hasSuffix(",exit_kind,interest,funding") == true, "\(rows.first ?? "")")
        let interest = rows.dropFirst().compactMap { row -> Double? in
            let cells = row.split(separator: ",", omittingEmptySubsequences: false)
            return Double(cells[cells.count - 2])
        }
        #expect(abs(interest.reduce(0, +) - (s["interest_paid"] as? Double ?? .nan)) <= 1e-6)
        // report.md's account section: the account, its margin use, and over time.
        let md = try String(contentsOf: dir.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(md.contains("## Account\n\nspot, 3x cross margin, mmr 25%.") && md.contains("| interest paid |")
                && md.contains("### Over time") && !md.contains("funding paid"), "\(md)")
        // report.html shows the same figures: the account, its margin use, and over time.
        let tables = try #require(try SweepScreenCommandTests.pageData(dir.appendingPathComponent("report.html").path)["tables"]
                                  as? [[String: Any]])
        let account = try #require(tables.first { $0["id"] as? String == "account" })
        let rowsShown = try #require(account["rows"] as? [[String]])
        #expect(rowsShown.count == 4 && rowsShown.allSatisfy { md.contains("| \($0[0]) | \($0[1]) |") }, "\(rowsShown)")
        #expect((account["notes"] as? [String])?.first == "spot, 3x cross margin, mmr 25%.")
        let overTime = try #require(tables.first { $0["id"] as? String == "account_over_time" })
        #expect((overTime["rows"] as? [[String]])?.count == 10 && overTime["columns"] as? [String] == ["from", "largest leverage"])
        let cash = BT.scratchDirectory().appendingPathComponent("cash")
        #expect(try BT.run(base + ["--out", cash.path, "--no-chart"]).status == 0)
        let cashTables = try SweepScreenCommandTests.pageData(cash.appendingPathComponent("report.html").path)["tables"] as? [[String: Any]]
        #expect(cashTables?.contains { ($0["id"] as? String ?? "").hasPrefix("account") } == false)
    }

    @Test("a future's contracts: N% of equity buys the same exposure in contracts of 50, the headline says the multiplier")
    func contracts() throws {
        let db = try RunCommandTests.store()
        let base = ["run", "ma-cross", "GOOG", "--depth", "none", "--no-costs", "--instrument", "future", "--leverage", "2",
                    "--size", "200%", "--db", db]
        let units = try RunCommandTests.json(try BT.run(base + ["--json"]).stdout)
        let contracts = try RunCommandTests.json(try BT.run(base + ["--json", "--multiplier", "50"]).stdout)
        let a = try Self.stats(units), b = try Self.stats(contracts)
        let final = try #require(a["final_equity"] as? Double)
        #expect(abs((b["final_equity"] as? Double ?? 0) / final - 1) < 1e-9, "\(a) \(b)")
        #expect(abs((b["max_leverage"] as? Double ?? 0) - (a["max_leverage"] as? Double ?? 1)) < 1e-9)
        #expect((contracts["execution"] as? [String: Any])?["multiplier"] as? Double == 50)
        let text = try BT.run(base + ["--multiplier", "50", "--no-chart", "--no-costs"])
        #expect(text.stdout.contains("account: future (multiplier 50), 2x cross margin, mmr 0.5%"), "\(text.stdout.prefix(400))")
        // report.md's margin use counts the contracts' value (the statistic's, not position × close).
        let dir = BT.scratchDirectory().appendingPathComponent("report")
        let out = try BT.run(base + ["--multiplier", "50", "--no-chart", "--no-costs", "--out", dir.path])
        #expect(out.status == 0, "\(out.stderr)")
        let md = try String(contentsOf: dir.appendingPathComponent("report.md"), encoding: .utf8)
        let most = String(format: "%.3f", b["max_leverage"] as? Double ?? .nan)
        #expect(md.contains("| largest leverage at a close | \(most) |"), "\(most): \(md)")
    }

    @Test("a perpetual pays its stored funding (the trades' sum); without rows it warns that funding was not charged")
    func funding() throws {
        let db = try RunCommandTests.store()
        let base = ["run", "ma-cross", "EURUSD", "--depth", "none", "--no-costs", "--instrument", "perp", "--leverage", "5",
                    "--size", "300%", "--to", "2017-04-30", "--json", "--db", db]
        let none = try BT.run(base)
        #expect(none.status == 0, "\(none.stderr)")
        let plain = try RunCommandTests.json(none.stdout)
        let warnings = try #require(plain["warnings"] as? [[String: Any]])
        #expect(warnings.contains { $0["kind"] as? String == "no_funding"
            && ($0["message"] as? String)?.hasPrefix("no funding rows for EURUSD between") == true }, "\(warnings)")
        #expect(try Self.stats(plain)["funding_paid"] as? Double == 0)
        let text = try BT.run(base.filter { $0 != "--json" } + ["--no-chart"])
        #expect(text.status == 0 && text.stdout.contains("warning: no funding rows for EURUSD between"), "\(text.stdout.prefix(400))")

        let file = "Tests/Fixtures/orders/funding_eurusd_perp_funding_long.csv"
        let imported = try BT.run(["data", "import", file, "--format", "funding", "--symbol", "EURUSD", "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        let dir = BT.scratchDirectory().appendingPathComponent("report")
        let r = try BT.run(base + ["--out", dir.path, "--no-chart"])
        #expect(r.status == 0 && !r.stderr.contains("no funding rows"), "\(r.stderr)")
        let paid = try #require(try Self.stats(RunCommandTests.json(r.stdout))["funding_paid"] as? Double)
        #expect(paid != 0)
        let rows = try String(contentsOf: dir.appendingPathComponent("trades.csv"), encoding: .utf8).split(separator: "\n")
        let sum = rows.dropFirst().compactMap { $0.split(separator: ",").last.flatMap { Double($0) } }.reduce(0, +)
        #expect(rows.count > 1 && abs(sum - paid) <= 1e-9 * max(1, abs(paid)), "trades \(sum) vs funding_paid \(paid)")
        let md = try String(contentsOf: dir.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(md.contains("| funding, net paid | \(String(format: "%.2f", paid)) |"), "\(md)")
        // report.html's leverage and funding over time: the spans' funding adds up to the net paid.
        let tables = try #require(try SweepScreenCommandTests.pageData(dir.appendingPathComponent("report.html").path)["tables"]
                                  as? [[String: Any]])
        let overTime = try #require(tables.first { $0["id"] as? String == "account_over_time" })
        #expect(overTime["columns"] as? [String] == ["from", "largest leverage", "funding"])
        let spans = (overTime["rows"] as? [[String]] ?? []).compactMap { Double($0[2]) }
        #expect(spans.count == 10 && abs(spans.reduce(0, +) - paid) <= 0.006, "\(spans) vs \(paid)")
    }

    @Test("a sweep's grid takes leverage and mmr as axes; a portfolio sweep takes leverage and refuses mmr, each symbol's own")
    func sweepAndPortfolio() throws {
        let db = try RunCommandTests.store()
        let out = BT.scratchDirectory().path
        // The base run's leverage allows its size; a combination whose leverage does not is a failed row with the reason.
        let ok = try BT.run(["sweep", "ma-cross", "GOOG", "--instrument", "perp", "--leverage", "5", "--size", "300%",
                             "--grid", "leverage=2,3,5", "--grid", "mmr=0.5%,1%", "--out", out + "/ok", "--db", db])
        #expect(ok.status == 0, "\(ok.stderr)")
        let csv = try String(contentsOfFile: out + "/ok/sweep.csv", encoding: .utf8)
        let rows = csv.split(separator: "\n")
        #expect(rows.count == 7 && csv.hasPrefix("leverage,mmr,"), "\(csv.prefix(200))")
        #expect(rows.filter { $0.hasPrefix("2,") }.allSatisfy { $0.contains("at most 200% of equity at leverage 2") }, "\(csv)")
        #expect(rows.filter { $0.hasPrefix("3,") || $0.hasPrefix("5,") }.allSatisfy { !$0.contains(",error,") }, "\(csv)")
        let p = try BT.run(["sweep", "ma-cross", "--portfolio", "--symbols", "GOOG,EURUSD", "--leverage", "3", "--grid", "mmr=1%,2%",
                            "--out", out + "/p", "--db", db])
        #expect(p.status == 2 && p.stderr.contains("error: --mmr: a portfolio's maintenance rate is each symbol's own"), "\(p.stderr)")
    }

    @Test("a strategy file's [account] gives the run's account and fees; options override it; a bad value names the file and line")
    func strategyFileAccount() throws {
        let db = try RunCommandTests.store()
        let dir = BT.scratchDirectory()
        let rules = "[rules]\nentry = close > sma(close, 20)\nexit = close < sma(close, 20)\n"
        let file = dir.appendingPathComponent("acct.bt")
        try (rules + "[account]\nleverage = 3\ninstrument = perp\nmargin = isolated\nfee_bps = 4\n").write(to: file, atomically: true, encoding: .utf8)
        let r = try BT.run(["run", file.path, "GOOG", "--size", "300%", "--json", "--no-costs", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let e = try #require(try RunCommandTests.json(r.stdout)["execution"] as? [String: Any])
        #expect(e["leverage"] as? Double == 3 && e["instrument"] as? String == "perp" && e["margin"] as? String == "isolated"
                && e["fee_bps"] as? Double == 4, "\(e)")
        // bt strategies lists the section.
        let listed = try BT.run(["strategies", "--strategies", dir.path])
        #expect(listed.stdout.contains("  [account]\n  leverage = 3\n  instrument = perp\n  margin = isolated\n  fee_bps = 4\n"), "\(listed.stdout)")
        let listedJSON = try BT.run(["strategies", "--strategies", dir.path, "--json"]).stdout
        #expect(listedJSON.contains(#""account":[{"setting":"leverage","text":"3"},{"setting":"instrument","text":"perp"}"#), "\(listedJSON)")
        let overridden = try BT.run(["run", file.path, "GOOG", "--leverage", "2", "--fee-bps", "7", "--json", "--no-costs", "--db", db])
        let o = try #require(try RunCommandTests.json(overridden.stdout)["execution"] as? [String: Any])
        #expect(o["leverage"] as? Double == 2 && o["fee_bps"] as? Double == 7 && o["instrument"] as? String == "perp", "\(o)")
        let cases: [(String, String)] = [
            (rules + "[account]\nleverage = 500\n", ":5: --leverage '500': leverage must be from 1 to 125"),
            (rules + "[account]\nleverage = 2\nmmr = 60%\n", ":6: --mmr: the maintenance margin rate 60% must be below 1 / leverage = 50%"),
            (rules + "[account]\nleverage = three\n", ":5: --leverage 'three': not a number"),
            (rules + "[account]\nlevrage = 2\n", ":5: unknown key 'levrage' in [account]"),
        ]
        // A contract's multiplier too: the run equals the one given the same options.
        let future = dir.appendingPathComponent("future.bt")
        try (rules + "[account]\ninstrument = future\nmultiplier = 50\nleverage = 2\n").write(to: future, atomically: true, encoding: .utf8)
        let fromFile = try BT.run(["run", future.path, "GOOG", "--size", "10%", "--json", "--no-costs", "--db", db])
        let fromOptions = try BT.run(["run", future.path, "GOOG", "--size", "10%", "--instrument", "future", "--multiplier", "50",
                                      "--leverage", "2", "--json", "--no-costs", "--db", db])
        #expect(fromFile.status == 0 && fromOptions.status == 0, "\(fromFile.stderr)\(fromOptions.stderr)")
        let f = try RunCommandTests.json(fromFile.stdout), g = try RunCommandTests.json(fromOptions.stdout)
        #expect((f["execution"] as? [String: Any])?["multiplier"] as? Double == 50, "\(f["execution"] ?? "")")
        #expect(NSDictionary(dictionary: f["stats"] as? [String: Any] ?? [:]).isEqual(to: g["stats"] as? [String: Any] ?? ["": 0]))
        let smaller = try BT.run(["run", future.path, "GOOG", "--size", "10%", "--multiplier", "10", "--json", "--no-costs", "--db", db])
        #expect((try RunCommandTests.json(smaller.stdout)["execution"] as? [String: Any])?["multiplier"] as? Double == 10)
        for (i, (text, message)) in cases.enumerated() {
            let bad = dir.appendingPathComponent("bad\(i).bt")
            try text.write(to: bad, atomically: true, encoding: .utf8)
            let b = try BT.run(["run", bad.path, "GOOG", "--no-chart", "--db", db])
            #expect(b.status == 2 && b.stderr.contains(message), "\(text): \(b.stderr)")
        }
    }
}
