import Foundation
import Testing

@Suite("bt indicators and bt bench indicators")
struct IndicatorsCommandTests {
    /// Imports GOOG into a scratch store.
    static func store() throws -> String {
        let db = BT.scratchStore()
        let r = try BT.run(["data", "import", "data/GOOG.csv", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    @Test("CSV header, empty warm-up cells, round-trip doubles that match the TA-Lib goldens")
    func csv() throws {
        let db = try Self.store()
        let r = try BT.run(["indicators", "GOOG", "--ind", "sma:20", "--ind", "macd", "--ind", "bb:20,2", "--ind", "obv", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 2149)
        #expect(lines[0] == "time,open,high,low,close,volume,sma_20,macd_12_26_9,macd_signal_12_26_9,macd_hist_12_26_9,bb_upper_20_2,bb_middle_20_2,bb_lower_20_2,obv")
        #expect(lines[1] == "2004-08-19T00:00:00Z,100.0,104.06,95.96,100.34,22351900.0,,,,,,,,22351900.0")
        let row20 = lines[20].split(separator: ",", omittingEmptySubsequences: false)
        #expect(row20[6] == "105.28049999999999" || abs(Double(row20[6])! - 105.28049999999999) < 1e-12)
        #expect(row20[7] == "")
        // Every sma_20 value round-trips and matches the golden within 1e-9 relative.
        let golden = try String(contentsOf: BT.root.appendingPathComponent("Tests/Fixtures/talib/goog_goldens.csv"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let col = golden[0].firstIndex(of: "sma_20")!
        for i in 1..<lines.count {
            let cell = lines[i].split(separator: ",", omittingEmptySubsequences: false)[6]
            let expected = golden[i][col]
            #expect(cell.isEmpty == expected.isEmpty)
            if let a = Double(cell), let e = Double(expected) { #expect(abs(a - e) <= 1e-9 * abs(e)) }
        }
    }

    @Test("--from/--to restrict the rows after computing on the range")
    func range() throws {
        let db = try Self.store()
        let r = try BT.run(["indicators", "goog", "--ind", "rsi", "--from", "2012-01-01", "--to", "2012-01-31", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines[0] == "time,open,high,low,close,volume,rsi_14")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("2012-01-") })
    }

    @Test("bad specs and parameters exit 2 with a clear message", arguments: [
        (["--ind", "sma:0"], "period must be between 1"),
        (["--ind", "macd:26,12,9"], "fast period (26) must be shorter than slow period (12)"),
        (["--ind", "rsx"], "did you mean 'rsi'"),
        (["--ind", "sma:5000"], "sma: period 5000 is longer than the series (2148 bars)"),
        ([], "give at least one --ind SPEC"),
    ])
    func badInput(_ extra: [String], _ message: String) throws {
        let db = try Self.store()
        let r = try BT.run(["indicators", "GOOG", "--db", db] + extra)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("bench --json prints one object with the six timings")
    func benchJSON() throws {
        let r = try BT.run(["bench", "indicators", "--bars", "2000", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(object["bars"] as? Int == 2000)
        let results = object["results"] as! [String: Double]
        #expect(Set(results.keys) == ["sma_20", "ema_20", "rsi_14", "macd_12_26_9", "bb_20_2", "atr_14"])
        #expect(results.values.allSatisfy { $0 > 0 && $0.isFinite })
    }
}
