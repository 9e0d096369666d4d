import BacktestAnalysis
import BacktestCore

/// The file formats `bt data import` reads.
public enum ImportFormat: String, CaseIterable, Sendable {
    /// CSV with a header naming a time column and open, high, low, close (volume optional).
    case csv
    /// Binance kline CSV: no header, 12 columns, open time in ms (or µs).
    case binance
    /// Alpha Vantage `TIME_SERIES_*` JSON.
    case alphavantage
    /// JSON lines of trade prints aggregated into candles.
    case trades
    /// JSON lines of recorded L2 book events.
    case book
    /// CSV of a perpetual future's funding rates: time, rate and optionally mark_price
    /// (`FundingImporter`); never detected, always named.
    case funding

    /// Parses a format name; throws listing the valid names.
    public static func parse(_ text: String) throws -> ImportFormat {
        if let f = ImportFormat(rawValue: text.lowercased()) { return f }
        let hint = Suggest.closest(to: text, among: allCases.map(\.rawValue)).map { "; did you mean '\($0)'?" } ?? ""
        throw InputError("unknown format \(Excerpt.quoted(text))\(hint) (valid: \(allCases.map(\.rawValue).joined(separator: " ")))")
    }

    /// Recognises the format from the file's first non-blank line.
    /// - Throws: `InputError` for an empty or unrecognised file.
    static func detect(_ text: InputText) throws -> ImportFormat {
        guard let first = text.firstLine() else { throw InputError("file is empty", at: text.file) }
        var lineStart = first.range.lowerBound
        while text.bytes[lineStart] == 32 || text.bytes[lineStart] == 9 { lineStart += 1 }
        let line = text.slice(lineStart..<first.range.upperBound)
        let head = line[0]
        if head == 123 {  // '{'
            if let object = try? JSONParser.parse(line) {
                if object["bids", "asks", "b", "a"] != nil { return .book }
                if object["price", "p"] != nil { return .trades }
                if isAlphaVantage(object) { return .alphavantage }
            } else if contains(line, "Time Series") || contains(line, "Meta Data") || contains(line, "Error Message") {
                return .alphavantage
            } else if line.count <= 2, let document = try? JSONParser.parse(text.bytes), isAlphaVantage(document) {
                // A pretty-printed JSON document: Alpha Vantage is the only one we read.
                return .alphavantage
            }
        } else if head &- 48 < 10 {
            let fields = CSVLine.split(line, delimiter: 44)
            if fields.count == 12 { return .binance }
        } else if CSVLayout.looksLikeHeader(line) {
            return .csv
        }
        throw InputError(
            .needsSetting,
            "unknown format: expected a CSV with a header (time, open, high, low, close), a Binance kline CSV, "
                + "Alpha Vantage JSON, or JSON lines of trades or book events",
            setting: .format, file: text.file, line: first.line)
    }

    /// An Alpha Vantage answer: data (`"Meta Data"`, `"Time Series ..."`) or a message in place
    /// of data (`"Error Message"`, `"Note"`, `"Information"`).
    static func isAlphaVantage(_ value: JSONValue) -> Bool {
        guard case .object(let members) = value else { return false }
        return members.contains {
            $0.key.hasPrefix("Time Series") || ["Meta Data", "Error Message", "Note", "Information"].contains($0.key)
        }
    }

    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard bytes.count >= n.count else { return false }
        var k = 0
        while k + n.count <= bytes.count {
            if bytes[k] == n[0] {
                var j = 1
                while j < n.count, bytes[k + j] == n[j] { j += 1 }
                if j == n.count { return true }
            }
            k += 1
        }
        return false
    }
}
