import BacktestAnalysis
import BacktestCore

/// Field splitting for one CSV line, without allocating per line.
///
/// Quotes follow RFC 4180: a field starting with `"` runs to the next `"` not doubled, may hold
/// the delimiter and `""` (a literal quote), and must be followed by the delimiter or the end of
/// the line (spaces aside). A quote inside an unquoted field, text after a closing quote, and a
/// quote left open at the end of the line are errors: bt never guesses what such a field meant.
/// A quoted field cannot span lines (no candle value needs one).
enum CSVLine {
    /// What is wrong with a line's quoting, and in which field (0-based).
    enum Problem: Equatable {
        case unterminatedQuote(field: Int)
        case textAfterQuote(field: Int)
        case quoteInUnquotedField(field: Int)

        var reason: String {
            switch self {
            case .unterminatedQuote(let f): "field \(f + 1) opens a quote that is not closed on this line"
            case .textAfterQuote(let f): "field \(f + 1) has text after its closing quote"
            case .quoteInUnquotedField(let f): "field \(f + 1) has a quote inside an unquoted value (quote the whole field and double the quote)"
            }
        }
    }

    /// Splits `line` on `delimiter` into `spans` (byte ranges relative to `line`; a quoted
    /// field's span is its content between the quotes, with any `""` still doubled). `spans` is
    /// cleared first and keeps its capacity.
    /// - Returns: the first quoting problem, or nil.
    @discardableResult
    static func split(_ line: UnsafeBufferPointer<UInt8>, delimiter: UInt8, into spans: inout [Range<Int>]) -> Problem? {
        spans.removeAll(keepingCapacity: true)
        var k = 0
        let n = line.count
        while true {
            while k < n, line[k] == 32 { k += 1 }
            let field = spans.count
            if k < n, line[k] == 34 {  // quoted field
                let start = k + 1
                k = start
                while true {
                    while k < n, line[k] != 34 { k += 1 }
                    guard k < n else { spans.append(start..<k); return .unterminatedQuote(field: field) }
                    if k + 1 < n, line[k + 1] == 34 { k += 2; continue }  // "" is a literal quote
                    break
                }
                spans.append(start..<k)
                k += 1
                while k < n, line[k] == 32 || line[k] == 9 { k += 1 }
                if k < n, line[k] != delimiter { return .textAfterQuote(field: field) }
            } else {
                let start = k
                while k < n, line[k] != delimiter {
                    if line[k] == 34 { spans.append(start..<k); return .quoteInUnquotedField(field: field) }
                    k += 1
                }
                spans.append(start..<k)
            }
            if k >= n { return nil }
            k += 1
        }
    }

    static func split(_ line: UnsafeBufferPointer<UInt8>, delimiter: UInt8) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        split(line, delimiter: delimiter, into: &spans)
        return spans
    }

    /// The field's text: a quoted field's `""` read as one quote.
    static func text(_ line: UnsafeBufferPointer<UInt8>, _ span: Range<Int>) -> String {
        let raw = String(decoding: UnsafeBufferPointer(rebasing: line[span]), as: UTF8.self)
        return raw.contains("\"\"") ? raw.replacing("\"\"", with: "\"") : raw
    }
}

/// Which CSV column holds what: from a header, or fixed (Binance klines).
struct CSVLayout {
    var delimiter: UInt8 = 44
    var hasHeader: Bool
    var time: Int
    var open: Int
    var high: Int
    var low: Int
    var close: Int
    var volume: Int?
    var adjustedClose: Int?
    /// No open, high or low column: every bar is open = high = low = close, volume missing
    /// (NaN) unless a volume column is given.
    var closeOnly = false
    /// The column naming each row's symbol (`--symbol-column`).
    var symbol: Int?
    /// A wide panel: each column after the time column is the close of the symbol it names.
    var wide: [(column: Int, symbol: String)] = []
    /// Fields of a data row: the header's count, or at most 12 for Binance klines. A row with
    /// more is refused (a decimal comma, `1,5`, would otherwise shift every value after it).
    var fieldCount: Int

    /// Fewest fields a data row needs.
    var fieldsNeeded: Int {
        wide.isEmpty ? [time, open, high, low, close, volume ?? 0, adjustedClose ?? 0, symbol ?? 0].max()! + 1 : time + 1
    }

    /// Binance kline columns: open time, open, high, low, close, volume, close time, ...
    static let binance = CSVLayout(hasHeader: false, time: 0, open: 1, high: 2, low: 3, close: 4, volume: 5, fieldCount: 12)

    static let timeNames: Set<String> = [
        "date", "datetime", "date_time", "date time", "time", "timestamp", "open time", "open_time", "opentime",
        "gmt time", "local time", "unix", "ts",
    ]
    static let adjustedNames: Set<String> = ["adj close", "adj_close", "adjclose", "adjusted close", "adjusted_close"]

    /// A header line: at least two fields, the first empty (a pandas index) or starting with a
    /// letter.
    static func looksLikeHeader(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let fields = CSVLine.split(line, delimiter: guessDelimiter(line))
        guard fields.count >= 2, let first = fields.first else { return false }
        if first.isEmpty { return true }
        let c = line[first.lowerBound] | 0x20
        return c >= 97 && c <= 122
    }

    /// Comma, unless the header has none and has semicolons or tabs.
    static func guessDelimiter(_ line: UnsafeBufferPointer<UInt8>) -> UInt8 {
        if line.contains(44) { return 44 }
        if line.contains(59) { return 59 }
        if line.contains(9) { return 9 }
        return 44
    }

