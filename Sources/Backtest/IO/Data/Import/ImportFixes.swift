import BacktestAnalysis
import BacktestCore

/// The settings that read a refused file, found by shape and checked by reading the file again
/// with each (only when it was refused, so a good import pays nothing):
///
/// - rows of several symbols (`Ticker,Date,Open,...`), refused for a duplicate time: the column
///   whose values tell the rows apart becomes the symbol column (columns named like `ticker`,
///   `symbol`, `code` or `name` tried first, then the other columns bt does not read, four at
///   most), when the file then reads as two or more symbols, one with a letter;
/// - a header of a time column and symbols without a close (`date,aapl,amd`): the wide layout;
/// - a header with a funding rate column (`time,rate,mark_price`) that reads as funding rates:
///   `--format funding` (never detected, as a candle file may have a `rate` column too);
/// - a row failing a check (Yahoo's `null` rows): skipping the bad rows, when they are one row
///   or at most a tenth of the file's, and at least two rows are left.
enum ImportFixes {
    /// Adds to `error` (a refusal of `text` read with `options`) what the file holds and the
    /// settings that would read it, if one does.
    static func add(to error: inout InputError, text: InputText, options: ImportOptions) {
        guard error.file == text.file, let format = try? options.format ?? ImportFormat.detect(text) else { return }
        if options.format == nil, format == .csv, let names = header(text)?.names.map({ $0.lowercased() }),
           names.contains(where: FundingImporter.rateNames.contains) {
            var funding = options
            funding.format = .funding
            if (try? Importer.readAll(text: text, options: funding, suggesting: false)) != nil {
                error.reason += "; the header names a funding rate: a file of funding rates"
                error.fixes = [InputError.Fix(.format, ImportFormat.funding.rawValue, purpose: "to store them as funding rates")]
                return
            }
        }
        if format == .csv && options.layout == .long && options.symbolColumn == nil {
            if error.reason.hasPrefix(ParsedCandles.duplicateReason), let (column, symbols) = symbolColumn(text, options) {
                error.reason += "; the file holds \(symbols.count) symbols in its column \(Excerpt.quoted(column)) (\(listed(symbols)))"
                error.fixes = [InputError.Fix(.symbolColumn, column, purpose: "to read one series per symbol")]
                return
            }
            if let symbols = widePanel(text, error, options) {
                error.reason += "; the header names symbols (\(listed(symbols))), not prices: a wide panel of closes"
                error.fixes = [InputError.Fix(.layout, ImportOptions.Layout.wide.rawValue, purpose: "to read one close series per column")]
                return
            }
        }
        if !options.skipBadRows, error.kind == .invalid, error.line != nil || error.key != nil,
           !error.reason.hasPrefix(ParsedCandles.duplicateReason) {
            var skipping = options
            skipping.skipBadRows = true
            guard let files = try? Importer.readAll(text: text, options: skipping, suggesting: false), let skipped = files.first?.skipped.count,
                  skipped > 0 else { return }
            let rows = skipped + files.reduce(0) { n, file in
                if case .candles(let s) = file.content { return n + s.count } else { return n }
            }
            guard (skipped == 1 || skipped * 10 <= rows) && rows - skipped >= 2 else { return }
            error.fixes = [InputError.Fix(.skipBadRows, purpose: "to import the rest and list the \(skipped) bad row\(skipped == 1 ? "" : "s") "
                                              + "of \(rows)")]
        }
    }

    /// Header names that usually hold a symbol, tried first.
    static let symbolNames: Set<String> = [
        "ticker", "symbol", "sym", "code", "name", "instrument", "asset", "security", "stock", "secid", "permno", "ric", "isin",
        "cusip", "coin", "pair", "contract",
    ]

    /// The header's fields as written (trimmed), and its line.
    static func header(_ text: InputText) -> (names: [String], range: Range<Int>, line: Int)? {
        guard let (range, line) = text.firstLine() else { return nil }
        let bytes = text.slice(range)
        let names = CSVLine.split(bytes, delimiter: CSVLayout.guessDelimiter(bytes)).map { CSVLine.text(bytes, $0).trimmingSpaces }
        return (names, range, line)
    }

    /// The column that splits the file into symbols, and the symbols, when there is one.
    static func symbolColumn(_ text: InputText, _ options: ImportOptions) -> (String, [String])? {
        guard let (names, range, line) = header(text),
              let layout = try? CSVLayout(header: text.slice(range), file: text.file, line: line, adjusted: options.adjusted) else {
            return nil
        }
        let used = Set([layout.time, layout.open, layout.high, layout.low, layout.close, layout.volume ?? -1, layout.adjustedClose ?? -1])
        let unused = names.indices.filter { !used.contains($0) && !names[$0].isEmpty }
        let ordered = unused.filter { symbolNames.contains(names[$0].lowercased()) } + unused.filter { !symbolNames.contains(names[$0].lowercased()) }
        for k in ordered.prefix(4) {
            var split = options
            (split.symbolColumn, split.symbol) = (names[k], nil)
            guard let files = try? Importer.readAll(text: text, options: split, suggesting: false) else { continue }
            let symbols = Array(Set(files.map(\.symbol))).sorted()
            if symbols.count >= 2, symbols.contains(where: { $0.contains(where: \.isLetter) }) { return (names[k], symbols) }
        }
        return nil
    }

    /// The symbols of a header without prices or other known columns (no close, open, price,
    /// volume, ...) whose other names are symbols, when the file reads in the wide layout and
    /// the refusal is of its header.
    static func widePanel(_ text: InputText, _ error: InputError, _ options: ImportOptions) -> [String]? {
        guard let (names, _, line) = header(text), error.line == line else { return nil }
        let columns: Set<String> = [
            "close", "c", "open", "o", "high", "h", "low", "l", "price", "qty", "quantity", "amount", "volume", "vol", "v", "value",
            "bid", "ask", "size", "count", "trades", "vwap", "last", "mid", "adj close", "adj_close", "adjclose",
        ]
        guard !names.contains(where: { columns.contains($0.lowercased()) }) else { return nil }
        var wide = options
        (wide.layout, wide.symbol) = (.wide, nil)
        guard let files = try? Importer.readAll(text: text, options: wide, suggesting: false), !files.isEmpty else { return nil }
        return files.map(\.symbol)
    }

    /// `A, B, C`, or the first five and `...`.
    static func listed(_ symbols: [String]) -> String {
        symbols.count <= 5 ? symbols.joined(separator: ", ") : symbols.prefix(5).joined(separator: ", ") + ", ..."
    }
}
