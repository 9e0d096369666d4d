import Foundation

/// The regular trading hours of a series in its exchange's time zone: `09:30-16:00` in
/// `America/New_York`. Bars stay stored in UTC; resampling to hours and days follows the session
/// (the 09:30-10:30 bar, not a 09:00 bar holding 30 minutes), across daylight-saving changes.
public struct TradingSession: Equatable, Sendable {
    /// IANA zone name, resolved through the system's time-zone database.
    public var zone: String
    /// Minutes after local midnight: the session is `open..<close`, within one local day.
    public var open: Int
    public var close: Int

    /// - Throws: `InputError` (setting `.session` or `.timeZone`) for an unknown zone or hours
    ///   that are not `HH:MM-HH:MM` with the close after the open.
    public init(_ hours: String, zone: String) throws {
        self.zone = try Self.timeZone(zone).identifier
        let parts = hours.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let o = Self.minutes(parts[0]), let c = Self.minutes(parts[1]) else {
            throw InputError("is not HH:MM-HH:MM (e.g. 09:30-16:00)", setting: .session, value: hours)
        }
        guard o < c else {
            throw InputError("must close after it opens on the same local day (sessions across midnight are not supported)",
                             setting: .session, value: hours)
        }
        open = o
        close = c
    }

    public init(zone: String, open: Int, close: Int) {
        self.zone = zone; self.open = open; self.close = close
    }

    /// `09:30-16:00`.
    public var hours: String { "\(Self.clock(open))-\(Self.clock(close))" }

    /// The IANA zone `name` from the system's database.
    /// - Throws: `InputError` (setting `.timeZone`) when the database does not know it.
    public static func timeZone(_ name: String) throws -> TimeZone {
        guard name.contains("/") || name == "UTC" || name == "GMT", let zone = TimeZone(identifier: name) else {
            throw InputError("is not an IANA time zone such as America/New_York or Europe/London (is tzdata installed?)",
                             setting: .timeZone, value: name)
        }
        return zone
    }

    static func minutes(_ text: Substring) -> Int? {
        let p = text.split(separator: ":", omittingEmptySubsequences: false)
        guard p.count == 2, p[0].count == 2, p[1].count == 2, let h = Int(p[0]), let m = Int(p[1]),
              (0...24).contains(h), (0..<60).contains(m), h * 60 + m <= 1440 else { return nil }
        return h * 60 + m
    }

    static func clock(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }
}

extension CandleSeries {
    /// The series aggregated into buckets that follow `session`: bars outside the session's
    /// hours are left out; intraday buckets start at the session's open in local time (so a 1h
    /// series of a 09:30-16:00 session has bars at 09:30, 10:30, ..., 15:30, the last one 30
    /// minutes long) and are stamped with their UTC start; daily and coarser bars hold one
    /// session each and are stamped 00:00 UTC of the local date, like daily files. A daily or
    /// coarser series (its `timeframe`) already holds one session a bar, dated at 00:00 UTC: it
    /// is bucketed by those dates, as without a session (the session would leave every bar out).
    /// - Precondition: `time` is sorted ascending.
    /// - Complexity: O(n).
    public func resampled(to timeframe: Timeframe, session: TradingSession) throws -> CandleSeries {
        if let own = self.timeframe, own >= .day1 { return resampled(to: timeframe) }
        let zone = try TradingSession.timeZone(session.zone)
        var out = CandleSeries(symbol: symbol, timeframe: timeframe)
        var current: Int64?
        for i in 0..<count {
            let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time[i]))))
            let local = time[i] + offset
            let day = floorDiv(local, 86_400) * 86_400
            let minute = Int((local - day) / 60)
            guard minute >= session.open, minute < session.close else { continue }
            let bucket: Int64
            if timeframe < .day1 {
                let step = timeframe.seconds
                let fromOpen = local - day - Int64(session.open) * 60
                bucket = day + Int64(session.open) * 60 + floorDiv(fromOpen, step) * step - offset
            } else {
                bucket = timeframe == .day1 ? day : timeframe.bucketStart(day)
            }
            if bucket == current {
                let k = out.count - 1
                out.high[k] = Swift.max(out.high[k], high[i])
                out.low[k] = Swift.min(out.low[k], low[i])
                out.close[k] = close[i]
                out.volume[k] += volume[i]
            } else {
                out.append(time: bucket, open: open[i], high: high[i], low: low[i], close: close[i], volume: volume[i])
                current = bucket
            }
        }
        return out
    }
}
