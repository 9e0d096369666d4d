import Foundation
import Testing

@Suite("bt data commands")
struct DataCommandTests {
    @Test("import the shipped files, list them as text and JSON")
    func importAndList() throws {
        let db = BT.scratchStore()
        let r = try BT.run(["data", "import", "data/GOOG.csv", "data/EURUSD.csv", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("GOOG 1d: 2148 bars added"))
        #expect(r.stdout.contains("EURUSD 1h: 5000 bars added"))
        let list = try BT.run(["data", "list", "--db", db])
        #expect(list.stdout.contains("GOOG    1d         2004-08-19T00:00:00Z  2013-03-01T00:00:00Z  2148"))
        let json = try BT.run(["data", "list", "--json", "--db", db])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let series = object["series"] as! [[String: Any]]
        #expect(series.map { $0["symbol"] as! String } == ["EURUSD", "GOOG"])
        #expect(series.map { $0["bars"] as! Int } == [5000, 2148])
        #expect(series[0]["first"] as? String == "2017-04-19T09:00:00Z")
    }

    @Test("export then import into a new store and export again: identical CSV")
    func exportRoundTrip() throws {
        let db = BT.scratchStore()
        _ = try BT.run(["data", "import", "data/EURUSD.csv", "--db", db])
        let first = try BT.run(["data", "export", "EURUSD", "--db", db])
        #expect(first.status == 0)
        #expect(first.stdout.hasPrefix("time,open,high,low,close,volume\n2017-04-19T09:00:00Z,1.0716,1.0722,1.07083,1.07219,1413.0\n"))
        let dir = BT.scratchDirectory()
        let csv = dir.appendingPathComponent("eurusd.csv")
        try Data(first.stdout.utf8).write(to: csv)
        let db2 = dir.appendingPathComponent("b.sqlite").path
        let imported = try BT.run(["data", "import", csv.path, "--db", db2])
        #expect(imported.status == 0, "\(imported.stderr)")
        let second = try BT.run(["data", "export", "EURUSD", "--db", db2])
        #expect(second.stdout == first.stdout)
        let ranged = try BT.run(["data", "export", "eurusd", "--from", "2017-04-20", "--to", "2017-04-20", "--db", db2])
        let rows = ranged.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == 24)
        #expect(rows.allSatisfy { $0.hasPrefix("2017-04-20T") })
    }

    @Test("export with --timeframe resamples the stored series")
    func exportResampled() throws {
        let db = BT.scratchStore()
        _ = try BT.run(["data", "import", "data/GOOG.csv", "--db", db])
        let r = try BT.run(["data", "export", "GOOG", "--timeframe", "1M", "--to", "2004-09-30", "--db", db])
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("2004-08-01T00:00:00Z,100.0,"))
        #expect(lines[2].hasPrefix("2004-09-01T00:00:00Z,"))
    }

    @Test("a bad file: exit 2 naming file:line, nothing written, no store created")
    func badFile() throws {
        let dir = BT.scratchDirectory()
        let bad = dir.appendingPathComponent("bad.csv")
        try Data("date,open,high,low,close,volume\n2024-01-02,1,2,0.5,1.5,10\n2024-01-03,1,0.9,0.5,1,10\n".utf8).write(to: bad)
        let db = dir.appendingPathComponent("s.sqlite").path
        let r = try BT.run(["data", "import", bad.path, "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: \(bad.path):3: high 0.9 is below max(open, close) 1.0"))
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test("a bad second file leaves an existing store byte-for-byte unchanged")
    func badSecondFileUnchangedStore() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let bad = dir.appendingPathComponent("bad.csv")
        try Data("date,open,high,low,close,volume\n2024-01-02,1,2,0.5,1.5,-10\n".utf8).write(to: bad)
        let before = [db, db + "-wal"].map { FileManager.default.contents(atPath: $0) }
        let r = try BT.run(["data", "import", "data/EURUSD.csv", bad.path, "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr.contains("bad.csv:2: negative volume -10.0"))
        #expect([db, db + "-wal"].map { FileManager.default.contents(atPath: $0) } == before)
        #expect(try BT.run(["data", "list", "--db", db]).stdout.contains("EURUSD") == false)
    }

    @Test("read commands on a missing store or symbol: exit 2, no file created")
    func missingStoreOrSymbol() throws {
        let db = BT.scratchStore()
        for args in [["data", "list"], ["data", "export", "GOOG"], ["data", "remove", "GOOG"]] {
            let r = try BT.run(args + ["--db", db])
            #expect(r.status == 2)
            #expect(r.stderr.contains("no candle store here"))
        }
        #expect(!FileManager.default.fileExists(atPath: db))
        _ = try BT.run(["data", "import", "data/GOOG.csv", "--db", db])
        let r = try BT.run(["data", "export", "GOOGL", "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr.contains("no candles stored for symbol 'GOOGL' (did you mean GOOG?)"))
    }

    @Test("remove a symbol, then it is gone")
    func remove() throws {
        let db = BT.scratchStore()
        _ = try BT.run(["data", "import", "data/GOOG.csv", "data/EURUSD.csv", "--db", db])
        let r = try BT.run(["data", "remove", "goog", "--db", db])
        #expect(r.status == 0)
        #expect(r.stdout == "removed GOOG 1d (2148 bars)\n")
        #expect(!(try BT.run(["data", "list", "--db", db]).stdout.contains("GOOG")))
        #expect(try BT.run(["data", "remove", "GOOG", "--db", db]).status == 2)
    }

    @Test("unknown format name and undetectable content: exit 2")
    func unknownFormat() throws {
        let dir = BT.scratchDirectory()
        let odd = dir.appendingPathComponent("odd.txt")
        try Data("hello world\nthis is not market data\n".utf8).write(to: odd)
        let r = try BT.run(["data", "import", odd.path, "--db", dir.appendingPathComponent("s.sqlite").path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("odd.txt:1: unknown format"))
        let f = try BT.run(["data", "import", "data/GOOG.csv", "--format", "cvs", "--db", BT.scratchStore()])
        #expect(f.status == 2)
        #expect(f.stderr.contains("unknown format 'cvs'; did you mean 'csv'?"))
    }
}
