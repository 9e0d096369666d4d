import BacktestAnalysis
import BacktestCore

/// Byte-level number and time parsing for the importers: no `String` per field.
package enum DecimalParsing {
    /// Powers of ten exactly representable as `Double` (Clinger's fast path).
    private static let exactPowers: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Why a field is not a usable number.
    package enum Failure: Error, Equatable {
        case missing, notANumber, notFinite
    }

    /// Parses a decimal number (`-12.5`, `1e-3`, `+7`) from `bytes`, correctly rounded.
    ///
    /// Clinger's fast path (a mantissa below 2^53 scaled by an exact power of ten up to 1e22)
    /// covers price data; anything longer falls back to the standard library's correctly
    /// rounded parser. `nan`/`inf` spellings are reported as `.notFinite`.
    /// - Complexity: O(field length), no allocation on the fast path.
    package static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Double, Failure> {
        var i = 0, n = bytes.count
        while i < n, bytes[i] == 32 || bytes[i] == 9 { i += 1 }
        while n > i, bytes[n - 1] == 32 || bytes[n - 1] == 9 { n -= 1 }
        guard i < n else { return .failure(.missing) }
        let start = i
        var negative = false
        if bytes[i] == 45 || bytes[i] == 43 { negative = bytes[i] == 45; i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0, scale = 0
        var sawDigit = false
        while i < n, bytes[i] &- 48 < 10 {
            if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48); if mantissa > 0 { digits += 1 } }
            else { scale += 1 }
            sawDigit = true
            i += 1
        }
        if i < n, bytes[i] == 46 {
            i += 1
            while i < n, bytes[i] &- 48 < 10 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48); if mantissa > 0 { digits += 1 }; scale -= 1 }
                sawDigit = true
                i += 1
            }
        }
        guard sawDigit else { return nonNumeric(bytes, start, n) }
        if i < n, bytes[i] == 101 || bytes[i] == 69 {
            i += 1
            var expNegative = false
            if i < n, bytes[i] == 45 || bytes[i] == 43 { expNegative = bytes[i] == 45; i += 1 }
            var e = 0, expDigits = 0
            while i < n, bytes[i] &- 48 < 10 { e = min(e * 10 + Int(bytes[i] &- 48), 100_000); expDigits += 1; i += 1 }
            guard expDigits > 0 else { return .failure(.notANumber) }
            scale += expNegative ? -e : e
        }
        guard i == n else { return .failure(.notANumber) }
        if mantissa < (1 << 53) && scale >= -22 && scale <= 22 {
            var v = Double(mantissa)
            if scale < 0 { v /= exactPowers[-scale] } else { v *= exactPowers[scale] }
            return .success(negative ? -v : v)
        }
        // Slow path: the standard library's correctly rounded parser.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<n]), as: UTF8.self)
        guard let v = Double(text) else { return .failure(.notANumber) }
        return v.isFinite ? .success(v) : .failure(.notFinite)
    }

    private static func nonNumeric(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Result<Double, Failure> {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).lowercased()
        let bare = text.hasPrefix("-") || text.hasPrefix("+") ? String(text.dropFirst()) : text
        if ["nan", "inf", "infinity"].contains(bare) { return .failure(.notFinite) }
        return .failure(.notANumber)
    }

    /// The unit of an integer epoch, decided by its size: seconds below 1e11 (until the year
    /// 5138), milliseconds below 1e14, microseconds below 1e17, nanoseconds above. A file uses one unit throughout, so
    /// importers check that every epoch of a file has the unit of its first.
    enum EpochUnit: String, Equatable {
        case seconds, milliseconds, microseconds, nanoseconds

        init(_ value: Int64) {
            self = value >= 100_000_000_000_000_000 ? .nanoseconds : value >= 100_000_000_000_000 ? .microseconds
                : value >= 100_000_000_000 ? .milliseconds : .seconds
        }

        /// `value` in this unit as milliseconds, rounded down.
        func milliseconds(_ value: Int64) -> Int64 {
            switch self {
            case .seconds: value * 1000
            case .milliseconds: value
            case .microseconds: value / 1000
            case .nanoseconds: value / 1_000_000
            }
        }
    }

    /// A parsed time field: milliseconds since the epoch, and the unit when it was an epoch number.
    struct Time: Equatable {
        var milliseconds: Int64
        /// nil for dates and date-times.
        var unit: EpochUnit?
        var seconds: Int64 { floorDiv(milliseconds, 1000) }
    }

    /// Parses a field holding a time: an ISO-8601 date or date-time (UTC unless it has an
    /// offset), `yyyymmdd`, or a non-negative integer epoch in seconds, milliseconds (>= 1e11) or
    /// microseconds (>= 1e14) or nanoseconds (>= 1e17), with an optional fraction (dropped below a millisecond).
    static func time(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? { parsedTime(bytes)?.seconds }

    static func parsedTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Time? {
        var i = 0, n = bytes.count
        while i < n, bytes[i] == 32 || bytes[i] == 9 { i += 1 }
        while n > i, bytes[n - 1] == 32 || bytes[n - 1] == 9 { n -= 1 }
        guard i < n else { return nil }
        // Epoch integer (optionally with a fractional part).
        var j = i
        var value: Int64 = 0
        while j < n, bytes[j] &- 48 < 10, value <= (Int64.max - 9) / 10 {
            value = value * 10 + Int64(bytes[j] &- 48)
            j += 1
        }
        if j > i {
            if j == n, j - i == 8, let t = compactDate(value) { return Time(milliseconds: t * 1000, unit: nil) }
            if j == n || (bytes[j] == 46 && j + 1 < n && (j + 1..<n).allSatisfy { bytes[$0] &- 48 < 10 }) {
                let unit = EpochUnit(value)
                var ms = unit.milliseconds(value)
                if unit == .seconds, j < n {
                    // The first three fraction digits are milliseconds.
                    var fraction = 0, digits = 0
                    for k in (j + 1)..<n where digits < 3 { fraction = fraction * 10 + Int(bytes[k] &- 48); digits += 1 }
                    for _ in digits..<3 { fraction *= 10 }
                    ms += Int64(fraction)
                }
                return Time(milliseconds: ms, unit: unit)
            }
            if j - i == 4, j < n, bytes[j] == 45 {
                return UTCTime.parseISOMilliseconds(bytes: UnsafeBufferPointer(rebasing: bytes[i..<n])).map { Time(milliseconds: $0, unit: nil) }
            }
        }
        return nil
    }

    /// ISO-8601 from bytes: `UTCTime.parseISO(bytes:)`.
    @inline(__always)
    static func iso(_ b: UnsafeBufferPointer<UInt8>) -> Int64? { UTCTime.parseISO(bytes: b) }

    /// `yyyymmdd` as written by some exporters, when it is a valid date from 1900 to 2199.
    private static func compactDate(_ v: Int64) -> Int64? {
        let y = Int(v / 10_000), m = Int(v / 100 % 100), d = Int(v % 100)
        guard (1900...2199).contains(y), (1...12).contains(m), (1...UTCTime.daysInMonth(year: y, month: m)).contains(d)
        else { return nil }
        return UTCTime.epoch(year: y, month: m, day: d)
    }


    /// A number from a Swift string (JSON values), with the same rules as `double(_:)`.
    static func double(_ text: String) -> Result<Double, Failure> {
        var text = text
        return text.withUTF8 { double($0) }
    }

    static func time(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { time($0) }
    }

    static func parsedTime(_ text: String) -> Time? {
        var text = text
        return text.withUTF8 { parsedTime($0) }
    }
}
