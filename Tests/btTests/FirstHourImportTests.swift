import Foundation
import Testing

/// `bt data import` on the files a switching user brings in the first hour: nothing
/// happens to their times without a word, and each refusal names the option and the command
/// line that reads the file. Every file is written here in the shape of a real vendor's (never a
/// copy of one).
@Suite("bt data import: the first hour of a switching user")
struct FirstHourImportTests {
    static func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Minute bars of `days` from `from` to `to` (minutes after midnight, `to` excluded), times
    /// as `time(day, minute)`; the last bar of each day has volume `lastVolume`.
    static func minutes(_ days: [String], from: Int, to: Int, lastVolume: Int = 100,
                        time: (String, Int) -> String = { "\($0) \(clock($1))" }) -> String {
        var text = "Datetime,Open,High,Low,Close,Volume\n"
        for day in days {
            for m in from..<to { text += "\(time(day, m)),10,11,9,10.5,\(m == to - 1 ? lastVolume : 100)\n" }
        }
        return text
    }

    static func clock(_ m: Int) -> String { String(format: "%02d:%02d", m / 60, m % 60) }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// The command line an error offers after `use OPTION...: `, run with the tested binary.
    static func offered(_ stderr: String, after marker: String) throws -> BT.Result {
        let start = try #require(stderr.range(of: marker)?.upperBound, "no '\(marker)' in \(stderr)")
        let line = stderr[start...].prefix { $0 != "\n" && $0 != ";" }
        let command = line.hasSuffix(")") ? String(line.dropLast()) : String(line)
        #expect(command.hasPrefix("bt data import "), "\(command)")
        return try BT.shell(BT.quoted(BT.binary.path) + command.dropFirst(2))
    }

    // MARK: - Item 1: times without an offset

