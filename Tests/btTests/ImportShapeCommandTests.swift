import Foundation
import Testing
import TestSupport

/// `bt data import` on the shapes real files come in, and series named by symbol and timeframe.
@Suite("bt data import: stdin, gzip, bad rows, updates, series identity, close-only, sessions")
struct ImportShapeCommandTests {
    static func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let daily = "date,open,high,low,close,volume\n" + (2...9).map { "2024-01-0\($0),10,11,9,10.5,100\n" }.joined()

    @Test("'-' reads standard input and gzip files are recognised by content; both export back the same")
    func stdinAndGzip() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        let plain = try Self.write(Self.daily, "prices.csv", in: dir)
        let r = try BT.shell("\(BT.quoted(BT.binary.path)) data import - --symbol IN --db \(BT.quoted(db)) < \(BT.quoted(plain))")
        #expect(r.status == 0 && r.stdout.contains("IN 1d: 8 bars added"), "\(r.stderr)")
        _ = try BT.shell("gzip -k -n \(BT.quoted(plain)) && mv \(BT.quoted(plain)).gz \(BT.quoted(dir.path))/zipped.data")
        let z = try BT.run(["data", "import", dir.appendingPathComponent("zipped.data").path, "--symbol", "GZ", "--db", db])
        #expect(z.status == 0, "\(z.stderr)")
        let a = try BT.run(["data", "export", "IN", "--db", db]), b = try BT.run(["data", "export", "GZ", "--db", db])
        #expect(a.stdout == b.stdout && a.stdout.hasPrefix("time,open,high,low,close,volume\n2024-01-02T00:00:00Z,10.0,11.0,9.0,10.5,100.0\n"))
        // A truncated gzip file: exit 2, words only, the store untouched.
        let bytes = try Data(contentsOf: dir.appendingPathComponent("zipped.data"))
        let broken = dir.appendingPathComponent("broken.csv.gz")
        try bytes.prefix(bytes.count - 10).write(to: broken)
        let e = try BT.run(["data", "import", broken.path, "--db", db])
        #expect(e.status == 2 && e.stderr.contains("gzip") && e.stderr.unicodeScalars.allSatisfy { $0.value == 10 || ($0.value >= 32 && $0.value < 127) },
                "\(e.stderr)")
    }

    @Test("null rows: strict by default with file:line, --skip-bad-rows reports count and lines")
    func badRows() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        let text = Self.daily + "2024-01-10,null,null,null,null,null\n2024-01-11,10,11,9,10.5,100\n2024-01-12,10,9,9,10.5,100\n"
        let path = try Self.write(text, "y.csv", in: dir)
        let strict = try BT.run(["data", "import", path, "--db", db])
        #expect(strict.status == 2 && strict.stderr.contains("y.csv:10:") && !FileManager.default.fileExists(atPath: db), "\(strict.stderr)")
        let skip = try BT.run(["data", "import", path, "--skip-bad-rows", "--db", db])
        #expect(skip.status == 0 && skip.stdout.contains("Y 1d: 9 bars added"), "\(skip.stdout)\(skip.stderr)")
        #expect(skip.stderr.contains("2 rows skipped (lines 10, 12; line 10: open 'null' is not a number)"), "\(skip.stderr)")
    }

    @Test("a file that changes stored bars is refused with the count and largest change, unless --update")
    func updates() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        _ = try BT.run(["data", "import", try Self.write(Self.daily, "a.csv", in: dir), "--symbol", "A", "--db", db])
        let before = try BT.run(["data", "export", "A", "--db", db]).stdout
        let changed = Self.daily.replacingOccurrences(of: "2024-01-05,10,11,9,10.5", with: "2024-01-05,10,11,9,10.8")
        let other = try Self.write(changed, "b.csv", in: dir)
        let r = try BT.run(["data", "import", other, "--symbol", "A", "--db", db])
        #expect(r.status == 2, "\(r.stdout)")
        #expect(r.stderr.contains("A 1d: the file changes 1 stored bar; the largest change is close at 2024-01-05T00:00:00Z from 10.5 to 10.8")
                    && r.stderr.contains("(to replace the stored bars with the file's, use --update: bt data import"), "\(r.stderr)")
        #expect(try BT.run(["data", "export", "A", "--db", db]).stdout == before)
        let u = try BT.run(["data", "import", other, "--symbol", "A", "--update", "--db", db])
        #expect(u.status == 0 && u.stdout.contains("1 updated; largest change close"), "\(u.stdout)\(u.stderr)")
    }

    @Test("a symbol at two timeframes must be chosen; summary shows both; screen --all names the ambiguous")
    func seriesIdentity() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        _ = try BT.run(["data", "import", try Self.write(Self.daily, "a.csv", in: dir), "--symbol", "A", "--db", db])
        let hourly = "time,open,high,low,close,volume\n" + (0..<30).map { "2024-02-01T\($0 < 10 ? "0" : "")\($0 % 24):00:00Z,1,2,0.5,1.5,3\n" }.prefix(24).joined()
        let h = try BT.run(["data", "import", try Self.write(hourly, "h.csv", in: dir), "--symbol", "A", "--db", db])
        #expect(h.status == 0, "\(h.stderr)")
        let ambiguous = try BT.run(["data", "export", "A", "--db", db])
        #expect(ambiguous.status == 2 && ambiguous.stderr.contains("'A' is stored at several timeframes (1h, 1d); choose one as A@1h or A@1d (use --timeframe)"),
                "\(ambiguous.stderr)")
        let byName = try BT.run(["data", "export", "a@1h", "--db", db])
        let byFlag = try BT.run(["data", "export", "A", "--timeframe", "1h", "--db", db])
        #expect(byName.status == 0 && byName.stdout == byFlag.stdout && byName.stdout.split(separator: "\n").count == 25)
        let summary = try BT.run(["data", "summary", "--db", db])
        #expect(summary.stdout.split(separator: "\n").count == 3 && summary.stdout.contains("1h") && summary.stdout.contains("1d"))
        let screen = try BT.run(["screen", "--all", "--where", "close > 0", "--db", db])
        #expect(screen.status == 2 && screen.stderr.contains("1 symbol is stored at several timeframes: A (1h, 1d)"), "\(screen.stderr)")
        let daily = try BT.run(["screen", "--all", "--timeframe", "1d", "--where", "close > 0", "--json", "--db", db])
        #expect(daily.status == 0 && daily.stdout.contains("\"timeframe\":\"1d\""), "\(daily.stdout)\(daily.stderr)")
    }

    @Test("data summary --timeframe skips, with a warning, the series it cannot resample; none left is exit 2")
    func summarySkipsWhatCannotResample() throws {
        let db = try RunCommandTests.store()   // GOOG daily, EURUSD hourly
        let hourly = try BT.run(["data", "summary", "--timeframe", "1h", "--db", db])
        #expect(hourly.status == 0, "\(hourly.stderr)")
        #expect(hourly.stdout.contains("EURUSD  1h") && !hourly.stdout.contains("GOOG"), "\(hourly.stdout)")
        #expect(hourly.stderr == "warning: skipped GOOG: cannot make 1h candles for 'GOOG' from its stored 1d series\n", "\(hourly.stderr)")
        let json = try BT.run(["data", "summary", "--timeframe", "1h", "--json", "--db", db])
        #expect(json.status == 0 && json.stdout.hasPrefix("[{\"symbol\":\"EURUSD\"") && json.stderr.contains("skipped GOOG"))
        let none = try BT.run(["data", "summary", "--timeframe", "1m", "--db", db])
        #expect(none.status == 2 && none.stderr.contains("no stored series can be shown at 1m:") && none.stderr.contains("EURUSD")
                && none.stderr.contains("GOOG"), "\(none.stderr)")
        let named = try BT.run(["data", "summary", "GOOG", "--timeframe", "1h", "--db", db])
        #expect(named.status == 2 && named.stderr.contains("cannot make 1h candles for 'GOOG'"), "\(named.stderr)")
    }

    @Test("close-only: atr, the synthetic book and expressions reading high, low or volume refuse instead of inventing them")
    func closeOnly() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        let text = "Date,Close\n" + (1...40).map { "2024-02-\($0 <= 29 ? String(format: "%02d", $0) : "29"),\(100 + $0)\n" }.prefix(29).joined()
        let r = try BT.run(["data", "import", try Self.write(text, "c.csv", in: dir), "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let atr = try BT.run(["indicators", "C", "--ind", "atr:14", "--db", db])
        #expect(atr.status == 2 && atr.stderr.contains("atr needs each bar's high and low, but C is close-only"), "\(atr.stderr)")
        let run = try BT.run(["run", "ma-cross", "C", "--param", "fast=2", "--param", "slow=5", "--db", db])
        #expect(run.status == 2 && run.stderr.contains("synthetic book") && run.stderr.contains("--depth fixed"), "\(run.stderr)")
        let sma = try BT.run(["indicators", "C", "--ind", "sma:5", "--db", db])
        #expect(sma.status == 0, "\(sma.stderr)")
        // Expressions that read the range or the volume directly refuse as well; closes are fine.
        let exit = ["--exit", "close < sma(close, 5)", "--db", db]
        let range = try BT.run(["signals", "C", "--entry", "hl2 > close[1]"] + exit)
        #expect(range.status == 2 && range.stderr.contains("an expression reading high and low needs each bar's high and low"), "\(range.stderr)")
        let volume = try BT.run(["run", "C", "--entry", "volume > 0", "--depth", "none"] + exit)
        #expect(volume.status == 2 && volume.stderr.contains("an expression reading volume needs volume, but C has none"), "\(volume.stderr)")
        let closes = try BT.run(["run", "C", "--entry", "close > sma(close, 5)", "--depth", "none"] + exit)
        #expect(closes.status == 0, "\(closes.stderr)")
        let export = try BT.run(["data", "export", "C", "--db", db])
        #expect(export.stdout.contains("2024-02-01T00:00:00Z,101.0,101.0,101.0,101.0,\n"))
    }

    @Test("--tz and --session: stored in UTC, resampled to session hours across the DST change")
    func session() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        var text = "Datetime,Open,High,Low,Close,Volume\n"
        for day in [8, 11] {
            for k in 0..<13 {
                let minutes = 9 * 60 + 30 + k * 30
                text += "2024-03-\(String(format: "%02d", day)) \(String(format: "%02d:%02d", minutes / 60, minutes % 60)),1,2,0.5,1.5,1\n"
            }
        }
        let r = try BT.run(["data", "import", try Self.write(text, "ny.csv", in: dir), "--tz", "America/New_York",
                            "--session", "09:30-16:00", "--timeframe", "30m", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let hours = try BT.run(["data", "export", "NY", "--timeframe", "1h", "--db", db]).stdout.split(separator: "\n")
        #expect(hours.count == 15 && hours[1].hasPrefix("2024-03-08T14:30:00Z") && hours[8].hasPrefix("2024-03-11T13:30:00Z"),
                "\(hours)")
        let days = try BT.run(["data", "export", "NY", "--timeframe", "1d", "--db", db]).stdout
        #expect(days.contains("2024-03-08T00:00:00Z,1.0,2.0,0.5,1.5,13.0\n2024-03-11T00:00:00Z"), "\(days)")
        // Aggregating at import follows the session as well.
        let direct = try BT.run(["data", "import", dir.appendingPathComponent("ny.csv").path, "--symbol", "NYH", "--tz", "America/New_York",
                                 "--session", "09:30-16:00", "--timeframe", "1h", "--db", db])
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(try BT.run(["data", "export", "NYH", "--db", db]).stdout.split(separator: "\n") == hours)
        let bad = try BT.run(["data", "import", dir.appendingPathComponent("ny.csv").path, "--tz", "Mars/Olympus", "--db", db])
        #expect(bad.status == 2 && bad.stderr.contains("--tz 'Mars/Olympus'"), "\(bad.stderr)")
    }
}