    /// The layout named by a header line (case-insensitive names; a leading unnamed column is
    /// the time index as pandas writes it). Columns bt does not use are ignored, but a header
    /// that could be misread is refused: two columns for one role (`close` twice, or `date` and
    /// `time`), a field with quotes or control characters, or a known name with junk after it
    /// (`volume;x`, `close*`), which would otherwise drop the column silently.
    /// - Throws: `InputError` at `file:line` naming the problem or a missing required column.
    /// With `symbolColumn`, that column names each row's symbol; with `wide`, every column but
    /// the time column is a symbol's close. Without open, high and low columns the file is
    /// close-only.
    init(header line: UnsafeBufferPointer<UInt8>, file: String, line number: Int, adjusted: Bool,
         symbolColumn: String? = nil, wide isWide: Bool = false) throws {
        delimiter = Self.guessDelimiter(line)
        hasHeader = true
        var spans: [Range<Int>] = []
        if let problem = CSVLine.split(line, delimiter: delimiter, into: &spans) {
            throw InputError("header: " + problem.reason, file: file, line: number)
        }
        let names = spans.map { CSVLine.text(line, $0).trimmingSpaces.lowercased() }
        fieldCount = names.count
        let roles: [(name: String, accepted: Set<String>)] = [
            ("time", Self.timeNames), ("open", ["open", "o"]), ("high", ["high", "h"]), ("low", ["low", "l"]),
            ("close", ["close", "c"]), ("volume", ["volume", "vol", "v"]), ("adj close", Self.adjustedNames),
        ]
        for (k, name) in names.enumerated() {
            if name.unicodeScalars.contains(where: { TerminalText.needsEscape($0) }) {
                throw InputError("header field \(k + 1) \(Excerpt.quoted(name)) holds control characters", file: file, line: number)
            }
            guard !isWide, !roles.contains(where: { $0.accepted.contains(name) }) else { continue }
            for role in roles {
                for known in role.accepted where known.count > 1 && name.hasPrefix(known) {
                    let next = name[name.index(name.startIndex, offsetBy: known.count)]
                    if !(next.isLetter || next.isNumber || next == "_" || next == " " || next == ".") {
                        throw InputError("header field \(k + 1) \(Excerpt.quoted(name)) is '\(known)' with \(Excerpt.quoted(String(next))) "
                                             + "after it; fix the header so the column is not dropped", file: file, line: number)
                    }
                }
            }
        }
        for role in roles where !isWide {
            let fields = names.indices.filter { role.accepted.contains(names[$0]) }
            if fields.count > 1 {
                throw InputError("the header has \(fields.count) \(role.name) columns ("
                                     + fields.map { "field \($0 + 1) '\(names[$0])'" }.joined(separator: ", ") + "); keep one",
                                 file: file, line: number)
            }
        }
        func index(_ accepted: Set<String>) -> Int? { names.firstIndex { accepted.contains($0) } }
        func required(_ name: String, _ accepted: Set<String>) throws -> Int {
            guard let i = index(accepted) else {
                let shown = names.prefix(20).map { $0.isEmpty ? "(unnamed)" : Excerpt.shortened($0, limit: 30) }
                throw InputError(
                    "missing required column '\(name)' (header has: \(shown.joined(separator: ", "))\(names.count > 20 ? ", ..." : ""))",
                    file: file, line: number)
            }
            return i
        }
        if let named = index(Self.timeNames) {
            time = named
        } else if isWide || names.first == "" || names.first == "unnamed: 0" || names.first == "index" {
            time = 0
        } else {
            time = try required("date", Self.timeNames)
        }
        if isWide {
            (open, high, low, close, volume) = (time, time, time, time, nil)
            closeOnly = true
            for (k, span) in spans.enumerated() where k != time {
                let name = CSVLine.text(line, span).trimmingSpaces
                if name.isEmpty { continue }
                guard let symbol = try? Symbol.validated(name) else {
                    throw InputError("header field \(k + 1) \(Excerpt.quoted(name)) is not a symbol (a wide file has a time column "
                                         + "and one close column per symbol); \(Symbol.rule)", file: file, line: number)
                }
                if let twin = wide.first(where: { $0.symbol == symbol }) {
                    throw InputError("header fields \(twin.column + 1) and \(k + 1) both name \(symbol)", file: file, line: number)
                }
                wide.append((k, symbol))
            }
            guard !wide.isEmpty else { throw InputError("a wide file needs a column per symbol after the time column", file: file, line: number) }
            return
        }
        if let symbolColumn {
            guard let k = names.firstIndex(of: symbolColumn.trimmingSpaces.lowercased()) else {
                throw InputError(.needsSetting, "no column \(Excerpt.quoted(symbolColumn)) in the header", setting: .symbolColumn,
                                 file: file, line: number)
            }
            symbol = k
        }
        close = try required("close", ["close", "c"])
        let o = index(["open", "o"]), h = index(["high", "h"]), l = index(["low", "l"])
        if o == nil && h == nil && l == nil && !adjusted {
            (open, high, low) = (close, close, close)
            closeOnly = true
        } else {
            open = try required("open", ["open", "o"])
            high = try required("high", ["high", "h"])
            low = try required("low", ["low", "l"])
        }
        volume = index(["volume", "vol", "v"])
        adjustedClose = adjusted ? try required("adj close", Self.adjustedNames) : nil
    }

    init(hasHeader: Bool, time: Int, open: Int, high: Int, low: Int, close: Int, volume: Int?, fieldCount: Int) {
        self.fieldCount = fieldCount
        self.hasHeader = hasHeader
        self.time = time
        self.open = open
        self.high = high
        self.low = low
        self.close = close
        self.volume = volume
    }
}
