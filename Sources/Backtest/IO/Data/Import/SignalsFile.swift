import Foundation
import BacktestCore

/// Signals made by another tool, as CSV: a header naming `time`, `entry`, `exit` and optionally
/// `short_entry` and `short_exit` (any order, any case), then one row per bar with a signal.
///
/// Times are ISO-8601 dates or date-times (UTC unless they carry an offset), `yyyymmdd`, or
/// epoch seconds, milliseconds or microseconds, as for candle imports. Booleans are `0`/`1` or
/// `true`/`false` (any case). Bars without a row have no signal. Rows before the first or after
/// the last loaded bar are skipped (they belong to bars left out by `--from`/`--to`); inside
/// that range every time must be a bar's time. Comma separated; a UTF-8 BOM and CRLF are fine.
///
/// `parse` takes untrusted text: it never traps, and throws only `InputError` with the file
/// and line.
public enum SignalsFile {
    /// The columns, in the order `bt signals` writes them.
    public static let columns = ["time", "entry", "exit", "short_entry", "short_exit"]

    /// The signals of the file at `path` on bars at `times` (`parse`).
    /// - Throws: `InputError` for a file that cannot be read, and `parse`'s.
    public static func read(path: String, times: [Int64]) throws -> Signals {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError("cannot read the signals file", at: path) }
        return try parse(String(decoding: data, as: UTF8.self), path: path, times: times)
    }

    /// The signals of `text` on bars at `times` (strictly increasing).
    /// - Throws: `InputError` at `path:line`: a missing or unknown column, a row with the wrong
    ///   number of fields, a bad time, a time with no bar, a time given twice, a bad boolean.
    public static func parse(_ text: String, path: String, times: [Int64]) throws -> Signals {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        func clean(_ s: Substring) -> String {
            (s.hasSuffix("\r") ? String(s.dropLast()) : String(s)).trimmingWhitespace()
        }
        guard let headerIndex = lines.firstIndex(where: { !clean($0).isEmpty }) else {
            throw InputError("empty signals file: expected a header time,entry,exit[,short_entry,short_exit]", at: path)
        }
        let names = clean(lines[headerIndex]).split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmingWhitespace().lowercased() }
        var index: [String: Int] = [:]
        for (i, name) in names.enumerated() {
            guard columns.contains(name) else {
                let hint = Suggest.closest(to: name, among: columns).map { "; did you mean '\($0)'?" } ?? ""
                throw InputError("unknown column '\(name)'\(hint) (columns: \(columns.joined(separator: ", ")))",
                                 file: path, line: headerIndex + 1)
            }
            guard index[name] == nil else { throw InputError("column '\(name)' appears twice", file: path, line: headerIndex + 1) }
            index[name] = i
        }
        for required in columns.prefix(3) where index[required] == nil {
            throw InputError("missing column '\(required)' (need time,entry,exit)", file: path, line: headerIndex + 1)
        }
        let hasShort = index["short_entry"] != nil
        guard hasShort == (index["short_exit"] != nil) else {
            throw InputError("short_entry and short_exit come together", file: path, line: headerIndex + 1)
        }
        let n = times.count
        var flags = [[Bool]](repeating: [Bool](repeating: false, count: n), count: hasShort ? 4 : 2)
        var seen = [Int](repeating: 0, count: n)  // line that set each bar, 0 for none
        let signalColumns = Array(columns.dropFirst().prefix(flags.count))
        for k in (headerIndex + 1)..<lines.count {
            let line = clean(lines[k])
            if line.isEmpty { continue }
            let number = k + 1
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
            guard fields.count == names.count else {
                throw InputError("\(fields.count) fields, the header has \(names.count)", file: path, line: number)
            }
            let timeText = fields[index["time"]!]
            guard let t = DecimalParsing.time(timeText) else {
                throw InputError("bad time '\(timeText)' (ISO-8601, yyyymmdd or epoch seconds/ms/µs)", file: path, line: number)
            }
            var values: [Bool] = []
            for name in signalColumns {
                let cell = fields[index[name]!]
                switch cell.lowercased() {
                case "1", "true", "1.0": values.append(true)
                case "0", "false", "0.0": values.append(false)
                default:
                    throw InputError("\(name) '\(cell)' is not a boolean (0, 1, true or false)", file: path, line: number)
                }
            }
            guard let first = times.first, let last = times.last, t >= first, t <= last else { continue }
            let bar = lowerBound(times, t)
            guard bar < n, times[bar] == t else {
                throw InputError("no bar at \(UTCTime.iso(t)) (signal times must be times of the loaded bars)", file: path, line: number)
            }
            guard seen[bar] == 0 else {
                throw InputError("time \(UTCTime.iso(t)) repeats line \(seen[bar])", file: path, line: number)
            }
            seen[bar] = number
            for (c, v) in values.enumerated() { flags[c][bar] = v }
        }
        return Signals(entries: flags[0], exits: flags[1],
                       shortEntries: hasShort ? flags[2] : nil, shortExits: hasShort ? flags[3] : nil)
    }

    /// The CSV `bt signals` prints: the header, then one row per bar with ISO-8601 times and 0/1.
    public static func csv(times: [Int64], signals: Signals) -> String {
        let withShort = signals.shortEntries != nil && signals.shortExits != nil
        var out = (withShort ? columns : Array(columns.prefix(3))).joined(separator: ",") + "\n"
        out.reserveCapacity(times.count * (withShort ? 30 : 26))
        for i in times.indices {
            out += UTCTime.iso(times[i])
            out += signals.entries[i] ? ",1" : ",0"
            out += signals.exits[i] ? ",1" : ",0"
            if withShort {
                out += signals.shortEntries![i] ? ",1" : ",0"
                out += signals.shortExits![i] ? ",1" : ",0"
            }
            out += "\n"
        }
        return out
    }

    private static func lowerBound(_ times: [Int64], _ t: Int64) -> Int {
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
