import Foundation
import BacktestCore

/// Recorded order latencies for `bt replay --latency-file`, as CSV: a header naming `req_ts`,
/// `exch_ts` and `resp_ts` (any order, any case), then one row per recorded request: when it
/// was sent, when the exchange processed it, when its answer came back. These are the columns
/// of hftbacktest's `OrderLatencyRow` (its `.npz` latency files, without `_padding`).
///
/// A time is epoch nanoseconds (digits only, as hftbacktest's rows hold them) or ISO-8601
/// (`2024-01-02T03:04:05.123456789Z`, UTC unless it carries an offset; up to nine digits of a
/// second). Rows in time order (request and exchange times never go back), no negative
/// latency, at least one row. Comma separated; blank lines, a UTF-8 BOM and CRLF are fine.
///
/// `parse` takes untrusted text: it never traps, and throws only `InputError` with the file
/// (and the line, where one is at fault).
package enum LatencyFile {
    package static let columns = ["req_ts", "exch_ts", "resp_ts"]

    /// The table of the file at `path` (`parse`).
    /// - Throws: `InputError` for a file that cannot be read, and `parse`'s.
    package static func read(path: String) throws -> LatencyTable {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(.invalid, "cannot read the latency file", setting: .latencyFile, file: path)
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// The table of `text`, read from `path`.
    /// - Throws: `InputError` (setting `.latencyFile`) at `path:line`: an empty file, a missing,
    ///   unknown or repeated column, a row with the wrong number of fields, a time that is
    ///   neither epoch nanoseconds nor ISO-8601, a row out of time order, a negative latency;
    ///   at `path`: a file with a header and no rows.
    package static func parse(_ text: String, path: String) throws -> LatencyTable {
        func fail(_ reason: String, line: Int? = nil) -> InputError {
            InputError(.invalid, reason, setting: .latencyFile, file: path, line: line)
        }
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        func clean(_ s: Substring) -> String {
            (s.hasSuffix("\r") ? String(s.dropLast()) : String(s)).trimmingWhitespace()
        }
        guard let headerIndex = lines.firstIndex(where: { !clean($0).isEmpty }) else {
            throw fail("empty latency file: expected a header req_ts,exch_ts,resp_ts and a row per recorded request")
        }
        let names = clean(lines[headerIndex]).split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmingWhitespace().lowercased() }
        var index: [String: Int] = [:]
        for (i, name) in names.enumerated() {
            guard columns.contains(name) else {
                throw fail("unknown column '\(Excerpt.shortened(name, limit: 40))' (columns: req_ts, exch_ts, resp_ts)", line: headerIndex + 1)
            }
            guard index[name] == nil else { throw fail("column '\(name)' appears twice", line: headerIndex + 1) }
            index[name] = i
        }
        for name in columns where index[name] == nil {
            throw fail("missing column '\(name)' (need req_ts,exch_ts,resp_ts)", line: headerIndex + 1)
        }
        var rows: [LatencyTable.Row] = []
        var lineOfRow: [Int] = []
        for k in (headerIndex + 1)..<lines.count {
            let line = clean(lines[k])
            if line.isEmpty { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
            guard fields.count == names.count else {
                throw fail("\(fields.count) fields, the header has \(names.count)", line: k + 1)
            }
            let times = try columns.map { name in
                let cell = fields[index[name]!]
                guard let ns = nanoseconds(cell) else {
                    throw fail("\(name) '\(Excerpt.shortened(cell, limit: 40))' is not a time (epoch nanoseconds or ISO-8601)", line: k + 1)
                }
                return ns
            }
            rows.append(LatencyTable.Row(requestNs: times[0], exchangeNs: times[1], responseNs: times[2]))
            lineOfRow.append(k + 1)
        }
        if let problem = LatencyTable.problem(rows) {
            throw fail(problem.reason, line: problem.index.map { lineOfRow[$0] })
        }
        return LatencyTable(rows: rows)
    }

    /// `text` as UTC nanoseconds since the epoch: digits (epoch nanoseconds) or ISO-8601 with
    /// up to nine digits of a second; nil for anything else or a time beyond 2262.
    static func nanoseconds(_ text: String) -> Int64? {
        guard let first = text.first else { return nil }
        if text.allSatisfy(\.isASCIIDigit) { return Int64(text) }
        guard first.isASCIIDigit else { return nil }
        // The fraction of a second follows `YYYY-MM-DDTHH:MM:SS`; parseISO keeps whole seconds.
        var whole = text, fraction: Int64 = 0
        let chars = Array(text)
        if chars.count > 19, chars[19] == "." {
            let digits = chars[20...].prefix(while: \.isASCIIDigit)
            guard !digits.isEmpty, digits.count <= 9 else { return nil }
            fraction = Int64(String(digits) + String(repeating: "0", count: 9 - digits.count))!
            whole = String(chars[..<19]) + String(chars[(20 + digits.count)...])
        }
        guard let seconds = UTCTime.parseISO(Substring(whole)) else { return nil }
        let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        let (total, overflow2) = ns.addingReportingOverflow(fraction)
        return overflow2 ? nil : total
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
