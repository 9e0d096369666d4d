import BacktestAnalysis
import BacktestCore

/// Reads candle CSV files: generic with a header, or Binance klines without one.
///
/// One pass over the bytes: each line is split into field spans and only the needed fields are
/// parsed, straight from the bytes (`DecimalParsing`). A second pass over the time column runs
/// only when its dates need a layout decided from the whole column (`DateLayout`). With
/// `adjusted`, the adjusted close replaces the close, open, high and low are scaled by
/// adjusted/close and the volume by its inverse (`PriceAdjustment`). A symbol column or a wide layout splits the file into
/// one series per symbol.
/// - Complexity: O(file size); no allocation per row beyond the growing columns.
enum CSVImporter {
    /// The file's series (symbol nil: the file's one series) and the lines skipped as bad.
    struct Output {
        var series: [(symbol: String?, candles: ParsedCandles)] = []
        var skipped = SkippedRows()
        /// The first row's time is a time of day without an offset (`TimeReader.isWallClock`).
        var wallClock = false
    }

    static func read(_ text: InputText, format: ImportFormat, options: ImportOptions = ImportOptions()) throws -> Output {
        var lines = text.lines
        let l: CSVLayout
        if format == .binance {
            l = .binance
            if options.symbolColumn != nil || options.layout == .wide {
                throw InputError("a Binance kline file has no header: it holds one symbol", setting: options.layout == .wide ? .layout : .symbolColumn)
            }
        } else {
            guard let (range, number) = lines.next() else { throw InputError("file is empty", at: text.file) }
            l = try CSVLayout(header: text.slice(range), file: text.file, line: number, adjusted: options.adjusted,
                              symbolColumn: options.symbolColumn, wide: options.layout == .wide)
        }
        var bySymbol: [String: Int] = [:]
        var out = Output()
        let capacity = text.bytes.count / 48
        var spans: [Range<Int>] = []
        spans.reserveCapacity(16)
        var unit: (unit: DecimalParsing.EpochUnit, line: Int)?
        var reader: TimeReader?
        let zone = try options.timeZone.map(TradingSession.timeZone)
        let dateFormat = try options.dateFormat.map(DateFormat.init)

        // The file's one series (no symbol column) is filled in place; split files go through
        // `bySymbol`.
        var single = ParsedCandles(file: text.file, capacity: 0)
        var singleUsed = false
        func series(_ symbol: String) -> Int {
            if let k = bySymbol[symbol] { return k }
            out.series.append((symbol, ParsedCandles(file: text.file)))
            bySymbol[symbol] = out.series.count - 1
            return out.series.count - 1
        }
        if l.symbol == nil && l.wide.isEmpty {
            single.series.reserveCapacity(capacity)
            single.lines.reserveCapacity(capacity)
            singleUsed = true
        }

        while let (range, lineNumber) = lines.next() {
            let line = text.slice(range)
            do {
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
                if reader == nil {
                    reader = try TimeReader.decide(first: timeField, format: dateFormat, zone: zone, file: text.file) {
                        timeColumn(text, column: l.time, delimiter: l.delimiter, after: lineNumber)
                    }
                    out.wallClock = reader!.isWallClock(timeField)
                }
                let t = floorDiv(try reader!.milliseconds(line, spans[l.time], unit: &unit, zoneName: options.timeZone,
                                                          file: text.file, line: lineNumber), 1000)
                func number(_ column: Int, _ name: String) throws -> Double {
                    switch DecimalParsing.double(UnsafeBufferPointer(rebasing: line[spans[column]])) {
                    case .success(let v): return v
                    case .failure(let f): throw fieldError(f, name, CSVLine.text(line, spans[column]), text.file, lineNumber)
                    }
                }
                if !l.wide.isEmpty {
                    for (column, symbol) in l.wide where column < spans.count {
                        let field = UnsafeBufferPointer(rebasing: line[spans[column]])
                        if case .failure(.missing) = DecimalParsing.double(field) { continue }  // no bar for this symbol
                        let c = try number(column, "\(symbol) close")
                        out.series[series(symbol)].candles.append(line: lineNumber, time: t, open: c, high: c, low: c, close: c,
                                                                  volume: .nan)
                    }
                    continue
                }
                var o = try number(l.open, "open"), h = try number(l.high, "high")
                var lo = try number(l.low, "low"), c = try number(l.close, "close")
                var v: Double
                if let k = l.volume {
                    switch DecimalParsing.double(UnsafeBufferPointer(rebasing: line[spans[k]])) {
                    case .success(let x): v = x
                    case .failure(.missing) where o == h && h == lo && lo == c:
                        v = .nan  // a close-only bar as bt exports it: volume left empty
                    case .failure(let f): throw fieldError(f, "volume", CSVLine.text(line, spans[k]), text.file, lineNumber)
                    }
                } else {
                    v = l.closeOnly ? .nan : 0
                }
                if let a = l.adjustedClose {
                    let adj = try number(a, "adj close")
                    guard PriceAdjustment.apply(adjusted: adj, open: &o, high: &h, low: &lo, close: &c, volume: &v) else {
                        throw InputError(PriceAdjustment.refusal(close: c, adjustedName: "adj close"), file: text.file, line: lineNumber)
                    }
                }
                var symbol = ""
                if let s = l.symbol {
                    let name = CSVLine.text(line, spans[s]).trimmingSpaces
                    do { symbol = try Symbol.validated(name) } catch {
                        throw InputError("symbol \(Excerpt.quoted(name)) is not valid: \(Symbol.problem(name) ?? ""); \(Symbol.rule)",
                                         file: text.file, line: lineNumber)
                    }
                }
                if singleUsed {
                    single.append(line: lineNumber, time: t, open: o, high: h, low: lo, close: c, volume: v)
                } else {
                    out.series[series(symbol)].candles.append(line: lineNumber, time: t, open: o, high: h, low: lo, close: c, volume: v)
                }
            } catch let e as InputError where options.skipBadRows && e.line == lineNumber && e.kind == .invalid {
                out.skipped.add(lineNumber, e.reason)
            }
        }
        if singleUsed { out.series = [(nil, single)] }
        if out.series.allSatisfy({ $0.candles.series.isEmpty }) {
            throw InputError(out.skipped.count > 0 ? "every data row is bad (\(out.skipped.summary))" : "no data rows after the header",
                             at: text.file)
        }
        return out
    }

    /// The fields `column` of the data rows from line `after` on, with their lines (for
    /// `TimeReader.decide`).
    static func timeColumn(_ text: InputText, column: Int, delimiter: UInt8, after header: Int) -> [(UnsafeBufferPointer<UInt8>, Int)] {
        var values: [(UnsafeBufferPointer<UInt8>, Int)] = []
        var spans: [Range<Int>] = []
        for (range, number) in text.lines where number >= header {
            let line = text.slice(range)
            _ = CSVLine.split(line, delimiter: delimiter, into: &spans)
            if spans.count > column { values.append((UnsafeBufferPointer(rebasing: line[spans[column]]), number)) }
        }
        return values
    }

    static func fieldError(_ failure: DecimalParsing.Failure, _ name: String, _ shown: String, _ file: String, _ line: Int) -> InputError {
        switch failure {
        case .missing: return InputError("missing \(name)", file: file, line: line)
        case .notANumber: return InputError("\(name) \(Excerpt.quoted(shown)) is not a number", file: file, line: line)
        case .notFinite: return InputError("\(name) \(Excerpt.quoted(shown)) is not finite", file: file, line: line)
        }
    }
}
