
/// How many bars make a year, inferred from bar times.
public enum PeriodsPerYear {
    /// Trading days per year when the data skip weekends (empyrical's `APPROX_BDAYS_PER_YEAR`).
    public static let tradingDays = 252.0
    /// Calendar days per year when the data trade every day (crypto).
    public static let calendarDays = 365.0

    /// Bars per year for `time` (UTC seconds, increasing):
    /// - weekly bars 52, monthly bars 12;
    /// - daily and intraday bars: days per year x the median number of bars per UTC day, where
    ///   days per year is 365 when at least 20% of the distinct days are Saturdays or Sundays
    ///   (a full week has 2/7, about 29%), else 252. Daily stock data gives 252, crypto 365,
    ///   hourly forex (with a couple of Sunday-evening bars a week) 252 x 24.
    /// Fewer than two bars give 252.
    /// - Complexity: O(n log n) for the median.
    public static func infer(from time: [Int64]) -> Double {
        guard time.count >= 2 else { return tradingDays }
        switch Timeframe.infer(from: time) {
        case .week1?: return 52
        case .month1?: return 12
        default: break
        }
        var perDay = [Int]()
        var weekendDays = 0
        var currentDay = Int64.min
        // The current day's first and next day's first second: a bar inside them needs no division.
        var dayStart = Int64.max, dayEnd = Int64.min
        for t in time {
            if t >= dayStart && t < dayEnd {
                perDay[perDay.count - 1] += 1
                continue
            }
            let day = floorDiv(t, 86_400)
            (dayStart, dayEnd) = (day &* 86_400, day &* 86_400 &+ 86_400)
            if day != currentDay {
                currentDay = day
                perDay.append(0)
                // 1970-01-01 was a Thursday: day 2 is Saturday, day 3 Sunday.
                let weekday = ((day % 7) + 7) % 7
                if weekday == 2 || weekday == 3 { weekendDays += 1 }
            }
            perDay[perDay.count - 1] += 1
        }
        perDay.sort()
        let barsPerDay = Double(perDay[perDay.count / 2])
        let days = weekendDays * 5 >= perDay.count ? calendarDays : tradingDays
        return days * barsPerDay
    }
}
