import Foundation
import Testing

@Suite("bt chart and bt bench chart")
struct ChartCommandTests {
    static func store() throws -> String {
        let db = BT.scratchStore()
        let r = try BT.run(["data", "import", "data/GOOG.csv", "--db", db])
        guard r.status == 0 else { throw CLIError("import failed: \(r.stderr)") }
        return db
    }

    @Test("draws candles with indicators at the given size, no colour off a terminal")
    func draws() throws {
        let db = try Self.store()
        let r = try BT.run(["chart", "GOOG", "--db", db, "--ind", "sma:20", "--ind", "rsi", "--last", "200",
                            "--width", "90", "--height", "32", "--color", "auto"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 32)
        #expect(lines.allSatisfy { $0.count <= 90 })
        #expect(!r.stdout.utf8.contains(0x1B))
        #expect(r.stdout.hasPrefix("GOOG 1d") && r.stdout.contains("rsi_14") && r.stdout.contains("sma_20"))
    }

    @Test("a note on stderr says the chart is thinned exactly when it has more bars than columns; stdout holds the chart alone",
          arguments: [(200, true), (20, false)])
    func thinningNote(last: Int, thinned: Bool) throws {
        let db = try Self.store()
        let r = try BT.run(["chart", "GOOG", "--db", db, "--last", String(last), "--width", "60", "--height", "16"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("chart thinned for display: \(last) bars in ") == thinned, "\(r.stderr)")
        #expect(!r.stdout.contains("thinned"))
    }

    @Test("--color always colours even through a pipe")
    func colourAlways() throws {
        let db = try Self.store()
        let r = try BT.run(["chart", "GOOG", "--db", db, "--width", "60", "--height", "16", "--color", "always"])
        #expect(r.status == 0 && r.stdout.utf8.contains(0x1B))
    }

    @Test("bad input exits 2 with a clear message", arguments: [
        (["--width", "10"], "at least 30x10"),
        (["--ind", "sma:0"], "sma"),
        (["--color", "sometimes"], "always, never, auto"),
        (["--last", "0"], "--last"),
    ])
    func badInput(extra: [String], message: String) throws {
        let db = try Self.store()
        let r = try BT.run(["chart", "GOOG", "--db", db, "--height", "24"] + extra)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    @Test("--html writes a self-contained chart page of the stored bars; an existing file needs --force")
    func html() throws {
        let db = try Self.store()
        let path = BT.scratchDirectory().appendingPathComponent("pages/goog.html").path
        let r = try BT.run(["chart", "goog", "--db", db, "--ind", "sma:20", "--ind", "macd", "--last", "500", "--html", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty && r.stderr.contains("chart written to \(path)"))
        let page = try SweepScreenCommandTests.pageData(path)
        #expect(page["kind"] as? String == "chart" && page["title"] as? String == "GOOG")
        let chart = try #require(page["chart"] as? [String: Any])
        #expect(((chart["series"] as? [String: Any])?["close"] as? [Any])?.count == 500)
        #expect((chart["indicators"] as? [[String: Any]])?.map { $0["spec"] as? String } == ["sma:20", "macd:12,26,9"])
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.contains("default-src 'none'") && !html.contains("http://") && !html.contains("https://"))
        let again = try BT.run(["chart", "GOOG", "--db", db, "--html", path])
        #expect(again.status == 2 && again.stderr.contains("already exists") && again.stderr.contains("--force"), "\(again.stderr)")
        let forced = try BT.run(["chart", "GOOG", "--db", db, "--html", path, "--force"])
        #expect(forced.status == 0)
        let warned = try BT.run(["chart", "GOOG", "--db", db, "--html", path, "--force", "--width", "90"])
        #expect(warned.status == 0 && warned.stderr.contains("--width has no effect"), "\(warned.stderr)")
    }

    @Test("bench html writes run and chart pages and reports their size")
    func benchHTML() throws {
        let out = BT.scratchDirectory().appendingPathComponent("bench").path
        let r = try BT.run(["bench", "html", "--bars", "300", "--out", out, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["page"] as? String } == ["run", "chart"])
        for row in rows {
            let path = try #require(row["path"] as? String)
            #expect(FileManager.default.fileExists(atPath: path))
            #expect((row["bytes"] as? Int).map { $0 > 100_000 } == true)
        }
    }

    @Test("bench chart reports a time")
    func bench() throws {
        let r = try BT.run(["bench", "chart", "--runs", "2", "--candles", "2000"])
        #expect(r.status == 0 && r.stdout.contains("2000 candles at 120x40: median"))
    }
}
