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

    @Test("bench chart reports a time")
    func bench() throws {
        let r = try BT.run(["bench", "chart", "--runs", "2", "--candles", "2000"])
        #expect(r.status == 0 && r.stdout.contains("2000 candles at 120x40: median"))
    }
}
