import BacktestAnalysis
import BacktestCore

/// Day-month-year layouts bt recognises without `--date-format`: `M/D/YYYY`, `D/M/YYYY`,
/// `D.M.YYYY`, `YYYY/MM/DD` (also with `-`), each optionally followed by a space or `T` and
/// `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff`.
///
/// Which of day and month comes first is decided from the whole column, never from one row:
/// a first number above 12 anywhere settles day-first, a second number above 12 month-first.
/// Dots are day-first by convention (`D.M.YYYY` is the only dotted layout in use), checked
/// against the column. A slash column where both readings work is refused: the caller asks for
/// `--date-format`.
struct DateLayout: Equatable {
    enum Order: Equatable { case monthFirst, dayFirst, yearFirst }
    var order: Order
    var separator: UInt8

    /// The pieces of one value: three numbers, their digit counts, the separator, and the time
    /// of day in milliseconds (nil when absent).
    struct Parts {
        var a = 0, b = 0, c = 0
        var aDigits = 0, cDigits = 0
        var separator: UInt8 = 0
        var timeOfDay: Int64?
    }

    /// `bytes` split into its parts, or nil when it has none of the shapes above.
    static func parts(_ bytes: UnsafeBufferPointer<UInt8>) -> Parts? {
        var i = 0, n = bytes.count
        while i < n, bytes[i] == 32 || bytes[i] == 9 { i += 1 }
        while n > i, bytes[n - 1] == 32 || bytes[n - 1] == 9 { n -= 1 }
        func number(_ most: Int) -> (Int, Int)? {
            var v = 0, k = 0
            while k < most, i < n, bytes[i] &- 48 < 10 { v = v * 10 + Int(bytes[i] &- 48); i += 1; k += 1 }
            return k > 0 ? (v, k) : nil
        }
        var p = Parts()
        guard let (a, ad) = number(4), i < n else { return nil }
        let sep = bytes[i]
        guard sep == 47 || sep == 46 || sep == 45 else { return nil }  // / . -
        i += 1
        guard let (b, bd) = number(2), bd <= 2, i < n, bytes[i] == sep else { return nil }
        i += 1
        guard let (c, cd) = number(4) else { return nil }
        guard (ad <= 2 && cd == 4) || (ad == 4 && cd <= 2) else { return nil }
        (p.a, p.b, p.c, p.aDigits, p.cDigits, p.separator) = (a, b, c, ad, cd, sep)
        if i < n {
            guard bytes[i] == 32 || bytes[i] == 84 else { return nil }  // ' ' or 'T'
            i += 1
            guard let (h, _) = number(2), i < n, bytes[i] == 58 else { return nil }
            i += 1
            guard let (m, md) = number(2), md == 2 else { return nil }
            var s = 0, ms = 0
            if i < n, bytes[i] == 58 {
                i += 1
                guard let (v, sd) = number(2), sd == 2 else { return nil }
                s = v
                if i < n, bytes[i] == 46 || bytes[i] == 44 {
                    i += 1
                    guard let (f, fd) = number(9) else { return nil }
                    ms = fd >= 3 ? f / DateFormat.power(fd - 3) : f * DateFormat.power(3 - fd)
                }
            }
            guard i == n, h < 24, m < 60, s < 60 else { return nil }
            p.timeOfDay = Int64(((h * 60 + m) * 60 + s) * 1000 + ms)
        }
        return p
    }

    enum Decision { case success(DateLayout), failure(String) }

    /// What the column says about the order of day and month.
    struct Evidence {
        var separator: UInt8?
        var yearFirst = false
        var firstAbove12: Int?
        var secondAbove12: Int?
        var mixedSeparators: Int?

        mutating func add(_ p: Parts, line: Int) {
            if separator == nil { separator = p.separator; yearFirst = p.aDigits == 4 }
            if p.separator != separator || (p.aDigits == 4) != yearFirst { mixedSeparators = mixedSeparators ?? line }
            if !yearFirst {
                if p.a > 12 && firstAbove12 == nil { firstAbove12 = line }
                if p.b > 12 && secondAbove12 == nil { secondAbove12 = line }
            }
        }

        /// The layout, or why there is none.
        func decide() -> Decision {
            guard let sep = separator else { return .failure("no dates") }
            if let line = mixedSeparators { return .failure("line \(line) writes its date differently from the first row") }
            if yearFirst { return .success(DateLayout(order: .yearFirst, separator: sep)) }
            let shown = "\(Character(UnicodeScalar(sep)))"
            switch (firstAbove12, secondAbove12) {
            case (let a?, let b?):
                return .failure("line \(a) has a first number above 12 and line \(b) a second one: neither day-first nor "
                                    + "month-first fits every row")
            case (_?, nil): return .success(DateLayout(order: .dayFirst, separator: sep))
            case (nil, _?):
                if sep == 46 { return .failure("D.M.YYYY dates are day-first, but line \(secondAbove12!) has a month above 12") }
                return .success(DateLayout(order: .monthFirst, separator: sep))
            case (nil, nil):
                if sep == 46 { return .success(DateLayout(order: .dayFirst, separator: sep)) }
                return .failure("the dates read as both D\(shown)M\(shown)YYYY and M\(shown)D\(shown)YYYY (no day above 12 settles it)")
            }
        }
    }

    /// Milliseconds since the epoch as written (local), and whether there was a time of day.
    func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (milliseconds: Int64, hasTime: Bool)? {
        guard let p = Self.parts(bytes), p.separator == separator, (p.aDigits == 4) == (order == .yearFirst) else { return nil }
        let (y, m, d) = switch order {
        case .yearFirst: (p.a, p.b, p.c)
        case .monthFirst: (p.c, p.a, p.b)
        case .dayFirst: (p.c, p.b, p.a)
        }
        guard (1...12).contains(m), d >= 1, d <= UTCTime.daysInMonth(year: y, month: m), y >= 1 else { return nil }
        return (UTCTime.epoch(year: y, month: m, day: d) * 1000 + (p.timeOfDay ?? 0), p.timeOfDay != nil)
    }

    /// `M/D/YYYY` and the like, for messages.
    var name: String {
        let s = "\(Character(UnicodeScalar(separator)))"
        return switch order {
        case .yearFirst: "YYYY\(s)MM\(s)DD"
        case .monthFirst: "M\(s)D\(s)YYYY"
        case .dayFirst: "D\(s)M\(s)YYYY"
        }
    }
}
