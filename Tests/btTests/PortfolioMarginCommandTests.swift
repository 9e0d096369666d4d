import Foundation
import Testing
import TestSupport
import Backtest

/// `bt portfolio` on margin and short end to end: each symbol's stored instrument and funding
/// rows, the account's statistics in `--json`, a long/short book, and a cash symbol beside a
/// margin one refused.
@Suite("bt portfolio on margin and short")
struct PortfolioMarginCommandTests {
    /// GOOG stored as a perpetual with funding rows every 8 hours of 2010 (0.01%); EURUSD spot.
    static func store() throws -> String {
        let db = try RunCommandTests.store()
        #expect(try BT.run(["data", "instrument", "GOOG", "--kind", "perp", "--mmr", "0.4%", "--db", db]).status == 0)
        let start: Int64 = 1_262_304_000  // 2010-01-01
        let rows: [String] = (0..<(365 * 3)).map { (k: Int) -> String in UTCTime.iso(start + Int64(k) * 8 * 3600) + ",0.0001" }
        let path = BT.scratchStore().replacingOccurrences(of: "store.sqlite", with: "funding.csv")
        _ = FileManager.default.createFile(atPath: path, contents: Data(("time,rate\n" + rows.joined(separator: "\n") + "\n").utf8))
        let r = try BT.run(["data", "import", path, "--format", "funding", "--symbol", "GOOG", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    @Test("a perpetual beside spot at 3x cross: GOOG pays its own funding; the account's statistics in --json")
    func crossMargin() throws {
        let db = try Self.store()
        let r = try BT.run(["portfolio", "ma-cross", "--symbols", "GOOG,EURUSD", "--leverage", "3", "--size", "300%", "--json", "--no-costs", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        guard r.status == 0 else { return }
        let j = try RunCommandTests.json(r.stdout)
        let stats = try #require(j["stats"] as? [String: Any])
        let funding = try #require(stats["funding_paid"] as? Double)
        #expect(funding > 0, "\(stats)")  // a long perpetual pays a positive rate
        #expect((stats["max_leverage"] as? Double ?? 0) > 1.2 && (stats["min_margin_ratio"] as? Double ?? 0) > 1, "\(stats)")
        #expect(stats["liquidations"] as? Double == 0 && stats["interest_paid"] as? Double == 0, "\(stats)")
        let execution = try #require(j["execution"] as? [String: Any])
        #expect(execution["leverage"] as? Double == 3 && execution["margin"] as? String == "cross", "\(execution)")
    }

    @Test("--short: longs and shorts in one book; spot shorts pay borrow; refusals name the setting")
    func longShort() throws {
        let db = try RunCommandTests.store(), out = BT.scratchDirectory().path + "/ls"
        let r = try BT.run(["portfolio", "ma-cross", "--symbols", "GOOG,EURUSD", "--short", "--borrow-bps", "300", "--json", "--no-costs",
                            "--out", out, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let stats = try #require(try RunCommandTests.json(r.stdout)["stats"] as? [String: Any])
        #expect((stats["borrow_paid"] as? Double ?? 0) > 0, "\(stats)")
        let trades = try String(contentsOfFile: out + "/trades.csv", encoding: .utf8)
        #expect(trades.contains(",short,") && trades.contains(",long,"), "\(trades.prefix(300))")
        // A cash symbol beside a perpetual: one account cannot be both.
        let mixed = try BT.run(["portfolio", "ma-cross", "--symbols", "GOOG,EURUSD", "--db", try Self.store()])
        #expect(mixed.status == 2 && mixed.stderr.contains("share one account"), "\(mixed.stderr)")
    }

    @Test("inverse contracts of one coin: the account and its figures in BTC, as bt run says it; two coins refused")
    func inverse() throws {
        let db = BT.scratchStore(), csv = BT.root.appendingPathComponent("data/GOOG.csv").path
        for symbol in ["BTCUSD", "BTCUSD_PERP", "ETHUSD"] {
            let r = try BT.run(["data", "import", csv, "--symbol", symbol, "--db", db])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let options = ["--instrument", "inverse-perp", "--multiplier", "100", "--leverage", "3", "--size", "200%", "--cash", "2", "--short",
                       "--no-chart", "--db", db]
        let r = try BT.run(["portfolio", "ma-cross", "--symbols", "BTCUSD,BTCUSD_PERP"] + options)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("account: inverse-perp (multiplier 100), 3x cross margin, mmr 0.5%, equity in BTC"), "\(r.stdout.prefix(600))")
        #expect(r.stdout.contains("pnl                                        BTC") || r.stdout.contains(" BTC "), "\(r.stdout.prefix(900))")
        // Cash figures in the coin carry eight decimals, the per-symbol table's too.
        let symbolRow = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("BTCUSD_PERP ") })
        #expect(symbolRow.contains { $0 == "." } && symbolRow.split(separator: " ")[2].split(separator: ".").last?.count == 8, "\(symbolRow)")
        let run = try BT.run(["run", "ma-cross", "BTCUSD"] + options)
        #expect(run.stdout.contains("equity in BTC"))
        let two = try BT.run(["portfolio", "ma-cross", "--symbols", "BTCUSD,ETHUSD"] + options)
        #expect(two.status == 2 && two.stderr.contains("BTCUSD settles in BTC, ETHUSD in ETH"), "\(two.stderr)")
    }

    @Test("mixed instruments: the text summary's headline names each symbol's, not the first's for all")
    func mixedHeadline() throws {
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "synth", "--symbols", "3", "--bars", "300", "--db", db]).status == 0)
        #expect(try BT.run(["data", "instrument", "SYN0002", "--kind", "perp", "--mmr", "0.4%", "--db", db]).status == 0)
        let r = try BT.run(["portfolio", "ma-cross", "--symbols", "SYN0001,SYN0002", "--leverage", "2", "--no-costs", "--no-chart",
                            "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let headline = "account: mixed (SYN0001 spot mmr 25%, SYN0002 perp mmr 0.4%), 2x cross margin"
        #expect(r.stdout.contains(headline), "\(r.stdout.prefix(600))")
        // Symbols trading alike keep the one instrument's words.
        let same = try BT.run(["portfolio", "ma-cross", "--symbols", "SYN0001,SYN0003", "--leverage", "2", "--no-costs", "--db", db])
        #expect(same.stdout.contains("account: spot, 2x cross margin, mmr 25%"), "\(same.stdout.prefix(600))")
    }
}
