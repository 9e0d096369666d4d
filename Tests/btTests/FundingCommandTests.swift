import Foundation
import Testing
import TestSupport

/// `bt data import --format funding`, `bt data list`, `bt data export --funding` and `bt data remove` end to end.
@Suite("bt data funding rates")
struct FundingCommandTests {
    func file(_ text: String) -> String {
        let path = BT.scratchStore().replacingOccurrences(of: "store.sqlite", with: "funding.csv")
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test("import, list (text and JSON), export and remove")
    func roundTrip() throws {
        let db = BT.scratchStore()
        let path = file("time,rate,mark_price\n2024-01-01T08:00:00Z,0.0001,42000.5\n2024-01-01T00:00:00Z,-0.0002,\n")
        let r = try BT.run(["data", "import", path, "--format", "funding", "--symbol", "BTCUSDT", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "BTCUSDT funding: 2 rates added, 0 updated, 0 unchanged (\(path))\n")
        let list = try BT.run(["data", "list", "--db", db])
        #expect(list.stdout == """
            SYMBOL   TIMEFRAME  FIRST                 LAST                     BARS
            BTCUSDT  funding    2024-01-01T00:00:00Z  2024-01-01T08:00:00Z  2 rates

            """, "\(list.stdout)")
        let json = try BT.run(["data", "list", "--json", "--db", db])
        #expect(json.stdout == #"{"series":[],"books":[],"funding":[{"symbol":"BTCUSDT","first":"2024-01-01T00:00:00Z","last":"2024-01-01T08:00:00Z","rates":2}]}"# + "\n")
        let export = try BT.run(["data", "export", "BTCUSDT", "--funding", "--db", db])
        #expect(export.stdout == "time,rate,mark_price\n2024-01-01T00:00:00Z,-0.0002,\n2024-01-01T08:00:00Z,0.0001,42000.5\n")
        let removed = try BT.run(["data", "remove", "BTCUSDT", "--db", db])
        #expect(removed.stdout == "removed BTCUSDT funding (2 rates)\n", "\(removed.stderr)")
        #expect(try BT.run(["data", "export", "BTCUSDT", "--funding", "--db", db]).status == 2)
    }

    @Test("a refused funding file exits 2 naming file, line and range, and leaves the store byte for byte")
    func refused() throws {
        let db = BT.scratchStore()
        let good = file("time,rate\n2024-01-01T00:00:00Z,0.0001\n")
        #expect(try BT.run(["data", "import", good, "--format", "funding", "--symbol", "BTCUSDT", "--db", db]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let bad = file("time,rate\n2024-01-01T08:00:00Z,0.0001\n2024-01-01T16:00:00Z,0.07\n")
        let r = try BT.run(["data", "import", bad, "--format", "funding", "--symbol", "BTCUSDT", "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr == "error: \(bad):3: rate 0.07 is outside -0.05...0.05 (a fraction per funding period, at most 5%; a percentage?)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }
}
