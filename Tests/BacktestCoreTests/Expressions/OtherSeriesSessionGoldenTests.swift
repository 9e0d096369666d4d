import Foundation
import Testing
import TestSupport
@testable import BacktestCore

/// A minute stock with New York's 09:30-16:00 session against pandas
/// (`Tests/Fixtures/timeframes/make_goldens.py`, `STOCK.csv`): its hourly and daily bars
/// resampled along the session in local time, when each closes (the 15:30 hour and the day at
/// 16:00 local, 20:00 or 21:00 UTC across the change of clocks), and `@1h`/`@1d` as of each
/// minute's close and of each hour's.
@Suite("Other series goldens with a session")
struct OtherSeriesSessionGoldenTests {
    static let session = TradingSession(zone: "America/New_York", open: 570, close: 960)

    static func stock() throws -> CandleSeries {
        try ShippedData.candles(file: "Tests/Fixtures/timeframes/STOCK.csv", symbol: "STOCK")
    }

    static func source() throws -> SeriesInMemory {
        SeriesInMemory(series: [try stock()], sessions: ["STOCK": session])
    }

    @Test("the fixture spans the change of clocks, a holiday, a half day and days whose last bar is before 15:59")
    func fixture() throws {
        let s = try Self.stock()
        #expect(s.timeframe == .minute1)
        let days = try Golden.goldens(at: Self.url("stock_bars_1d")).columns
        let ends = Set(zip(days["time"]!, days["end"]!).map { Int64($1!) - Int64($0!) })
        #expect(ends.sorted() == [20 * 3600, 21 * 3600])
        #expect(days["time"]!.count == 29)  // 30 weekdays less Thanksgiving
        let zone = try TradingSession.timeZone(Self.session.zone)
        let local = s.time.map { $0 + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0)))) }
        let lastMinutes = Dictionary(grouping: local) { $0 / 86_400 }.values.map { $0.max()! % 86_400 }
        #expect(lastMinutes.count == 29 && lastMinutes.min() == 12 * 3600 + 59 * 60)  // the half day
        #expect(lastMinutes.filter { $0 < 15 * 3600 + 59 * 60 }.count >= 3)
    }

    @Test("hourly and daily bars resampled along the session, and their close times, match pandas",
          arguments: [Timeframe.hour1, .day1])
    func bars(timeframe: Timeframe) throws {
        let bars = try Self.stock().resampled(to: timeframe, session: Self.session)
        let golden = try Golden.goldens(at: Self.url("stock_bars_\(timeframe.rawValue)"))
        #expect(golden.rows == Array(0..<bars.count))
        let c = golden.columns.mapValues { $0.map { $0! } }
        #expect(bars.time.map(Double.init) == c["time"])
        #expect(bars.time.map { Double(Self.session.barEnd($0, timeframe: timeframe)) } == c["end"])
        #expect(bars.open == c["open"] && bars.high == c["high"] && bars.low == c["low"] && bars.close == c["close"])
        #expect(bars.volume == c["volume"])
    }

    @Test("a minute run reading @1h and @1d, and its hourly resampling reading @1d, match pandas on every bar")
    func goldens() throws {
        let stock = try Self.stock()
        try OtherSeriesGoldenTests.check(.stock, run: stock, source: try Self.source(), atLeast: 5)
        let hourly = try stock.resampled(to: .hour1, session: Self.session)
        try OtherSeriesGoldenTests.check(.stock1h, run: hourly, source: try Self.source(), atLeast: 3)
    }

    static func url(_ name: String) -> URL {
        Repository.root.appendingPathComponent("Tests/Fixtures/timeframes/\(name).csv")
    }
}
