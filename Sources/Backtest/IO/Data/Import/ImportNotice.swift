import BacktestAnalysis
import BacktestCore
import Foundation

/// Something an import saw in a file's times that the user should hear about: nothing is
/// refused, but nothing happens without a word either. The library says what; a front end words
/// it and names its settings (`ImportSummaryText.warnings`).
public enum ImportNotice: Sendable, Equatable {
    /// Intraday times of day written without an offset, with no zone given: stored as UTC.
    /// `likely` is the exchange session they look like in local time, when they look like one.
    case naiveTimes(likely: ExchangeSession?)
    /// The bars of most days run from one interval past a half hour (`first`, 09:31 for minutes)
    /// to a half hour (`last`, 16:00), in minutes after midnight on the file's clock: times that
    /// mark the ends of the bars, where bt stores their starts.
    case endStamped(first: Int, last: Int)
    /// `bars` of the file's `of` bars lie outside the session's hours: left out of the bars
    /// aggregated at import (`aggregated`), or stored but left out of every bar resampled from
    /// the series.
    case outsideSession(bars: Int, of: Int, session: TradingSession, aggregated: Bool)
    /// Raw prices with one-bar moves like stock splits (`LikelySplit`); never for a file
    /// imported with adjusted prices.
    case likelySplits([LikelySplit])

    /// The notices of one validated series (bars sorted, start-stamped unless the file's own
    /// stamp was left as it is), before any aggregation:
    ///
    /// - `naiveTimes` for intraday bars (`interval` under a day) whose times of day carry no
    ///   offset (`wallClock`) and no zone was given. `likely` is the first of
    ///   `ExchangeSession.known` that the bars fit: the most common first bar of a day at the
    ///   open and the most common last one within an interval before the close (or, stamped at
    ///   ends, one interval after the open and at the close), with at least 90% of the bars
    ///   inside the open..close window.
    /// - `endStamped` for bars of 1, 5 or 15 minutes when no stamp was given and at least 90% of
    ///   the days begin exactly one interval past a half hour and end on one.
    /// - `outsideSession` with a session, for intraday bars: the bars whose local time of day is
    ///   outside open..<close, the bars `CandleSeries.resampled(to:session:)` leaves out.
    ///
    /// Days and times of day are read in the given zone, else as written (UTC).
    /// - Complexity: O(n), one pass, and only when one of the three can apply; the zone's offset
    ///   is looked up once per hour of bars.
    static func notices(_ series: CandleSeries, interval: Timeframe?, options: ImportOptions, wallClock: Bool,
                        aggregated: Bool) throws -> [ImportNotice] {
        let intraday = interval.map { $0 < .day1 } ?? false
        let naive = intraday && wallClock && options.timeZone == nil
        let step = interval?.seconds ?? 0
        let stampCheck = intraday && options.stamp == nil && step < 1800 && 1800 % step == 0
        let session = intraday ? options.session : nil  // daily bars each hold a session already
        guard naive || stampCheck || session != nil, !series.isEmpty else { return [] }
        let zone = try options.timeZone.map(TradingSession.timeZone)
        let windows = naive ? ExchangeSession.known.map { ($0.open * 60, $0.close * 60) } : []
        let shape = DayShape(series.time, interval: step, zone: zone, windows: windows,
                             session: session.map { ($0.open * 60, $0.close * 60) })
        var notices: [ImportNotice] = []
        if naive {
            let likely = ExchangeSession.known.indices.first { k in
                shape.fits(open: windows[k].0, close: windows[k].1, interval: step) && shape.inside[k] * 10 >= series.count * 9
            }
            notices.append(.naiveTimes(likely: likely.map { ExchangeSession.known[$0] }))
        }
        if stampCheck, shape.days > 0, shape.endStampedFirsts * 10 >= shape.days * 9, shape.halfHourLasts * 10 >= shape.days * 9 {
            notices.append(.endStamped(first: shape.commonFirst / 60, last: shape.commonLast / 60))
        }
        if let session, shape.outside > 0 {
            notices.append(.outsideSession(bars: shape.outside, of: series.count, session: session, aggregated: aggregated))
        }
        return notices
    }
}

/// An exchange's regular session in its local time, for recognising local times written
/// without a zone.
public struct ExchangeSession: Sendable, Equatable {
    public var exchange: String
    /// IANA zone of the exchange.
    public var zone: String
    /// Minutes after local midnight.
    public var open: Int
    public var close: Int

    /// `09:30-16:00`.
    public var hours: String { TradingSession(zone: zone, open: open, close: close).hours }

    /// The sessions recognised, in the order they are tried: New York 09:30-16:00, London
    /// 08:00-16:30, Tokyo 09:00-15:30 (15:00 before November 2024).
    static let known = [
        ExchangeSession(exchange: "New York", zone: "America/New_York", open: 570, close: 960),
        ExchangeSession(exchange: "London", zone: "Europe/London", open: 480, close: 990),
        ExchangeSession(exchange: "Tokyo", zone: "Asia/Tokyo", open: 540, close: 930),
        ExchangeSession(exchange: "Tokyo", zone: "Asia/Tokyo", open: 540, close: 900),
    ]
}

/// How a series' bars sit in their days, on the wall clock: local time in a zone, else the
/// times as written. Times of day are in seconds after midnight.
struct DayShape {
    /// Days with at least one bar.
    var days = 0
    /// Days whose first bar is exactly one interval past a half hour (09:31 for minutes), and
    /// days whose last bar is on a half hour (16:00).
    var endStampedFirsts = 0, halfHourLasts = 0
    /// The most common time of day of a day's first bar and of its last (the earliest on ties).
    var commonFirst = 0, commonLast = 0
    /// Bars inside each window, open...close inclusive.
    var inside: [Int]
    /// Bars outside the session, open..<close.
    var outside = 0

    init(_ time: [Int64], interval step: Int64, zone: TimeZone?, windows: [(Int, Int)], session: (Int, Int)?) {
        inside = Array(repeating: 0, count: windows.count)
        var firsts: [Int: Int] = [:], lasts: [Int: Int] = [:]
        var hour = Int64.min, offset: Int64 = 0
        var day = Int64.min, first = 0, last = 0
        func closeDay() {
            guard day != Int64.min else { return }
            days += 1
            firsts[first, default: 0] += 1
            lasts[last, default: 0] += 1
            if step > 0, Int64(first) % 1800 == step { endStampedFirsts += 1 }
            if last % 1800 == 0 { halfHourLasts += 1 }
        }
        for t in time {
            if let zone, floorDiv(t, 3600) != hour {
                hour = floorDiv(t, 3600)
                offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(hour * 3600))))
            }
            let local = t + offset
            let d = floorDiv(local, 86_400), second = Int(local - d * 86_400)
            if d != day {
                closeDay()
                (day, first) = (d, second)
            }
            last = second
            for (k, w) in windows.enumerated() where second >= w.0 && second <= w.1 { inside[k] += 1 }
            if let session, second < session.0 || second >= session.1 { outside += 1 }
        }
        closeDay()
        commonFirst = Self.mode(firsts)
        commonLast = Self.mode(lasts)
    }

    /// Whether a day's bars typically span open..close (seconds): starts at the open and the
    /// last within an interval before the close, or, stamped at ends, one interval after each.
    func fits(open: Int, close: Int, interval: Int64) -> Bool {
        let step = Int(interval)
        let starts = commonFirst == open && commonLast >= close - step && commonLast < close
        let ends = commonFirst > open && commonFirst <= open + step && commonLast == close
        return starts || ends
    }

    static func mode(_ counts: [Int: Int]) -> Int {
        counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key ?? 0
    }
}
