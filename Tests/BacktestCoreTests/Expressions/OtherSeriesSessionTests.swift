import Testing
import TestSupport
@testable import BacktestCore

/// Bars of a series with a trading session close at the session's close: a daily value is
/// today's on the hourly bar that ends the session, and no bar of a market that closes later
/// is seen by the run's last, shorter bar of the day.
@Suite("Other series with sessions")
struct OtherSeriesSessionTests {
    static let nyse = TradingSession(zone: "America/New_York", open: 570, close: 960)
    /// Closes 15 minutes later (as some index options do).
    static let late = TradingSession(zone: "America/New_York", open: 570, close: 975)

    /// Minute bars of `symbol` from 09:30 New York to `session`'s close on 2024-07-01 and -02
    /// (EDT, UTC-4), their close rising by 0.01 a minute from `start`.
    static func minutes(_ symbol: String, session: TradingSession, start: Double) -> CandleSeries {
        var s = CandleSeries(symbol: symbol, timeframe: .minute1)
        var price = start
        for day in [UTCTime.epoch(year: 2024, month: 7, day: 1), UTCTime.epoch(year: 2024, month: 7, day: 2)] {
            for minute in session.open..<session.close {
                price += 0.01
                s.append(time: day + Int64(minute) * 60 + 4 * 3600, open: price, high: price, low: price, close: price, volume: 1)
            }
        }
        return s
    }

    @Test("TradingSession.barEnd: the last, shorter hour and a daily bar end at the close; other bars at their length")
    func barEnd() {
        let july1 = UTCTime.epoch(year: 2024, month: 7, day: 1), jan2 = UTCTime.epoch(year: 2024, month: 1, day: 2)
        #expect(Self.nyse.barEnd(july1 + 19 * 3600 + 1800, timeframe: .hour1) == july1 + 20 * 3600)  // 15:30 EDT
        #expect(Self.nyse.barEnd(july1 + 18 * 3600 + 1800, timeframe: .hour1) == july1 + 19 * 3600 + 1800)
        #expect(Self.nyse.barEnd(july1, timeframe: .day1) == july1 + 20 * 3600)
        #expect(Self.nyse.barEnd(jan2, timeframe: .day1) == jan2 + 21 * 3600)  // EST
        #expect(Self.nyse.barEnd(july1 + 12 * 3600, timeframe: .minute1) == july1 + 12 * 3600 + 60)  // before the open
        #expect(Self.nyse.barEnd(july1, timeframe: .week1) == Timeframe.week1.barEnd(july1))
    }

    @Test("an hourly run sees today's daily close on the bar that ends the session, and not a later market's last bar")
    func sessionCloses() throws {
        let run = Self.minutes("RUN", session: Self.nyse, start: 100)
        let other = Self.minutes("LATE", session: Self.late, start: 500)
        let source = SeriesInMemory(series: [run, other], sessions: ["RUN": Self.nyse, "LATE": Self.late])
        let hourly = try run.resampled(to: .hour1, session: Self.nyse)
        let reader = OtherSeriesReader(source)
        let daily = try LocatedExpression("close@1d", origin: .setting(.entry)).values(on: hourly, reading: reader)
        let late = try LocatedExpression("close@LATE", origin: .setting(.entry)).values(on: hourly, reading: reader)
        let lateHourly = try other.resampled(to: .hour1, session: Self.late)
        #expect(hourly.count == 14 && lateHourly.count == 14)
        let lastOfDay1 = 6  // 15:30
        #expect(daily[lastOfDay1 - 1].isNaN)
        #expect(daily[lastOfDay1] == run.close[389], "the day's close, on the bar that closes at 16:00")
        #expect(daily[lastOfDay1 + 1] == run.close[389])
        // LATE's 15:30 bar runs to 16:15: the run's 15:30 bar (to 16:00) sees its 14:30 bar.
        #expect(late[lastOfDay1] == lateHourly.close[5], "\(late[lastOfDay1]) \(lateHourly.close[5]) \(lateHourly.close[6])")
        #expect(late[lastOfDay1 + 1] == lateHourly.close[7], "day 2's first hours close together")
    }
}
