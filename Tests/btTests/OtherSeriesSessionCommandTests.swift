import Foundation
import Testing

/// A minute stock imported with its session (`--tz America/New_York --session 09:30-16:00`)
/// reading `@1h` and `@1d` end to end: `bt signals` on the minute bars and with `--timeframe 1h`
/// against the pandas goldens of `Tests/Fixtures/timeframes` (`STOCK.csv`, resampled along the
/// session in local time across a change of clocks, a holiday and a half day).
@Suite("bt with rules reading other series of a stock with a session")
struct OtherSeriesSessionCommandTests {
    /// GOOG, EURUSD and GOOGX (`OtherSeriesCommandTests.store`), and STOCK with its session.
    static func store() throws -> String {
        let db = try OtherSeriesCommandTests.store()
        let r = try BT.run(["data", "import", "Tests/Fixtures/timeframes/STOCK.csv", "--tz", "America/New_York",
                            "--session", "09:30-16:00", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    /// The times column of `bt signals`' CSV.
    static func times(_ csv: String) -> [String] {
        csv.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) }
    }

    @Test("bt signals on minute bars reading @1h and @1d fires where pandas' conditions are true",
          arguments: [("close > sma(close, 2)@1d", "filter_1d"), ("close > sma(close, 2)@1h", "sma2_1h")])
    func minutes(entry: String, column: String) throws {
        let db = try Self.store()
        let r = try BT.run(["signals", "STOCK", "--entry", entry, "--exit", "close < 0", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let golden = try OtherSeriesCommandTests.golden("stock", column)
        let close = try Self.closes()
        let expected = column == "filter_1d" ? golden.map { $0 == 1 } : golden.indices.map { i in golden[i].map { close[i] > $0 } ?? false }
        #expect(OtherSeriesCommandTests.entries(r.stdout) == expected)
        #expect(expected.filter { $0 }.count > 3000 && expected.filter { !$0 }.count > 3000)
    }

    @Test("bt signals --timeframe 1h resamples along the session and reads @1d as pandas does")
    func hourly() throws {
        let db = try Self.store()
        let r = try BT.run(["signals", "STOCK", "--timeframe", "1h", "--entry", "close > sma(close, 2)@1d", "--exit", "close < 0", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        let starts = try OtherSeriesCommandTests.golden(file: "stock_bars_1h", "time").map { Int64($0!) }
        let iso = ISO8601DateFormatter()
        #expect(Self.times(r.stdout) == starts.map { iso.string(from: Date(timeIntervalSince1970: TimeInterval($0))) })
        let expected = try OtherSeriesCommandTests.golden("stock1h", "filter_1d").map { $0 == 1 }
        #expect(OtherSeriesCommandTests.entries(r.stdout) == expected)
        #expect(expected.filter { $0 }.count > 50 && expected.filter { !$0 }.count > 50)
    }

    /// STOCK.csv's closes.
    static func closes() throws -> [Double] {
        try OtherSeriesCommandTests.closes("Tests/Fixtures/timeframes/STOCK.csv")
    }
}
