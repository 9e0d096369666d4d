import BacktestAnalysis
import BacktestCore

/// Reads a funding-rate CSV: a header naming a time column (the names the candle importer
/// knows: time, date, timestamp, ...), `rate` (or `funding_rate`) and optionally `mark_price`;
/// one settlement per row. Times are read as candle times are (`TimeReader`: ISO-8601, dates,
/// epochs in s, ms, µs or ns; UTC without an offset) and kept in milliseconds.
///
/// Rows out of time order are sorted; a time given twice is refused (two rates for one
/// settlement), as are rates that are not finite or beyond ±5% (`FundingRate.problem`), a
/// mark price that is not a positive finite number, and an empty file.
/// - Complexity: O(n log n) for n rows (O(n) when already in order).
enum FundingImporter {
    static let rateNames: Set<String> = ["rate", "funding_rate", "fundingrate", "funding rate"]
    static let markPriceNames: Set<String> = ["mark_price", "markprice", "mark price"]

    /// The file's settlements in time order.
    /// - Throws: `InputError` naming the file, line and reason of the first problem.
    static func read(_ text: InputText) throws -> [FundingRate] {
        var lines = text.lines
        guard let (headerRange, headerLine) = lines.next() else { throw InputError("file is empty", at: text.file) }
        let header = text.slice(headerRange)
        let delimiter = CSVLayout.guessDelimiter(header)
        var spans: [Range<Int>] = []
        if let problem = CSVLine.split(header, delimiter: delimiter, into: &spans) {
            throw InputError("header: " + problem.reason, file: text.file, line: headerLine)
        }
        let names = spans.map { CSVLine.text(header, $0).trimmingSpaces.lowercased() }
        func column(_ role: String, _ accepted: Set<String>, required: Bool) throws -> Int? {
            let found = names.indices.filter { accepted.contains(names[$0]) }
            if found.count > 1 {
                throw InputError("the header has \(found.count) \(role) columns; keep one", file: text.file, line: headerLine)
            }
            if found.isEmpty && required {
                let shown = names.prefix(20).map { $0.isEmpty ? "(unnamed)" : Excerpt.shortened($0, limit: 30) }
                throw InputError("missing required column '\(role)' (a funding file has time, rate and optionally mark_price; "
                                     + "header has: \(shown.joined(separator: ", ")))", file: text.file, line: headerLine)
            }
            return found.first
        }
        let time = try column("time", CSVLayout.timeNames, required: true)!
        let rate = try column("rate", rateNames, required: true)!
        let mark = try column("mark_price", markPriceNames, required: false)
        let needed = max(time, rate, mark ?? 0) + 1

        var rows: [FundingRate] = []
        var rowLines: [Int] = []
        var reader: TimeReader?
        var unit: (unit: DecimalParsing.EpochUnit, line: Int)?
        while let (range, lineNumber) = lines.next() {
            let line = text.slice(range)
            if let problem = CSVLine.split(line, delimiter: delimiter, into: &spans) {
                throw InputError(problem.reason, file: text.file, line: lineNumber)
            }
            guard spans.count >= needed, spans.count <= names.count else {
                throw InputError("expected \(names.count) fields as the header names, found \(spans.count)",
                                 file: text.file, line: lineNumber)
            }
            if reader == nil {
                reader = try TimeReader.decide(first: UnsafeBufferPointer(rebasing: line[spans[time]]), format: nil, zone: nil,
                                               file: text.file) {
                    CSVImporter.timeColumn(text, column: time, delimiter: delimiter, after: lineNumber)
                }
            }
            let t = try reader!.milliseconds(line, spans[time], unit: &unit, zoneName: nil, file: text.file, line: lineNumber)
            let r: Double
            switch DecimalParsing.double(UnsafeBufferPointer(rebasing: line[spans[rate]])) {
            case .success(let v): r = v
            case .failure(let f): throw CSVImporter.fieldError(f, "rate", CSVLine.text(line, spans[rate]), text.file, lineNumber)
            }
            var m: Double?
            if let mark {
                switch DecimalParsing.double(UnsafeBufferPointer(rebasing: line[spans[mark]])) {
                case .success(let v): m = v
                case .failure(.missing): m = nil
                case .failure(let f):
                    throw CSVImporter.fieldError(f, "mark_price", CSVLine.text(line, spans[mark]), text.file, lineNumber)
                }
            }
            let row = FundingRate(timeMs: t, rate: r, markPrice: m)
            if let problem = row.problem { throw InputError(problem, file: text.file, line: lineNumber) }
            rows.append(row)
            rowLines.append(lineNumber)
        }
        if rows.isEmpty { throw InputError("no data rows after the header", at: text.file) }
        let order = rows.indices.sorted { rows[$0].timeMs != rows[$1].timeMs ? rows[$0].timeMs < rows[$1].timeMs : $0 < $1 }
        for (a, b) in zip(order, order.dropFirst()) where rows[a].timeMs == rows[b].timeMs {
            throw InputError("time \(UTCTime.iso(floorDiv(rows[b].timeMs, 1000))) (\(rows[b].timeMs) ms) repeats line "
                                 + "\(rowLines[a]); a funding file has one rate per settlement",
                             file: text.file, line: rowLines[b])
        }
        return order.map { rows[$0] }
    }
}

extension [FundingRate] {
    /// The rows as the CSV `FundingImporter` reads back to the same rows: header
    /// `time,rate,mark_price`, ISO-8601 UTC times (with milliseconds when not whole seconds),
    /// values in Swift's shortest round-trip form, a missing mark price left empty.
    /// - Complexity: O(n).
    public func csvText() -> String {
        var out = "time,rate,mark_price\n"
        for row in self {
            out += "\(UTCTime.isoMs(row.timeMs)),\(row.rate),\(row.markPrice.map(\.description) ?? "")\n"
        }
        return out
    }
}
