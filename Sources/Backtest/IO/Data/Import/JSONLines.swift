import BacktestAnalysis
import BacktestCore

/// Helpers shared by the JSON-lines importers (trades, book).
enum JSONLines {
    /// Parses each non-blank line of `text` as one JSON object and calls `body` with it.
    /// - Throws: `InputError` at `file:line` for a syntax error or a non-object line.
    static func forEachObject(_ text: InputText, _ body: (JSONValue, Int) throws -> Void) throws {
        try text.forEachLine { range, line in
            let value: JSONValue
            do { value = try JSONParser.parse(text.slice(range)) } catch let e as JSONSyntaxError {
                throw e.inputError(file: text.file, bytes: text.slice(range), firstLine: line)
            }
            guard case .object = value else {
                throw InputError("expected a JSON object, found \(value.kindName)", file: text.file, line: line)
            }
            try body(value, line)
            return true
        }
    }

    /// A time value as UTC milliseconds: epoch seconds (< 1e11), milliseconds (< 1e14) or
    /// microseconds as a number or string, or an ISO-8601 string whose fraction of a second is
    /// kept to the millisecond (truncated below it); `yyyymmdd` strings are dates.
    static func timeMs(_ value: JSONValue) -> Int64? {
        switch value {
        case .number(let v):
            return epochMilliseconds(v)
        case .string(let s):
            let trimmed = s.trimmingSpaces
            if !trimmed.isEmpty, trimmed.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }),
               let v = Double(trimmed), v.isFinite {
                if trimmed.count == 8, !trimmed.contains("."), let t = DecimalParsing.time(trimmed) { return t * 1000 }
                return epochMilliseconds(v)
            }
            guard let seconds = DecimalParsing.time(s) else { return nil }
            return seconds * 1000 + isoMilliseconds(trimmed)
        default:
            return nil
        }
    }

    /// An epoch number in seconds (< 1e11), milliseconds (< 1e14) or microseconds, as whole ms.
    private static func epochMilliseconds(_ v: Double) -> Int64? {
        guard v.isFinite, v >= 0, v < 9e18 else { return nil }
        let ms = v >= 1e14 ? v / 1e3 : v >= 1e11 ? v : v * 1e3
        return Int64(ms.rounded(.down))
    }

    /// The milliseconds of an ISO-8601 time's fraction of a second (`...:05.123Z` is 123), 0
    /// without one. The text is already known to be a valid ISO-8601 time.
    private static func isoMilliseconds(_ text: String) -> Int64 {
        guard let dot = text.firstIndex(of: ".") else { return 0 }
        var ms: Int64 = 0, digits = 0
        for ch in text[text.index(after: dot)...] {
            guard let d = ch.wholeNumberValue, ch.isASCII else { break }
            if digits < 3 { ms = ms * 10 + Int64(d) }
            digits += 1
        }
        while digits < 3 { ms *= 10; digits += 1 }
        return ms
    }

    /// A finite, non-negative number given as a JSON number or a numeric string (exchanges send
    /// prices as strings).
    static func amount(_ value: JSONValue, _ name: String, file: String, line: Int) throws -> Double {
        let result: Result<Double, DecimalParsing.Failure>
        switch value {
        case .number(let v): result = .success(v)
        case .string(let s): result = DecimalParsing.double(s)
        default: throw InputError("\(name) must be a number, found \(value.kindName)", file: file, line: line)
        }
        switch result {
        case .success(let v) where v < 0: throw InputError("\(name) \(v) is negative", file: file, line: line)
        case .success(let v): return v
        case .failure(.missing): throw InputError("missing \(name)", file: file, line: line)
        case .failure(.notFinite): throw InputError("\(name) is not finite", file: file, line: line)
        case .failure(.notANumber): throw InputError("\(name) is not a number", file: file, line: line)
        }
    }
}