    @Test("naive intraday times: one warning per import, with --tz America/New_York for a 09:30-16:00 session")
    func naiveNewYork() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        let a = try Self.write(Self.minutes(["2024-03-04", "2024-03-05"], from: 570, to: 960), "a.csv", in: dir)
        let b = try Self.write(Self.minutes(["2024-03-06", "2024-03-07"], from: 570, to: 960), "b.csv", in: dir)
        let r = try BT.run(["data", "import", a, b, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let expected = "warning: times of day without an offset were read as UTC (\(a), \(b)); they look like the New York session "
            + "(09:30-16:00) in local time: if so, import with --tz America/New_York (and --session 09:30-16:00 to keep its hours)\n"
        #expect(r.stderr == expected, "\(r.stderr)")
        #expect(Self.count("read as UTC", in: r.stderr) == 1)
        // Given the zone, the times are local and nothing is said.
        let zoned = try BT.run(["data", "import", a, "--symbol", "Z", "--tz", "America/New_York", "--db", db])
        #expect(zoned.status == 0 && zoned.stderr.isEmpty, "\(zoned.stderr)")
    }

    @Test("naive times of London and of a 24-hour market; none for offsets, epochs and daily bars")
    func naiveOthers() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        let london = try Self.write(Self.minutes(["2024-03-04"], from: 480, to: 990), "lse.csv", in: dir)
        let l = try BT.run(["data", "import", london, "--db", db])
        #expect(l.status == 0 && l.stderr.contains("the London session (08:00-16:30)") && l.stderr.contains("--tz Europe/London"),
                "\(l.stderr)")
        var hourly = "time,open,high,low,close,volume\n"
        for h in 0..<72 { hourly += "2024-03-0\(4 + h / 24)T\(Self.clock(h % 24 * 60)):00,1,2,0.5,1.5,3\n" }
        let crypto = try BT.run(["data", "import", try Self.write(hourly, "btc.csv", in: dir), "--db", db])
        #expect(crypto.status == 0, "\(crypto.stderr)")
        #expect(crypto.stderr.hasSuffix("were read as UTC (\(dir.path)/btc.csv); if they are local times, import with --tz ZONE\n"),
                "\(crypto.stderr)")
        let silent: [(String, String)] = [
            ("utc.csv", Self.minutes(["2024-03-04"], from: 570, to: 960) { "\($0)T\(Self.clock($1)):00Z" }),
            ("offset.csv", Self.minutes(["2024-03-04"], from: 570, to: 960) { "\($0)T\(Self.clock($1)):00-05:00" }),
            ("epoch.csv", Self.minutes(["2024-03-04"], from: 570, to: 960) { _, m in String(1_709_510_400 + m * 60) }),
            ("daily.csv", "Date,Open,High,Low,Close,Volume\n" + (4...8).map { "2024-03-0\($0) 00:00:00,1,2,0.5,1.5,3\n" }.joined()),
        ]
        for (name, text) in silent {
            let r = try BT.run(["data", "import", try Self.write(text, name, in: dir), "--db", db])
            #expect(r.status == 0 && r.stderr.isEmpty, "\(name): \(r.stderr)")
        }
    }

    // MARK: - Item 2: bars stamped at their end, and sessions

    @Test("end stamps: said with the --stamp end hint; --session says how many bars it leaves out; --stamp end keeps the close")
    func endStamps() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        // pyqstrat-style minutes of 2023-01-03 and 04, 09:31 ... 16:00 local, the closing auction in the 16:00 bar.
        let path = try Self.write(Self.minutes(["2023-01-03", "2023-01-04"], from: 571, to: 961, lastVolume: 1_630_000), "nvda.csv", in: dir)
        let session = ["--tz", "America/New_York", "--session", "09:30-16:00", "--db", db]
        let plain = try BT.run(["data", "import", path, "--symbol", "START"] + session)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("warning: \(path): the bars of each day run from 09:31 to 16:00: the times look like the ends of the "
                                      + "bars, and bt stores each bar at its start; if they are ends, import with --stamp end"), "\(plain.stderr)")
        #expect(plain.stderr.contains("warning: START 1m: 2 of the file's 780 bars lie outside the session 09:30-16:00 (America/New_York): "
                                      + "stored, but bars resampled from this series leave them out"), "\(plain.stderr)")
        let lost = try BT.run(["data", "export", "START", "--timeframe", "1d", "--db", db]).stdout
        #expect(lost.contains("2023-01-03T00:00:00Z,10.0,11.0,9.0,10.5,38900.0\n"), "\(lost)")

        let end = try BT.run(["data", "import", path, "--symbol", "END", "--stamp", "end"] + session)
        #expect(end.status == 0 && end.stderr.isEmpty, "\(end.stderr)")
        let bars = try BT.run(["data", "export", "END", "--db", db]).stdout.split(separator: "\n")
        try #require(bars.count == 781, "\(bars.count) lines")
        #expect(bars[1].hasPrefix("2023-01-03T14:30:00Z") && bars[390].hasPrefix("2023-01-03T20:59:00Z"), "\(bars.prefix(2))")
        let days = try BT.run(["data", "export", "END", "--timeframe", "1d", "--db", db]).stdout
        #expect(days.contains("2023-01-03T00:00:00Z,10.0,11.0,9.0,10.5,1668900.0\n"), "\(days)")

        // Aggregated at import: the interval moved back is the file's (1m), not --timeframe's.
        let hourly = try BT.run(["data", "import", path, "--symbol", "ENDH", "--stamp", "end", "--timeframe", "1h"] + session)
        #expect(hourly.status == 0 && hourly.stderr.isEmpty, "\(hourly.stderr)")
        let h = try BT.run(["data", "export", "ENDH", "--db", db]).stdout.split(separator: "\n")
        #expect(h.count == 15 && h[1] == "2023-01-03T14:30:00Z,10.0,11.0,9.0,10.5,6000.0" && h[7].hasSuffix(",1632900.0"), "\(h)")
        let dropped = try BT.run(["data", "import", path, "--symbol", "STARTH", "--timeframe", "1h"] + session)
        #expect(dropped.stderr.contains("STARTH 1h: 2 of the file's 780 bars lie outside the session 09:30-16:00 (America/New_York): "
                                        + "left out of the 1h bars"), "\(dropped.stderr)")

        let bad = try BT.run(["data", "import", path, "--stamp", "middle", "--db", db])
        #expect(bad.status == 2 && bad.stderr.contains("--stamp 'middle': is not a bar stamp (valid: start end)"), "\(bad.stderr)")
        // Bars stamped at their start say nothing.
        let starts = try Self.write(Self.minutes(["2023-01-03"], from: 570, to: 960), "starts.csv", in: dir)
        let quiet = try BT.run(["data", "import", starts] + session)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test("a daily series imported with a session still resamples to weeks")
    func dailySession() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        let text = "Date,Open,High,Low,Close,Volume\n" + (1...12).map { "2024-01-\(String(format: "%02d", $0)),10,11,9,10.5,100\n" }.joined()
        let r = try BT.run(["data", "import", try Self.write(text, "d.csv", in: dir), "--tz", "America/New_York", "--session", "09:30-16:00",
                            "--db", db])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let weeks = try BT.run(["data", "export", "D", "--timeframe", "1w", "--db", db])
        #expect(weeks.status == 0 && weeks.stdout.split(separator: "\n").count == 3, "\(weeks.stdout)\(weeks.stderr)")
    }

    // MARK: - Item 3: long gaps

    @Test("bars added after a long gap are reported, on append and in one import; re-imports and holidays are not")
    func gaps() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        let utc: (String, Int) -> String = { "\($0)T\(Self.clock($1)):00Z" }
        let old = try Self.write(Self.minutes(["2019-06-28"], from: 870, to: 1260, time: utc), "old.csv", in: dir)
        let new = try Self.write(Self.minutes(["2023-01-03"], from: 870, to: 1260, time: utc), "new.csv", in: dir)
        _ = try BT.run(["data", "import", old, "--symbol", "AAPL", "--db", db])
        let gap = "no bars for 1284 days, from 2019-06-28T20:59:00Z to 2023-01-03T14:30:00Z"
        let append = try BT.run(["data", "import", new, "--symbol", "AAPL", "--db", db])
        #expect(append.status == 0 && append.stderr == "warning: AAPL 1m: \(gap) (\(new))\n", "\(append.stderr)")
        let again = try BT.run(["data", "import", new, "--symbol", "AAPL", "--db", db])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        let both = try BT.run(["data", "import", old, new, "--symbol", "BOTH", "--db", db])
        #expect(both.stderr == "warning: BOTH 1m: \(gap) (\(new))\n", "\(both.stderr)")
        // --update into a stored series: the file replaces a bar and adds bars after the gap.
        let later = try Self.write(Self.minutes(["2019-06-28", "2023-01-04"], from: 1259, to: 1260, lastVolume: 7, time: utc), "later.csv", in: dir)
        let update = try BT.run(["data", "import", later, "--symbol", "AAPL", "--timeframe", "1m", "--update", "--db", db])
        #expect(update.status == 0 && !update.stderr.contains("1284 days"), "\(update.stderr)")
        let fresh = try BT.run(["data", "import", later, "--symbol", "FRESH", "--timeframe", "1m", "--db", db])
        #expect(fresh.stderr.contains("FRESH 1m: no bars for 1286 days, from 2019-06-28T20:59:00Z to 2023-01-04T20:59:00Z"), "\(fresh.stderr)")
        // Daily bars: a 9-day holiday closure is no gap, a missing month is.
        let dates = ["2024-01-02", "2024-01-03", "2024-01-12", "2024-01-15", "2024-03-01", "2024-03-04"]
        let daily = "Date,Open,High,Low,Close,Volume\n" + dates.map { "\($0),10,11,9,10.5,100\n" }.joined()
        let d = try BT.run(["data", "import", try Self.write(daily, "d.csv", in: dir), "--timeframe", "1d", "--db", db])
        #expect(d.stderr == "warning: D 1d: no bars for 46 days, from 2024-01-15T00:00:00Z to 2024-03-01T00:00:00Z (\(dir.path)/d.csv)\n",
                "\(d.stderr)")
    }

    // MARK: - Item 4: refusals that name the fix

    @Test("several tickers in rows: the refusal names the column, --symbol-column and a command line that works")
    func tickersInRows() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        var text = "Ticker,Date,Open,High,Low,Close,Volume\n"
        for (k, ticker) in ["AAPL", "AMD", "MSFT"].enumerated() {
            for d in 2...9 { text += "\(ticker),2024-01-0\(d),10,20,9,1\(k).5,100\n" }
        }
        let path = try Self.write(text, "stocks.csv", in: dir)
        let r = try BT.run(["data", "import", path, "--symbol", "X", "--db", db])
        #expect(r.status == 2 && !FileManager.default.fileExists(atPath: db))
        #expect(r.stderr.contains("\(path):10: duplicate time 2024-01-02T00:00:00Z with values different from \(path):2; the file holds 3 "
                                  + "symbols in its column 'Ticker' (AAPL, AMD, MSFT) (to read one series per symbol, use --symbol-column "
                                  + "Ticker: bt data import \(path) --db \(db) --symbol-column Ticker)"), "\(r.stderr)")
        let fixed = try Self.offered(r.stderr, after: "use --symbol-column Ticker: ")
        #expect(fixed.status == 0 && fixed.stdout.contains("MSFT 1d: 8 bars added"), "\(fixed.stdout)\(fixed.stderr)")
    }

    @Test("Yahoo null rows: the refusal offers --skip-bad-rows; a file mostly bad does not")
    func nullRows() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        var text = "Date,Open,High,Low,Close,Adj Close,Volume\n"
        for d in 1...30 {
            text += d == 10 || d == 20 ? "2024-01-\(String(format: "%02d", d)),null,null,null,null,null,null\n"
                : "2024-01-\(String(format: "%02d", d)),10,11,9,10.5,10.5,100\n"
        }
        let path = try Self.write(text, "y.csv", in: dir)
        let r = try BT.run(["data", "import", path, "--db", db])
        #expect(r.status == 2 && r.stderr.contains("\(path):11: open 'null' is not a number (to import the rest and list the 2 bad rows of "
                                                   + "30, use --skip-bad-rows: bt data import \(path) --db \(db) --skip-bad-rows)"), "\(r.stderr)")
        let fixed = try Self.offered(r.stderr, after: "use --skip-bad-rows: ")
        #expect(fixed.status == 0 && fixed.stdout.contains("Y 1d: 28 bars added"), "\(fixed.stdout)\(fixed.stderr)")
        let mostlyBad = "Date,Open,High,Low,Close,Volume\n" + (1...9).map { "2024-01-0\($0),\($0 < 8 ? "null" : "1"),1,1,1,1\n" }.joined()
        let m = try BT.run(["data", "import", try Self.write(mostlyBad, "m.csv", in: dir), "--db", db])
        #expect(m.status == 2 && !m.stderr.contains("--skip-bad-rows"), "\(m.stderr)")
    }

    @Test("a wide panel of closes: the refusal offers --layout wide; a header of other columns does not")
    func widePanel() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        let text = "date,aapl,amd,msft\n" + (2...9).map { "2024-01-0\($0),1\($0),2\($0),3\($0)\n" }.joined()
        let path = try Self.write(text, "panel.csv", in: dir)
        let r = try BT.run(["data", "import", path, "--db", db])
        #expect(r.status == 2 && r.stderr.contains("missing required column 'close' (header has: date, aapl, amd, msft); the header names "
                                                   + "symbols (AAPL, AMD, MSFT), not prices: a wide panel of closes (to read one close "
                                                   + "series per column, use --layout wide: bt data import \(path) --db \(db) --layout wide)"),
                "\(r.stderr)")
        let fixed = try Self.offered(r.stderr, after: "use --layout wide: ")
        #expect(fixed.status == 0 && fixed.stdout.contains("AMD 1d: 8 bars added"), "\(fixed.stdout)\(fixed.stderr)")
        let prints = "time,price,qty\n2024-01-02T10:00:00Z,1,2\n"
        let p = try BT.run(["data", "import", try Self.write(prints, "p.csv", in: dir), "--db", db])
        #expect(p.status == 2 && !p.stderr.contains("--layout"), "\(p.stderr)")
    }

    // MARK: - Item 5: a second source of a stored ticker

    @Test("a second source is refused with --update and the way to keep both, --symbol-suffix, which works")
    func secondSource() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        let first = "Date,Open,High,Low,Close,Volume\n" + (2...9).map { "2024-01-0\($0),10,11,9,10.5,100\n" }.joined()
        _ = try BT.run(["data", "import", try Self.write(first, "aapl.csv", in: dir), "--db", db])
        let before = try BT.run(["data", "export", "AAPL", "--db", db]).stdout
        let other = try Self.write(first.replacingOccurrences(of: "10.5,100", with: "10.6,120"), "aapl.csv.2", in: dir)
        let r = try BT.run(["data", "import", other, "--symbol", "AAPL", "--db", db])
        #expect(r.status == 2, "\(r.stdout)")
        #expect(r.stderr.contains("AAPL 1d: the file changes 8 stored bars; the largest change is volume at 2024-01-02T00:00:00Z from 100.0 "
                                  + "to 120.0 (20%); nothing was written (to replace the stored bars with the file's, use --update: "
                                  + "bt data import \(other) --symbol AAPL --db \(db) --update; to keep both, the file's as AAPL_2, use "
                                  + "--symbol-suffix _2: bt data import \(other) --symbol AAPL --db \(db) --symbol-suffix _2)"), "\(r.stderr)")
        let kept = try Self.offered(r.stderr, after: "use --symbol-suffix _2: ")
        #expect(kept.status == 0 && kept.stdout.contains("AAPL_2 1d: 8 bars added"), "\(kept.stdout)\(kept.stderr)")
        #expect(try BT.run(["data", "export", "AAPL", "--db", db]).stdout == before)
        #expect(try BT.run(["data", "export", "AAPL_2", "--db", db]).stdout.contains("2024-01-02T00:00:00Z,10.0,11.0,9.0,10.6,120.0"))
    }

    @Test("--symbol-prefix, --symbol-suffix and --rename name what is stored, checked like every symbol")
    func naming() throws {
        let dir = BT.scratchDirectory(), db = dir.appendingPathComponent("s.sqlite").path
        var text = "Symbol,Date,Close\n"
        for s in ["AAPL", "BRK-B"] { for d in 2...6 { text += "\(s),2024-01-0\(d),1\(d)\n" } }
        let path = try Self.write(text, "two.csv", in: dir)
        let r = try BT.run(["data", "import", path, "--symbol-column", "Symbol", "--symbol-prefix", "y:", "--rename", "brk-b=BRK.B",
                            "--db", db])
        #expect(r.status == 0 && r.stdout.contains("Y:AAPL 1d: 5 bars added") && r.stdout.contains("Y:BRK.B 1d: 5 bars added"),
                "\(r.stdout)\(r.stderr)")
        let refusals: [([String], String)] = [
            (["--symbol-prefix", "_x"], "--symbol-prefix '_x': cannot start a symbol: it starts with '_'"),
            (["--symbol-suffix", " b"], "--symbol-suffix ' b': cannot end a symbol: it holds U+0020"),
            (["--symbol-suffix", String(repeating: "X", count: 31)], "would be stored as"),
            (["--rename", "MSFT=M"], "--rename 'MSFT=M': no file of this import holds MSFT (its symbols: AAPL, BRK-B)"),
            (["--rename", "AAPL=BRK-B"], "--rename: AAPL and BRK-B would both be stored as BRK-B"),
            (["--rename", "AAPL"], "--rename 'AAPL': is not FROM=TO"),
        ]
        for (extra, message) in refusals {
            let e = try BT.run(["data", "import", path, "--symbol-column", "Symbol", "--db", db] + extra)
            #expect(e.status == 2 && e.stderr.contains(message), "\(extra): \(e.stderr)")
        }
    }
}
