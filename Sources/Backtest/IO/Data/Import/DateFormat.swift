import BacktestAnalysis
import BacktestCore

/// A strftime-style date pattern given with `--date-format`, parsed from bytes.
///
/// Directives: `%Y` year (4 digits), `%y` year (2 digits: 69-99 are 1900s, 00-68 2000s, as
/// POSIX), `%m` month, `%d`/`%e` day, `%H` hour (0-23), `%I` hour (1-12) with `%p` (AM/PM),
/// `%M` minute, `%S` second, `%f` fraction of a second (1-9 digits, kept to the millisecond),
/// `%b`/`%B` month name (English, abbreviated or full), `%z` offset (`Z`, `+hh:mm`, `+hhmm`),
/// `%s` epoch seconds, `%F` (`%Y-%m-%d`), `%T` (`%H:%M:%S`) and `%%`. Numeric fields accept
/// one digit fewer than their width (`1/5/2024` under `%m/%d/%Y`). Any other character must
/// appear as written.
public struct DateFormat: Sendable, Equatable {
    enum Token: Equatable {
        case literal(UInt8)
        case year4, year2, month, day, hour24, hour12, minute, second, fraction, ampm, monthName, offset, epoch
    }
    let tokens: [Token]
    public let pattern: String

    /// - Throws: `InputError` (setting `.dateFormat`) for an unknown directive or a pattern
    ///   without a date.
    public init(_ pattern: String) throws {
        self.pattern = pattern
        var out: [Token] = []
        let bytes = Array(pattern.utf8)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 37 else { out.append(.literal(bytes[i])); i += 1; continue }  // '%'
            guard i + 1 < bytes.count else { throw InputError("ends with a lone %", setting: .dateFormat, value: pattern) }
            switch bytes[i + 1] {
            case UInt8(ascii: "Y"): out.append(.year4)
            case UInt8(ascii: "y"): out.append(.year2)
            case UInt8(ascii: "m"): out.append(.month)
            case UInt8(ascii: "d"), UInt8(ascii: "e"): out.append(.day)
            case UInt8(ascii: "H"): out.append(.hour24)
            case UInt8(ascii: "I"): out.append(.hour12)
            case UInt8(ascii: "M"): out.append(.minute)
            case UInt8(ascii: "S"): out.append(.second)
            case UInt8(ascii: "f"): out.append(.fraction)
            case UInt8(ascii: "p"): out.append(.ampm)
            case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "h"): out.append(.monthName)
            case UInt8(ascii: "z"): out.append(.offset)
            case UInt8(ascii: "s"): out.append(.epoch)
            case UInt8(ascii: "F"): out += [.year4, .literal(45), .month, .literal(45), .day]
            case UInt8(ascii: "T"): out += [.hour24, .literal(58), .minute, .literal(58), .second]
            case 37: out.append(.literal(37))
            default:
                throw InputError("has the unsupported directive %\(Character(UnicodeScalar(bytes[i + 1]))) (supported: "
                                     + "%Y %y %m %d %e %H %I %M %S %f %p %b %B %z %s %F %T %%)",
                                 setting: .dateFormat, value: pattern)
            }
            i += 2
        }
        let hasDate = out.contains(.epoch) || ((out.contains(.year4) || out.contains(.year2))
                                                && (out.contains(.month) || out.contains(.monthName)) && out.contains(.day))
        guard hasDate else {
            throw InputError("needs a year, a month and a day (%Y, %m, %d) or %s", setting: .dateFormat, value: pattern)
        }
        if out.contains(.hour12) != out.contains(.ampm) {
            throw InputError("uses %I or %p without the other", setting: .dateFormat, value: pattern)
        }
        tokens = out
    }

    /// True when the pattern has a time of day (local times a time zone applies to).
    var hasTime: Bool { tokens.contains(.hour24) || tokens.contains(.hour12) }

    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let fullMonthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                                 "october", "november", "december"]

    /// The time in `bytes` (surrounding spaces ignored): milliseconds since the epoch as
    /// written (local when the pattern has no `%z`), and whether it had an explicit offset.
    func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (milliseconds: Int64, hasOffset: Bool)? {
        var i = 0, n = bytes.count
        while i < n, bytes[i] == 32 || bytes[i] == 9 { i += 1 }
        while n > i, bytes[n - 1] == 32 || bytes[n - 1] == 9 { n -= 1 }
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, ms = 0
        var pm: Bool?, offset: Int?, epoch: Int64?
        func digits(_ most: Int, least: Int) -> Int? {
            var v = 0, k = 0
            while k < most, i < n, bytes[i] &- 48 < 10 { v = v * 10 + Int(bytes[i] &- 48); i += 1; k += 1 }
            return k >= least ? v : nil
        }
        for token in tokens {
            switch token {
            case .literal(let b):
                guard i < n, bytes[i] == b else { return nil }
                i += 1
            case .year4: guard let v = digits(4, least: 4) else { return nil }; year = v
            case .year2: guard let v = digits(2, least: 2) else { return nil }; year = v >= 69 ? 1900 + v : 2000 + v
            case .month: guard let v = digits(2, least: 1) else { return nil }; month = v
            case .day: guard let v = digits(2, least: 1) else { return nil }; day = v
            case .hour24, .hour12: guard let v = digits(2, least: 1) else { return nil }; hour = v
            case .minute: guard let v = digits(2, least: 2) else { return nil }; minute = v
            case .second: guard let v = digits(2, least: 2) else { return nil }; second = v
            case .fraction:
                let start = i
                guard let v = digits(9, least: 1) else { return nil }
                let count = i - start
                ms = count >= 3 ? v / Self.power(count - 3) : v * Self.power(3 - count)
            case .ampm:
                guard i + 1 < n else { return nil }
                let a = bytes[i] | 0x20, m = bytes[i + 1] | 0x20
                guard (a == 97 || a == 112), m == 109 else { return nil }
                pm = a == 112
                i += 2
            case .monthName:
                var word: [UInt8] = []
                while i < n, (bytes[i] | 0x20) &- 97 < 26 { word.append(bytes[i] | 0x20); i += 1 }
                let text = String(decoding: word, as: UTF8.self)
                guard let k = Self.monthNames.firstIndex(of: text) ?? Self.fullMonthNames.firstIndex(of: text) else { return nil }
                month = k + 1
            case .offset:
                guard i < n else { return nil }
                if bytes[i] == 90 { offset = 0; i += 1; continue }  // 'Z'
                guard bytes[i] == 43 || bytes[i] == 45 else { return nil }
                let sign = bytes[i] == 45 ? -1 : 1
                i += 1
                guard let h = digits(2, least: 2) else { return nil }
                if i < n, bytes[i] == 58 { i += 1 }
                guard let m = digits(2, least: 2) else { return nil }
                offset = sign * (h * 3600 + m * 60)
            case .epoch:
                guard let v = digits(12, least: 1) else { return nil }
                epoch = Int64(v)
            }
        }
        guard i == n else { return nil }
        if let epoch { return (epoch * 1000 + Int64(ms), true) }
        if let pm {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (pm ? 12 : 0)
        }
        guard (1...12).contains(month), day >= 1, day <= UTCTime.daysInMonth(year: year, month: month),
              hour < 24, minute < 60, second < 60 else { return nil }
        let seconds = UTCTime.epoch(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            - Int64(offset ?? 0)
        return (seconds * 1000 + Int64(ms), offset != nil)
    }

    static func power(_ k: Int) -> Int { (0..<k).reduce(1) { r, _ in r * 10 } }
}
