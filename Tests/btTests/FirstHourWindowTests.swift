import Foundation
import Testing

/// Nothing silent and no misleading default in screens and date windows: a screen lists the series it left out or resampled, and `--from/--to` keep the
/// indicators' warm-up (the bars before the window are read, the window alone traded).
@Suite("bt screen's skipped and resampled series; --from/--to with warm-up")
struct FirstHourWindowTests {
    /// A store with a daily series DAY, an hourly round-the-clock series HOUR and a monthly
    /// series MONTH, each imported from a file written here.
    static func mixedStore() throws -> (dir: URL, db: String) {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        func bars(_ times: [String]) -> String {
            var text = "time,open,high,low,close,volume\n"
            for (k, t) in times.enumerated() {
                let c = 100 + 10 * sin(Double(k) / 7) + Double(k) * 0.01
                text += "\(t),\(c),\(c + 1),\(c - 1),\(c + 0.5),\(1000 + k)\n"
            }
            return text
        }
        let start = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
        func iso(_ d: Date, _ format: String) -> String {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = format
            return f.string(from: d)
        }
        let days = (0..<300).map { iso(start.addingTimeInterval(Double($0) * 86_400), "yyyy-MM-dd") }
        let hours = (0..<(24 * 120)).map { iso(start.addingTimeInterval(Double($0) * 3_600), "yyyy-MM-dd'T'HH:mm:ss'Z'") }
        let months = (0..<48).map { k in String(format: "%04d-%02d-01", 2016 + k / 12, k % 12 + 1) }
        for (name, text) in [("DAY", bars(days)), ("HOUR", bars(hours)), ("MONTH", bars(months))] {
            let path = dir.appendingPathComponent("\(name).csv").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let r = try BT.run(["data", "import", path, "--db", db])
            #expect(r.status == 0, "\(r.stderr)")
        }
        return (dir, db)
    }

    static let skipped = "Skipped (not screened):\n  MONTH: stored only at 1M, coarser than 1d; bars cannot be split\n"
    static let resampled = "Resampled (screened from finer bars):\n  HOUR@1d: 1d bars made from its 1h bars, in UTC days\n"

