import Backtest
import Foundation
import Testing

@Suite("bt sweep and bt screen end to end")
struct SweepScreenCommandTests {
    /// A store with GOOG imported and three synthetic symbols.
    static func store() throws -> String {
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        #expect(try BT.run(["data", "synth", "--symbols", "3", "--bars", "600", "--db", db]).status == 0)
        return db
    }

    /// The data object of a report.html.
    static func pageData(_ path: String) throws -> [String: Any] {
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let open = #"<script type="application/json" id="bt-data">"#
        let start = try #require(page.range(of: open)).upperBound
        let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
        let json = page[start..<end].replacingOccurrences(of: #"<\/"#, with: "</")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    static func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("sweep writes sweep.csv (one row per combination), sweep.md with honesty figures, heatmap.svg")
    func sweep() throws {
        let db = try Self.store()
        let out = BT.scratchDirectory().appendingPathComponent("sw").path
        let r = try BT.run(["sweep", "ma-cross", "goog", "--db", db, "--grid", "fast=5:20:5", "--grid", "slow=20:60:20",
                            "--where", "fast<slow", "--depth", "none", "--walk-forward", "3", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Best: fast="))
        #expect(r.stdout.contains("Deflated Sharpe ratio:"))
        #expect(r.stdout.contains("Probability of backtest overfitting:"))
        #expect(!r.stdout.contains("\u{1B}"))
        let csv = try Self.lines(out + "/sweep.csv")
        #expect(csv[0].hasPrefix("fast,slow,total_return,cagr,sharpe,"))
        #expect(csv.count == 1 + 11)   // 4 x 3 grid minus fast=20,slow=20
        #expect(csv.dropFirst().allSatisfy { $0.hasSuffix(",ok,") })
        let md = try String(contentsOfFile: out + "/sweep.md", encoding: .utf8)
        for needle in ["deflated Sharpe ratio", "Probability of backtest overfitting", "## Heatmap", "## Walk-forward",
                       "candles sha256", "| where | `fast<slow` |"] {
            #expect(md.contains(needle), "sweep.md lacks \(needle)")
        }
        for file in ["heatmap.svg", "walk_forward.csv", "walk_forward_equity.svg", "report.html"] {
            #expect(FileManager.default.fileExists(atPath: out + "/" + file), "missing \(file)")
        }
        let page = try Self.pageData(out + "/report.html")
        #expect(page["kind"] as? String == "sweep")
        let sweep = try #require(page["sweep"] as? [String: Any])
        #expect((sweep["combinations"] as? [Any])?.count == 11)
        #expect(sweep["walk_forward"] is [String: Any])
        // The rerun command keeps the data and execution options and the fixed parameters.
        #expect(sweep["rerun"] as? String == "bt run ma-cross GOOG --db \(db) --depth none --param fast={fast} --param slow={slow}")
        // A sweep row equals `bt run --json` for the same combination.
        let run = try BT.run(["run", "ma-cross", "GOOG", "--db", db, "--param", "fast=10", "--param", "slow=40",
                              "--depth", "none", "--json", "--no-costs"])
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        let stats = json["stats"] as! [String: Any]
        let header = csv[0].split(separator: ",").map(String.init)
        let row = try #require(csv.first { $0.hasPrefix("10,40,") }).split(separator: ",", omittingEmptySubsequences: false)
        for name in SweepStats.names {
            let column = try #require(header.firstIndex(of: name), "sweep.csv lacks \(name)")
            // Foundation's JSON parser can be a few ulps off the text bt wrote.
            if let swept = Double(row[column]), let run = stats[name] as? Double {
                #expect(abs(swept - run) <= 4 * run.ulp, "\(name): \(swept) vs \(run)")
            } else {
                #expect(row[column].isEmpty && stats[name] is NSNull, "\(name)")
            }
        }

        // Existing directory without --force: exit 2, nothing rewritten.
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/sweep.csv"))
        let again = try BT.run(["sweep", "ma-cross", "GOOG", "--db", db, "--grid", "fast=5:10:5", "--out", out])
        #expect(again.status == 2)
        #expect(again.stderr.contains("already exists"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/sweep.csv")) == before)
    }

    @Test("sweep refuses bad grids, filters and metrics with exit 2", arguments: [
        (["--grid", "fats=5:10:5"], "did you mean 'fast'"),
        (["--grid", "fast=5:10:0"], "step must be positive"),
        (["--grid", "fast=5:10:5", "--where", "fast>slow*10"], "leaves no combination"),
        (["--grid", "fast=5:10:5", "--rank", "sharp"], "unknown metric"),
        (["--grid", "fast=5:10:5", "--param", "fast=3"], "both swept"),
        ([String](), "--grid is required"),
    ])
    func sweepErrors(extra: [String], message: String) throws {
        let db = try Self.store()
        let r = try BT.run(["sweep", "ma-cross", "GOOG", "--db", db, "--out", BT.scratchDirectory().path + "/x"] + extra)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    @Test("sweep over several symbols: a sub-folder each, a summary, a missing symbol reported not fatal")
    func sweepSymbols() throws {
        let db = try Self.store()
        let out = BT.scratchDirectory().appendingPathComponent("multi").path
        let r = try BT.run(["sweep", "ma-cross", "--symbols", "GOOG,NOPE,SYN0001", "--db", db, "--grid", "fast=5:10:5",
                            "--grid", "slow=30,60", "--depth", "none", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("NOPE: no candles stored"))
        let csv = try Self.lines(out + "/summary.csv")
        #expect(csv.count == 4)
        #expect(csv[0] == "symbol,timeframe,status,best,sharpe,deflated_sharpe,pbo,error")
        #expect(csv[1].hasPrefix("GOOG,1d,ok,fast=") && csv[2].hasPrefix("NOPE,,error,") && csv[3].hasPrefix("SYN0001,1d,ok,"))
        for symbol in ["GOOG", "SYN0001"] {
            #expect(FileManager.default.fileExists(atPath: "\(out)/\(symbol)/sweep.csv"))
            #expect(FileManager.default.fileExists(atPath: "\(out)/\(symbol)/report.html"))
        }
        let none = try BT.run(["sweep", "ma-cross", "--symbols", "NOPE,NADA", "--db", db, "--grid", "fast=5",
                               "--out", out + "2"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("no symbol could be swept"))
    }

    @Test("screen ranks symbols, reports the missing one, and writes screen.csv/screen.md")
    func screen() throws {
        let db = try Self.store()
        let out = BT.scratchDirectory().appendingPathComponent("scr").path
        let r = try BT.run(["screen", "ma-cross", "--symbols", "GOOG,SYN0001,NOPE,SYN0002", "--db", db,
                            "--rank", "total_return", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("3 ranked by total_return"))
        #expect(r.stderr.isEmpty, "no progress bar when stderr is not a terminal")
        #expect(r.stdout.contains("NOPE: no candles stored for symbol 'NOPE'"))
        let csv = try Self.lines(out + "/screen.csv")
        #expect(csv.count == 5)
        #expect(csv[0].hasPrefix("rank,symbol,timeframe,status,error,start,end,bars,"))
        #expect(csv[1].hasPrefix("1,"))
        #expect(csv[4].hasPrefix(",NOPE,,error,"))
        let md = try String(contentsOfFile: out + "/screen.md", encoding: .utf8)
        #expect(md.contains("## Failed"))
        #expect(md.contains("| NOPE |"))
        #expect(r.stdout.contains("screen.csv, screen.md and report.html"))
        let page = try Self.pageData(out + "/report.html")
        let rows = try #require((page["screen"] as? [String: Any])?["rows"] as? [[String: Any]])
        #expect(rows.map { $0["symbol"] as? String } == ["GOOG", "SYN0001", "SYN0002", "NOPE"]
                || rows.last?["symbol"] as? String == "NOPE")
        #expect(rows.filter { $0["chart"] is [String: Any] }.count == 3 && rows.last?["chart"] is NSNull)
        #expect(rows.last?["status"] as? String == "error")

        let all = try BT.run(["screen", "rsi", "--all", "--db", db, "--out", out + "2", "--param", "period=700", "--min-trades", "0"])
        #expect(all.status == 0)
        #expect(all.stdout.contains("4 symbols, 1 ranked"))   // 600-bar synthetics cannot warm up RSI 700
        // By default a row needs 10 trades to rank: GOOG's none follow, marked.
        let thin = try BT.run(["screen", "rsi", "--all", "--db", db, "--out", out + "3", "--param", "period=700"])
        #expect(thin.status == 0 && thin.stdout.contains("4 symbols, 0 ranked by sharpe, 1 with fewer than 10 trades, 3 failed"))
        #expect(thin.stdout.contains("\nfew  GOOG ") && thin.stdout.contains("few: fewer than 10 trades, not ranked"), "\(thin.stdout)")
    }

    @Test("screen usage errors exit 2", arguments: [
        ([String](), "give --symbols"),
        (["--symbols", "GOOG", "--all"], "not both"),
        (["--symbols", "GOOG", "--rank", "sharp"], "unknown statistic"),
    ])
    func screenErrors(extra: [String], message: String) throws {
        let db = try Self.store()
        let r = try BT.run(["screen", "ma-cross", "--db", db, "--out", BT.scratchDirectory().path + "/x"] + extra)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    @Test("bench sweep and bench screen print their JSON shapes")
    func benches() throws {
        let s = try BT.run(["bench", "sweep", "--bars", "400", "--repeat", "1", "--json"])
        #expect(s.status == 0)
        #expect(s.stdout.hasPrefix("{\"bars\":400,\"combos\":2850,\"seconds\":"))
        let c = try BT.run(["bench", "screen", "--symbols", "4", "--bars", "300", "--repeat", "1", "--json"])
        #expect(c.status == 0)
        #expect(c.stdout.hasPrefix("{\"symbols\":4,\"bars\":300,\"seconds\":"))
    }
}
