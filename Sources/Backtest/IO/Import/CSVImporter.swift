import BacktestAnalysis
import BacktestCore

/// Reads candle CSV files: generic with a header, or Binance klines without one.
///
/// One pass over the bytes: each line is split into field spans and only the needed fields are
/// parsed, straight from the bytes (`DecimalParsing`). With `adjusted`, the adjusted close
/// replaces the close and open, high and low are scaled by adjusted/close (Yahoo's convention).
/// - Complexity: O(file size); no allocation per row beyond the growing columns.
enum CSVImporter {
    static func read(_ text: InputText, format: ImportFormat, adjusted: Bool) throws -> ParsedCandles {
        var layout: CSVLayout?
        if format == .binance { layout = .binance }
        var out = ParsedCandles(file: text.file, capacity: text.bytes.count / 48)
        var spans: [Range<Int>] = []
        spans.reserveCapacity(16)
        var unit: (unit: DecimalParsing.EpochUnit, line: Int)?
        for (range, lineNumber) in text.lines {
            let line = text.slice(range)
            guard let l = layout else {
                layout = try CSVLayout(header: line, file: text.file, line: lineNumber, adjusted: adjusted)
                continue
            }
            let problem = CSVLine.split(line, delimiter: l.delimiter, into: &spans)
            if format == .binance, lineNumber == 1, let f = spans.first, !f.isEmpty, line[f.lowerBound] &- 48 >= 10 {
                continue  // a header on a Binance dump
            }
            if let problem { throw InputError(problem.reason, file: text.file, line: lineNumber) }
            guard spans.count >= l.fieldsNeeded else {
                throw InputError(
                    "too few fields: expected at least \(l.fieldsNeeded), found \(spans.count)", file: text.file, line: lineNumber)
            }
            guard spans.count <= l.fieldCount else {
                throw InputError(
                    "too many fields: \(spans.count), but the \(l.hasHeader ? "header names" : "format has") \(l.fieldCount) "
                        + "(a decimal comma? quote such values or use another delimiter)",
                    file: text.file, line: lineNumber)
            }
            let timeField = UnsafeBufferPointer(rebasing: line[spans[l.time]])
            guard let parsed = DecimalParsing.parsedTime(timeField) else {
                let shown = CSVLine.text(line, spans[l.time])
                throw InputError(
                    shown.trimmingSpaces.isEmpty ? "missing time"
                        : "time \(Excerpt.quoted(shown)) is not a date, date-time or epoch number",
                    file: text.file, line: lineNumber)
            }
            if let u = parsed.unit {
                if let first = unit, first.unit != u {
                    throw InputError(
                        "time \(Excerpt.quoted(CSVLine.text(line, spans[l.time]).trimmingSpaces)) is an epoch in \(u.rawValue) "
                            + "but line \(first.line) has one in \(first.unit.rawValue); a file must use one unit",
                        file: text.file, line: lineNumber)
                }
                if unit == nil { unit = (u, lineNumber) }
            }
            let t = parsed.seconds
            func number(_ column: Int, _ name: String) throws -> Double {
                switch DecimalParsing.double(UnsafeBufferPointer(rebasing: line[spans[column]])) {
                case .success(let v): return v
                case .failure(let f): throw fieldError(f, name, CSVLine.text(line, spans[column]), text.file, lineNumber)
                }
            }
            var o = try number(l.open, "open"), h = try number(l.high, "high")
            var lo = try number(l.low, "low"), c = try number(l.close, "close")
            let v = try l.volume.map { try number($0, "volume") } ?? 0
            if let a = l.adjustedClose {
                let adj = try number(a, "adj close")
                guard c != 0 else { throw InputError("close is 0, cannot apply adj close", file: text.file, line: lineNumber) }
                let k = adj / c
                o *= k; h *= k; lo *= k; c = adj
            }
            out.append(line: lineNumber, time: t, open: o, high: h, low: lo, close: c, volume: v)
        }
        if layout == nil { throw InputError("file is empty", at: text.file) }
        if out.series.isEmpty { throw InputError("no data rows after the header", at: text.file) }
        return out
    }

    static func fieldError(_ failure: DecimalParsing.Failure, _ name: String, _ shown: String, _ file: String, _ line: Int) -> InputError {
        switch failure {
        case .missing: return InputError("missing \(name)", file: file, line: line)
        case .notANumber: return InputError("\(name) \(Excerpt.quoted(shown)) is not a number", file: file, line: line)
        case .notFinite: return InputError("\(name) \(Excerpt.quoted(shown)) is not finite", file: file, line: line)
        }
    }
}
