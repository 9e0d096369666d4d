import Foundation

extension TradingSession {
    /// When the bar stamped `t` of a series at `timeframe` that follows this session closes:
    /// an intraday bar at the session's close if that comes before its length is up (a 1h
    /// series of a 09:30-16:00 session ends its 15:30 bar at 16:00), a daily bar (stamped 00:00
    /// UTC of its local date) at that date's close; otherwise, and for coarser bars, bars
    /// outside the session's hours and zones the system does not know, `Timeframe.barEnd`.
    public func barEnd(_ t: Int64, timeframe: Timeframe) -> Int64 {
        let nominal = timeframe.barEnd(t)
        guard timeframe <= .day1, let zone = try? Self.timeZone(zone) else { return nominal }
        func offset(_ u: Int64) -> Int64 { Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(u)))) }
        let end: Int64
        if timeframe == .day1 {
            let local = t + Int64(close) * 60
            end = local - offset(local)
        } else {
            let local = t + offset(t)
            end = floorDiv(local, 86_400) * 86_400 + Int64(close) * 60 - offset(t)
        }
        return end > t && end < nominal ? end : nominal
    }
}
