import Foundation
import Testing

/// `bt data import` and `bt run` on raw prices with a 2:1 split: warned on stderr and in the
/// run's warnings (text and `--json`, kind `likely_split`); imported with `--adjusted`, not.
@Suite("Likely split warnings")
struct LikelySplitCommandTests {
    static func file(in dir: URL) throws -> String {
        var text = "Date,Open,High,Low,Close,Adj Close,Volume\n"
        for i in 0..<40 {
            let day = Calendar(identifier: .gregorian).date(byAdding: .day, value: i, to: Date(timeIntervalSince1970: 1_107_216_000))!
            let c = i < 30 ? 100.0 : 50.0
            text += "\(ISO8601DateFormatter().string(from: day).prefix(10)),\(c),\(c + 1),\(c - 1),\(c),50,1000\n"
        }
        let path = dir.appendingPathComponent("SPLT.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let message = "SPLT 2005-03-03: close fell 50.0% in one bar, like a 2:1 split; import adjusted prices or use --adjusted"
    static let rules = ["--entry", "close > 0", "--exit", "close < 0"]

    @Test("raw prices: the import and the run (text and --json) warn with the date; --adjusted: no warning")
    func warned() throws {
        let dir = BT.scratchDirectory(), db = BT.scratchStore()
        let path = try Self.file(in: dir)
        let imported = try BT.run(["data", "import", path, "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("warning: " + Self.message + " (\(path))"), "\(imported.stderr)")
        let json = try BT.run(["run", "SPLT", "--json", "--db", db] + Self.rules)
        #expect(json.status == 0, "\(json.stderr)")
        let warnings = try #require(try RunCommandTests.json(json.stdout)["warnings"] as? [[String: Any]])
        #expect(warnings.filter { $0["kind"] as? String == "likely_split" }.compactMap { $0["message"] as? String } == [Self.message])
        let text = try BT.run(["run", "SPLT", "--db", db] + Self.rules)
        #expect(text.stdout.contains(Self.message) || text.stderr.contains(Self.message), "\(text.stdout)")

        let adjustedDB = BT.scratchStore()
        let adjusted = try BT.run(["data", "import", path, "--adjusted", "--db", adjustedDB])
        #expect(adjusted.status == 0 && !adjusted.stderr.contains("split"), "\(adjusted.stderr)")
        let run = try BT.run(["run", "SPLT", "--json", "--db", adjustedDB] + Self.rules)
        #expect(!run.stdout.contains("likely_split"))
    }
}
