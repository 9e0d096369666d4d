import Foundation
import Testing

/// Rules that read other series with `@` end to end: `bt signals` and `bt run` against the
/// pandas goldens (`Tests/Fixtures/timeframes`), the run's warning, `--max-stale`, sweeps of a
/// parameter inside `@`, strategy files, and bad input (exit 2 with a caret).
@Suite("bt with rules reading other series (@)")
struct OtherSeriesCommandTests {
    /// GOOG and EURUSD, and GOOGX: GOOG without every 7th bar from the 4th (other holidays).
    static func store() throws -> String {
        let db = try RunCommandTests.store()
        let lines = try String(contentsOfFile: "data/GOOG.csv", encoding: .utf8).split(separator: "\n")
        let kept = [lines[0]] + lines.dropFirst().enumerated().filter { $0.offset % 7 != 3 }.map(\.element)
        let file = BT.scratchDirectory().appendingPathComponent("GOOGX.csv")
        try (kept.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let r = try BT.run(["data", "import", file.path, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    /// A golden column: nil where NaN.
    static func golden(_ dataset: String, _ column: String) throws -> [Double?] {
        try golden(file: "\(dataset)_goldens", column)
    }

    /// A column of `Tests/Fixtures/timeframes/<file>.csv`: nil where empty.
    static func golden(file: String, _ column: String) throws -> [Double?] {
        let lines = try String(contentsOfFile: "Tests/Fixtures/timeframes/\(file).csv", encoding: .utf8).split(separator: "\n")
        let k = try #require(lines[0].split(separator: ",").firstIndex(of: Substring(column)))
        return lines.dropFirst().map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            return f[k].isEmpty ? nil : Double(f[k])!
        }
    }

    /// The entry column of `bt signals`' CSV.
    static func entries(_ csv: String) -> [Bool] {
        csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[1] == "1" }
    }

    static func closes(_ file: String) throws -> [Double] {
        try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").dropFirst().map { Double($0.split(separator: ",")[4])! }
    }

    @Test("bt signals with a daily filter on hourly EURUSD fires where pandas' filter is true")
    func dailyFilter() throws {
        let db = try Self.store()
        let r = try BT.run(["signals", "EURUSD", "--entry", "close > sma(close, 3)@1d", "--exit", "close < 0", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let expected = try Self.golden("eurusd", "filter_1d").map { $0 == 1 }
        #expect(Self.entries(r.stdout) == expected)
        #expect(expected.filter { $0 }.count > 1000)
    }

    @Test("bt signals and bt run of GOOG against GOOGX: pandas' as-of join, the warning's count, and --max-stale")
    func twoSymbols() throws {
        let db = try Self.store()
        let close = try Self.closes("data/GOOG.csv")
        let rules = ["--entry", "close >= close@GOOGX", "--exit", "close < close@googx"]
        for (column, extra) in [("close_x", [String]()), ("close_x_stale3d", ["--max-stale", "3d"])] {
            let other = try Self.golden("goog", column)
            let s = try BT.run(["signals", "GOOG", "--db", db] + rules + extra)
            #expect(s.status == 0, "\(s.stderr)")
            #expect(Self.entries(s.stdout) == other.indices.map { i in other[i].map { close[i] >= $0 } ?? false }, "\(column)")
            let run = try BT.run(["run", "GOOG", "--json", "--db", db] + rules + extra)
            #expect(run.status == 0, "\(run.stderr)")
            let missing = other.filter { $0 == nil }.count
            let warnings = try #require(try RunCommandTests.json(run.stdout)["warnings"] as? [[String: Any]])
            let message = warnings.first { $0["kind"] as? String == "no_closed_bar" }?["message"] as? String
            #expect(message?.hasPrefix("\(missing) bars had no closed GOOGX@1d bar") == true, "\(warnings)")
        }
    }

    @Test("bt sweep grids a parameter inside @, and a strategy file reads @")
    func sweepAndFile() throws {
        let db = try Self.store()
        let out = BT.scratchDirectory().appendingPathComponent("sweep")
        let r = try BT.run(["sweep", "EURUSD", "--entry", "close > sma(close, $n)@1d", "--exit", "close < sma(close, $n)@1d",
                            "--grid", "n=2,5", "--out", out.path, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("2 combinations, 2 ran, 0 failed"), "\(r.stdout)")
        let file = BT.scratchDirectory().appendingPathComponent("f.bt")
        try "[rules]\nentry = close > sma(close, 10)@1w and close@GOOGX > 0\nexit = close < sma(close, 10)@1w\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let f = try BT.run(["run", file.path, "GOOG", "--db", db])
        #expect(f.status == 0 && f.stdout.contains("warning: 2 bars had no closed GOOG@1w bar"), "\(f.stderr)")
    }

    @Test("a stock with a session: the hour that ends the session sees the day's close (from the store's session)")
    func session() throws {
        let db = BT.scratchStore()
        var rows = ["time,open,high,low,close,volume"]
        var price = 100.0
        for day in ["2024-07-01", "2024-07-02"] {
            for m in 570..<960 {
                price += 0.01
                let p = String(format: "%.2f", price)
                rows.append("\(day) \(String(format: "%02d:%02d", m / 60, m % 60)):00,\(p),\(p),\(p),\(p),1")
            }
        }
        let file = BT.scratchDirectory().appendingPathComponent("NYX.csv")
        try (rows.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let i = try BT.run(["data", "import", file.path, "--tz", "America/New_York", "--session", "09:30-16:00", "--db", db])
        #expect(i.status == 0, "\(i.stderr)")
        // The close rises every minute: only a bar that sees today's close is at or above it.
        let r = try BT.run(["signals", "NYX", "--timeframe", "1h", "--entry", "close >= close@1d", "--exit", "close < 0", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.entries(r.stdout) == [false, false, false, false, false, false, true] + Array(repeating: true, count: 7), "\(r.stdout)")
    }

    @Test("bad @ is exit 2 naming the expression and the keys", arguments: [
        ("close > close@GOOGY", "--entry: no candles stored for 'GOOGY'; did you mean '",
         "\n  close > close@GOOGY\n               ^^^^^^\n"),
        ("close@1h > 0", "--entry: '@1h' is a lower timeframe than the run's (1d)", "\n  close@1h > 0\n       ^^^\n"),
        ("entry_price@1d > 0", "--entry: 'entry_price' is a position series", "\n  entry_price@1d > 0\n  ^^^^^^^^^^^\n"),
        ("close > close@EURUSD", "--entry: no EURUSD@1d bar closed within the run's bars (2017-04-19 to 2018-02-07)",
         "\n  close > close@EURUSD\n               ^^^^^^^\n"),
    ])
    func refused(entry: String, message: String, caret: String) throws {
        let db = try Self.store()
        let r = try BT.run(["run", "GOOG", "--entry", entry, "--exit", "close < 0", "--db", db])
        #expect(r.status == 2 && r.stdout.isEmpty)
        #expect(r.stderr.contains("error: " + message), "\(r.stderr)")
        #expect(r.stderr.contains(caret), "\(r.stderr)")
    }

    @Test("a bad --max-stale is exit 2 naming the option; without @ it is warned unused")
    func badMaxStale() throws {
        let db = try Self.store()
        let r = try BT.run(["run", "GOOG", "--entry", "close@GOOGX > 0", "--exit", "close < 0", "--max-stale", "3 days", "--db", db])
        #expect(r.status == 2 && r.stderr.contains("--max-stale"), "\(r.stderr)")
        let unused = try BT.run(["run", "GOOG", "--entry", "close > open", "--exit", "close < open", "--max-stale", "3d", "--db", db])
        #expect(unused.status == 0 && unused.stderr.contains("warning: --max-stale has no effect"), "\(unused.stderr)")
    }
}
