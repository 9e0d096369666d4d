import BacktestCore
import Foundation

/// Round ticks for value axes and calendar ticks for time axes of the SVG charts.
enum SVGAxis {
    /// Ticks inside [`lo`, `hi`] at a round step (1, 2, 2.5 or 5 x 10^k) giving at most `count`
    /// of them, and the step.
    static func ticks(_ lo: Double, _ hi: Double, count: Int) -> (values: [Double], step: Double) {
        guard lo.isFinite, hi.isFinite, hi > lo, count > 0 else { return ([], 1) }
        let step = niceStep((hi - lo) / Double(count))
        var values: [Double] = []
        var k = (lo / step).rounded(.up)
        while k * step <= hi * (1 + 1e-12) + 1e-300 {
            // 12 significant digits, so -3 x 0.1 is -0.3, not -0.30000000000000004.
            let v = NumberText.twelveSignificantDigits(k * step)
            values.append(abs(v) < step * 1e-9 ? 0 : v)
            k += 1
        }
        return (values, step)
    }

    /// The smallest of 1, 2, 2.5, 5 x 10^k that is >= `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let p = pow(10, log10(raw).rounded(.down))
        for m in [1.0, 2, 2.5, 5, 10] where m * p >= raw * (1 - 1e-12) { return m * p }
        return 10 * p
    }

    /// A tick's text: decimals from the step, thousands separators, `%` for percentages
    /// (`value` then a fraction: 0.25 prints `25%`).
    static func label(_ value: Double, step: Double, percent: Bool = false) -> String {
        let v = percent ? value * 100 : value, s = percent ? step * 100 : step
        let decimals = max(0, min(8, Int((-log10(s) - 1e-9).rounded(.up))))
        var text = String(format: "%.\(decimals)f", v)
        if text.hasPrefix("-") && Double(text) == 0 { text.removeFirst() }
        // Thousands separators in the whole part.
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        let parts = text.split(separator: ".", maxSplits: 1)
        var whole = String(parts[0])
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        text = whole + grouped + (parts.count > 1 ? "." + parts[1] : "")
        return (negative ? "-" : "") + text + (percent ? "%" : "")
    }

    /// A time tick: the first bar at or after a calendar boundary, and its text.
    struct TimeTick: Equatable {
        var index: Int
        var text: String
    }

    private enum Unit { case minute, hour, day, month, year }

    /// Calendar-aligned ticks for bars at `time` drawn over `width` units: the finest step among
    /// 1, 5, 15, 30 minutes, 1, 2, 3, 6, 12 hours, 1, 2 days, weeks, 1, 2, 3, 6 months, 1, 2, 5,
    /// 10, 20, 50 years whose labels are at least `spacing` apart on average. Each tick sits on
    /// the first bar at or after its boundary (gaps such as weekends take no room); labels name
    /// the boundary: years `2007`, months `Mar` (the year at January), days `Mar 15`, times
    /// `14:30` (the date at midnight).
    static func timeTicks(_ time: [Int64], width: Double, spacing: Double = 70) -> [TimeTick] {
        guard time.count >= 2, let first = time.first, let last = time.last, last > first, width > 0 else { return [] }
        let steps: [(Unit, Int)] = [(.minute, 1), (.minute, 5), (.minute, 15), (.minute, 30), (.hour, 1), (.hour, 2), (.hour, 3),
                                    (.hour, 6), (.hour, 12), (.day, 1), (.day, 2), (.day, 7), (.month, 1), (.month, 2),
                                    (.month, 3), (.month, 6), (.year, 1), (.year, 2), (.year, 5), (.year, 10), (.year, 20),
                                    (.year, 50)]
        let span = Double(last - first)
        let seconds: [Unit: Double] = [.minute: 60, .hour: 3600, .day: 86_400, .month: 30.44 * 86_400, .year: 365.25 * 86_400]
        let wanted = max(1, width / spacing)
        let (unit, k) = steps.first { span / (seconds[$0.0]! * Double($0.1)) <= wanted } ?? (.year, 100)
        var ticks: [TimeTick] = []
        var boundary = next(after: first - 1, unit: unit, k: k)
        while boundary <= last {
            var lo = 0, hi = time.count
            while lo < hi { let mid = (lo + hi) / 2; if time[mid] < boundary { lo = mid + 1 } else { hi = mid } }
            if lo < time.count, ticks.last?.index != lo {
                ticks.append(TimeTick(index: lo, text: text(boundary, unit: unit)))
            }
            boundary = next(after: boundary, unit: unit, k: k)
        }
        return ticks
    }

    /// The first boundary of a `k`-`unit` step strictly after `t`.
    private static func next(after t: Int64, unit: Unit, k: Int) -> Int64 {
        let c = UTCTime.civil(t)
        switch unit {
        case .minute, .hour, .day:
            let step = Int64(k) * (unit == .minute ? 60 : unit == .hour ? 3600 : 86_400)
            if unit == .day && k == 7 {
                // Weeks start on Monday (1970-01-05 was one), as bt's weekly buckets.
                let monday: Int64 = 4 * 86_400
                return (floorDiv(t - monday, 604_800) + 1) * 604_800 + monday
            }
            return (floorDiv(t, step) + 1) * step
        case .month:
            var m = c.month + 1, y = c.year
            while (m - 1) % k != 0 { m += 1 }
            while m > 12 { m -= 12; y += 1 }
            return UTCTime.epoch(year: y, month: m, day: 1)
        case .year:
            var y = c.year + 1
            while y % k != 0 { y += 1 }
            return UTCTime.epoch(year: y, month: 1, day: 1)
        }
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func text(_ t: Int64, unit: Unit) -> String {
        let c = UTCTime.civil(t)
        switch unit {
        case .year: return String(c.year)
        case .month: return c.month == 1 ? String(c.year) : months[c.month - 1]
        case .day: return c.day == 1 && c.month == 1 ? String(c.year) : "\(months[c.month - 1]) \(c.day)"
        case .minute, .hour:
            let s = floorDiv(t, 60) * 60 - floorDiv(t, 86_400) * 86_400
            if s == 0 { return "\(months[c.month - 1]) \(c.day)" }
            return String(format: "%02d:%02d", s / 3600, s % 3600 / 60)
        }
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