    @Test("a screen at --timeframe lists the series it left out and the ones it resampled, with why: terminal, screen.md, report.html, --json")
    func screenNotes() throws {
        let (dir, db) = try Self.mixedStore()
        let out = dir.appendingPathComponent("scr").path
        let r = try BT.run(["screen", "ma-cross", "--all", "--timeframe", "1d", "--min-trades", "0", "--out", out, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Screen ma-cross: 2 symbols"), "\(r.stdout)")
        #expect(r.stdout.contains(Self.skipped + "\n" + Self.resampled), "\(r.stdout)")
        let md = try String(contentsOfFile: out + "/screen.md", encoding: .utf8)
        #expect(md.contains("## Skipped (not screened)\n\n| series | why |\n|---|---|\n"
                            + "| MONTH | stored only at 1M, coarser than 1d; bars cannot be split |\n"), "\(md)")
        #expect(md.contains("| HOUR@1d | 1d bars made from its 1h bars, in UTC days |"), "\(md)")
        // report.html: a table each, the texts as screen.md has them (escaped as JSON in the page).
        let page = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(page.contains(#""id":"skipped","title":"Skipped (not screened)","columns":["series","why"]"#), "skipped table")
        #expect(page.contains(#"["MONTH","stored only at 1M, coarser than 1d; bars cannot be split"]"#), "skipped row")
        #expect(page.contains(#""id":"resampled","title":"Resampled (screened from finer bars)""#), "resampled table")
        #expect(page.contains(#"["HOUR@1d","1d bars made from its 1h bars, in UTC days"]"#), "resampled row")

        let c = try BT.run(["screen", "--all", "--timeframe", "1d", "--where", "close > sma(close, 20)", "--db", db])
        #expect(c.status == 0 && c.stdout.contains(Self.skipped + "\n" + Self.resampled), "\(c.stdout)\(c.stderr)")
        let json = try BT.run(["screen", "--all", "--timeframe", "1d", "--where", "close > 0", "--json", "--db", db])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let skippedRows = try #require(object["skipped"] as? [[String: String]])
        let resampledRows = try #require(object["resampled"] as? [[String: String]])
        #expect(skippedRows.map { $0["series"] } == ["MONTH"])
        #expect(resampledRows.map { $0["series"] } == ["HOUR@1d"])
        #expect(resampledRows.first?["reason"] == "1d bars made from its 1h bars, in UTC days")

        // Named series that need no resampling say nothing; JSON gains no keys.
        let plain = try BT.run(["screen", "--symbols", "DAY", "--where", "close > 0", "--json", "--db", db])
        #expect(plain.status == 0 && !plain.stdout.contains("skipped") && !plain.stdout.contains("resampled"), "\(plain.stdout)")
    }

    @Test("a sharded screen merges into the same notes as one process")
    func screenNotesMerged() throws {
        let (dir, db) = try Self.mixedStore()
        let args = ["screen", "ma-cross", "--all", "--timeframe", "1d", "--min-trades", "0", "--db", db]
        let one = dir.appendingPathComponent("one").path, parts = dir.appendingPathComponent("parts").path
        let merged = dir.appendingPathComponent("merged").path
        #expect(try BT.run(args + ["--out", one]).status == 0)
        for k in 0..<2 { #expect(try BT.run(args + ["--shard", "\(k)/2", "--out", parts]).status == 0) }
        let m = try BT.run(["merge", parts, "--out", merged, "--db", db])
        #expect(m.status == 0 && m.stdout.contains(Self.resampled), "\(m.stdout)\(m.stderr)")
        let a = try String(contentsOfFile: one + "/screen.md", encoding: .utf8)
        let b = try String(contentsOfFile: merged + "/screen.md", encoding: .utf8)
        #expect(a.replacingOccurrences(of: one, with: "OUT") == b.replacingOccurrences(of: merged, with: "OUT"))
    }

    @Test("--from computes signals from the bars before it: the window's signals are the full series' signals there")
    func signalsKeepWarmUp() throws {
        let (_, db) = try Self.mixedStore()
        let full = try BT.run(["signals", "ma-cross", "DAY", "--param", "slow=50", "--db", db])
        let window = try BT.run(["signals", "ma-cross", "DAY", "--param", "slow=50", "--from", "2020-06-01", "--to", "2020-07-15",
                                 "--db", db])
        #expect(full.status == 0 && window.status == 0, "\(full.stderr)\(window.stderr)")
        let rows = full.stdout.split(separator: "\n").filter { line in
            line.hasPrefix("time") || (line.prefix(10) >= "2020-06-01" && line.prefix(10) <= "2020-07-15")
        }
        #expect(window.stdout.split(separator: "\n") == rows)
        #expect(window.stdout.split(separator: "\n").dropFirst().contains { $0.hasSuffix(",1,0") || $0.hasSuffix(",0,1") },
                "the window holds a signal, so the comparison says something")
    }

    @Test("a condition screen over --from/--to reads the bars before --from as warm-up: the values of the whole series")
    func conditionScreenKeepsWarmUp() throws {
        let (_, db) = try Self.mixedStore()
        let screen = ["screen", "--symbols", "DAY", "--where", "close > 0", "--show", "sma(close, 50)", "--show", "rsi(close, 14)",
                      "--json", "--db", db]
        let window = try BT.run(screen + ["--from", "2020-06-01", "--to", "2020-06-10"])
        let whole = try BT.run(screen + ["--at", "2020-06-10"])
        #expect(window.status == 0 && whole.status == 0, "\(window.stderr)\(whole.stderr)")
        #expect(window.stdout == whole.stdout && window.stdout.contains("\"sma(close, 50)\":1"), "\(window.stdout)")
        // A range without bars is still an error row.
        let empty = try BT.run(screen + ["--from", "2021-06-01"])
        #expect(empty.status == 2 && empty.stderr.contains("DAY: no bars in the requested range"), "\(empty.stderr)")
    }

    @Test("a window shorter than the indicators runs on their warm-up and says so; the run trades the window only")
    func runKeepsWarmUp() throws {
        let (_, db) = try Self.mixedStore()
        let window = ["--from", "2020-06-01", "--to", "2020-06-20"]
        let r = try BT.run(["run", "ma-cross", "DAY"] + window + ["--no-chart", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("2020-06-01T00:00:00Z to 2020-06-20T00:00:00Z (20 bars; indicators warmed up on the 152 bars "
                                  + "from 2020-01-01T00:00:00Z)"), "\(r.stdout)")
        let json = try BT.run(["run", "ma-cross", "DAY"] + window + ["--json", "--db", db])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["bars"] as? Int == 20)
        #expect(object["warm_up_bars"] as? Int == 152)
        #expect(object["warm_up_first"] as? String == "2020-01-01T00:00:00Z")
        // Without --from nothing is warm-up and the JSON keeps its keys.
        let all = try BT.run(["run", "ma-cross", "DAY", "--json", "--db", db])
        #expect(all.status == 0 && !all.stdout.contains("warm_up"), "\(all.stdout)")
        // Sweeps and portfolios read the same warm-up.
        let sweep = try BT.run(["sweep", "ma-cross", "DAY", "--grid", "slow=30,40", "--out", BT.scratchDirectory().path + "/s"]
                               + window + ["--db", db])
        #expect(sweep.status == 0 && sweep.stdout.contains("2 combinations, 2 ran, 0 failed"), "\(sweep.stdout)\(sweep.stderr)")
        let portfolio = try BT.run(["portfolio", "ma-cross", "--symbols", "DAY,HOUR", "--timeframe", "1d", "--json",
                                    "--from", "2020-03-01", "--to", "2020-03-20", "--db", db])
        #expect(portfolio.status == 0, "\(portfolio.stderr)")
        let p = try #require(try JSONSerialization.jsonObject(with: Data(portfolio.stdout.utf8)) as? [String: Any])
        #expect(p["bars"] as? Int == 20 && p["warm_up_bars"] as? Int == 60, "\(portfolio.stdout.prefix(600))")
    }

    @Test("a window without bars names the bound that emptied it: --from after the last bar, --to before the first")
    func emptyWindowNamesTheBound() throws {
        let (_, db) = try Self.mixedStore()
        for (command, bound, value) in [(["run", "ma-cross", "DAY"], "--from", "2030-01-01"), (["run", "ma-cross", "DAY"], "--to", "1999-01-01"),
                                        (["portfolio", "ma-cross", "--symbols", "DAY"], "--from", "2030-01-01")] {
            let r = try BT.run(command + [bound, value, "--db", db])
            #expect(r.status == 2 && r.stderr.contains("\(bound): no candles for 'DAY' in the requested range"), "\(r.stderr)")
        }
    }
}
