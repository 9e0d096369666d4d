/// UTC calendar arithmetic and ISO-8601 parsing/formatting without Foundation's formatters.
///
/// Day arithmetic follows Howard Hinnant's `days_from_civil` / `civil_from_days` algorithms
/// (proleptic Gregorian calendar). Times are seconds since 1970-01-01T00:00:00Z.
public enum UTCTime {
    public struct Civil: Equatable, Sendable {
        public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    }

    /// The times bt stores: 1970-01-01T00:00:00Z through 9999-12-31T23:59:59Z, so every stored
    /// time prints as a four-digit-year ISO-8601 time and reads back to itself.
    public static let supportedRange: ClosedRange<Int64> = 0...253_402_300_799

    /// `t` as ISO-8601 when its year has four digits, else as the raw number of seconds (for messages
    /// about times that are out of range or damaged).
    public static func describe(_ t: Int64) -> String {
        (-62_167_219_200...253_402_300_799).contains(t) ? iso(t) : "\(t) s since 1970"
    }

    /// Days since the epoch of a civil date.
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Seconds since the epoch of a civil date and time.
    public static func epoch(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Int64 {
        days(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The civil date and time of `t`.
    public static func civil(_ t: Int64) -> Civil {
        let z0 = floorDiv(t, 86_400)
        let secs = Int(t - z0 * 86_400)
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = Int(doy - (153 * mp + 2) / 5 + 1)
        let m = Int(mp < 10 ? mp + 3 : mp - 9)
        let y = Int(yoe + era * 400) + (m <= 2 ? 1 : 0)
        return Civil(year: y, month: m, day: d, hour: secs / 3600, minute: secs % 3600 / 60, second: secs % 60)
    }

    /// `2024-01-02T03:04:05Z`.
    public static func iso(_ t: Int64) -> String {
        let c = civil(t)
        return "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))T\(pad(c.hour)):\(pad(c.minute)):\(pad(c.second))Z"
    }

    /// `2024-01-02`.
    public static func isoDate(_ t: Int64) -> String {
        let c = civil(t)
        return "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))"
    }

    private static func pad(_ v: Int, _ width: Int = 2) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// Parses an ISO-8601 date or date-time in UTC: `2024-01-02`, `2024-01-02 03:04`,
    /// `2024-01-02T03:04:05`, with optional fractional seconds (truncated) and a `Z` or
    /// `+hh:mm`/`-hh:mm` offset (converted to UTC). Returns nil when the text is not such a time.
    public static func parseISO(_ text: Substring) -> Int64? {
        var copy = String(text)
        return copy.withUTF8 { parseISO(bytes: $0) }
    }

    /// Parses a user-supplied date for a range bound (`setting` is `.from` or `.to`): ISO-8601 or
    /// epoch seconds.
    public static func parseUserDate(_ text: String, setting: Setting) throws -> Int64 {
        if let t = parseISO(Substring(text)) { return t }
        if let v = Int64(text) { return v }
        throw InputError("not a date (use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)", setting: setting, value: text)
    }

    /// The last time `text` names, as an inclusive end (`--to`, `--at`): a bare date (ten
    /// characters, `YYYY-MM-DD`) includes that whole day (its 23:59:59), any other is
    /// `parseUserDate`'s.
    public static func parseUserEnd(_ text: String, setting: Setting) throws -> Int64 {
        let t = try parseUserDate(text, setting: setting)
        return text.count == 10 ? t + 86_399 : t
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension UTCTime {
    /// `2024-01-02T03:04:05.123Z` for UTC milliseconds; whole seconds print without a fraction
    /// (`2024-01-02T03:04:05Z`).
    public static func isoMs(_ ms: Int64) -> String {
        let seconds = floorDiv(ms, 1000), fraction = ms - seconds * 1000
        let text = iso(seconds)
        guard fraction != 0 else { return text }
        let digits = String(fraction)
        return String(text.dropLast()) + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}
