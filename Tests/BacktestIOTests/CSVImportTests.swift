import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData
@testable import BacktestPresentation

@Suite("CSV import")
struct CSVImportTests {
    func candles(_ file: ImportedFile) -> CandleSeries {
        guard case .candles(let s) = file.content else { Issue.record("expected candles"); return CandleSeries(symbol: "") }
        return s
    }

    @Test("generic CSV: BOM, CRLF, mixed-case header, out-of-order rows sorted, identical duplicate merged, adj close ignored")
    func generic() throws {
        let file = try Importer.read(paths: [TestSupport.fixture("generic.csv")])[0]
        #expect(file.format == .csv)
        #expect(file.symbol == "GENERIC")
        let s = candles(file)
        #expect(s.timeframe == .day1)
        #expect(s.time == (2...5).map { UTCTime.epoch(year: 2024, month: 1, day: $0) })
        #expect(s.open == [100.0, 101.0, 102.0, 102.5])
        #expect(s.high == [102.0, 103.5, 103.0, 104.0])
        #expect(s.low == [99.0, 100.5, 101.5, 101.0])
        #expect(s.close == [101.5, 102.0, 102.5, 103.0])
        #expect(s.volume == [1000, 1200, 1100, 900])
    }

    @Test("--adjusted uses adj close and scales open, high and low by adj/close")
    func adjusted() throws {
        let s = candles(try Importer.read(paths: [TestSupport.fixture("generic.csv")], options: ImportOptions(adjusted: true))[0])
        #expect(s.close == [50.75, 51.0, 51.25, 51.5])
        #expect(abs(s.open[0] - 100.0 * 50.75 / 101.5) < 1e-12)
        #expect(abs(s.high[1] - 103.5 * 0.5) < 1e-12)
        #expect(abs(s.low[3] - 101.0 * 51.5 / 103.0) < 1e-12)
    }

    @Test("epoch milliseconds, no volume column: hourly, volume 0")
    func epochMilliseconds() throws {
        let s = candles(try Importer.read(paths: [TestSupport.fixture("epoch_ms.csv")])[0])
        #expect(s.timeframe == .hour1)
        #expect(s.count == 6)
        #expect(s.time[0] == UTCTime.epoch(year: 2024, month: 3, day: 1))
        #expect(s.time[5] - s.time[0] == 5 * 3600)
        #expect(s.volume == [Double](repeating: 0, count: 6))
        #expect(s.close[5] == 15.5)
    }

    @Test("epoch seconds and a semicolon delimiter")
    func epochSecondsSemicolons() throws {
        let text = "time;open;high;low;close;volume\n1704067200;1;2;0.5;1.5;10\n1704153600;1.5;2.5;1;2;20\n"
        let s = candles(try Importer.read(bytes: Array(text.utf8), name: "x.csv"))
        #expect(s.time == [1_704_067_200, 1_704_153_600])
        #expect(s.timeframe == .day1)
        #expect(s.volume == [10, 20])
    }

    @Test("shipped GOOG: pandas index column, daily with weekend gaps, 2,148 bars")
    func goog() throws {
        let file = try Importer.read(paths: [TestSupport.repoFile("data/GOOG.csv")])[0]
        let s = candles(file)
        #expect(file.symbol == "GOOG")
        #expect(s.timeframe == .day1)
        #expect(s.count == 2148)
        #expect(UTCTime.isoDate(s.time.first!) == "2004-08-19")
        #expect(UTCTime.isoDate(s.time.last!) == "2013-03-01")
        #expect(s.open[0] == 100 && s.high[0] == 104.06 && s.low[0] == 95.96 && s.close[0] == 100.34 && s.volume[0] == 22_351_900)
    }

    @Test("shipped EURUSD: hourly with weekend gaps, 5,000 bars")
    func eurusd() throws {
        let s = candles(try Importer.read(paths: [TestSupport.repoFile("data/EURUSD.csv")])[0])
        #expect(s.timeframe == .hour1)
        #expect(s.count == 5000)
        #expect(UTCTime.iso(s.time[0]) == "2017-04-19T09:00:00Z")
        #expect(s.open[0] == 1.0716 && s.low[0] == 1.07083 && s.close[0] == 1.07219 && s.volume[0] == 1413)
    }

    @Test("--timeframe coarser than the bars aggregates them")
    func aggregatesToTimeframe() throws {
        let s = candles(try Importer.read(paths: [TestSupport.fixture("epoch_ms.csv")], options: ImportOptions(timeframe: .hour4))[0])
        #expect(s.timeframe == .hour4)
        #expect(s.count == 2)
        #expect(s.open == [10, 14] && s.high == [14, 16] && s.low == [9, 13] && s.close == [13.5, 15.5])
    }
}
