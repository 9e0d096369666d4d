import BacktestAnalysis
import BacktestCore

/// What `bt data import` was asked to do, beyond the file paths.
public struct ImportOptions: Sendable {
    /// How a CSV file lays out its symbols.
    public enum Layout: String, Sendable, CaseIterable {
        /// One row per bar (one symbol, or a symbol column).
        case long
        /// A time column and one close column per symbol.
        case wide
    }
    /// Symbol for every file; default: each file's name stem in upper case.
    public var symbol: String?
    /// Timeframe to store; default: inferred from the bars' spacing (1m for trades).
    /// Bars finer than it are aggregated into it.
    public var timeframe: Timeframe?
    /// Forced format; default: detected from the content.
    public var format: ImportFormat?
    /// Use the adjusted close (CSV `adj close`, Alpha Vantage `5. adjusted close`).
    public var adjusted: Bool
    /// strftime-style pattern of the CSV time column; default: detected (`TimeReader`).
    public var dateFormat: String?
    /// IANA zone of local times in the file; default UTC.
    public var timeZone: String?
    /// Trading session stored with every imported series; aggregation into `timeframe` at import
    /// follows it too.
    public var session: TradingSession?
    /// CSV column naming each row's symbol.
    public var symbolColumn: String?
    public var layout: Layout = .long
    /// Leave out rows that fail to parse or validate, and report them, instead of refusing.
    public var skipBadRows = false

    public init(symbol: String? = nil, timeframe: Timeframe? = nil, format: ImportFormat? = nil, adjusted: Bool = false) {
        self.symbol = symbol
        self.timeframe = timeframe
        self.format = format
        self.adjusted = adjusted
    }
}

/// One input file read and validated in memory, ready to be written.
public struct ImportedFile: Sendable {
    public enum Content: Sendable {
        /// Validated candles: sorted, unique times. `timeframe` is nil only when it could not be
        /// inferred (a single bar); the store then uses the symbol's stored timeframe.
        case candles(CandleSeries)
        /// Validated book events, ordered by time, starting with a snapshot.
        case book([BookEvent])
    }
    public var file: String
    /// The format read; nil for generated data.
    public var format: ImportFormat?
    public var symbol: String
    public var content: Content
    /// The trade prints a `trades` file was aggregated from (empty for other formats), stored
    /// beside the candles for `bt calibrate`.
    public var prints: [TradePrint]
    /// The session the series was imported with (`ImportOptions.session`).
    public var session: TradingSession?
    /// Rows left out with `ImportOptions.skipBadRows`.
    public var skipped = SkippedRows()

    public init(file: String, format: ImportFormat?, symbol: String, content: Content, prints: [TradePrint] = []) {
        self.file = file
        self.format = format
        self.symbol = symbol
        self.content = content
        self.prints = prints
    }

    /// Generated candles (e.g. `Synth`) to write like an imported file named `source`.
    public static func generated(_ series: CandleSeries, source: String) -> ImportedFile {
        ImportedFile(file: source, format: nil, symbol: series.symbol, content: .candles(series))
    }

    /// Generated book events for `symbol`.
    public static func generated(book: [BookEvent], symbol: String, source: String) -> ImportedFile {
        ImportedFile(file: source, format: nil, symbol: symbol, content: .book(book))
    }
}

/// Reads input files into validated candles or book events, touching no store.
public enum Importer {
    /// Reads and validates every file in `paths` completely, in order (`-`: standard input,
    /// read once). A file with a symbol column or a wide layout gives one entry per symbol.
    /// - Throws: `InputError` naming the file, line (or JSON key) and reason of the first problem.
    public static func read(paths: [String], options: ImportOptions = ImportOptions()) throws -> [ImportedFile] {
        if paths.filter({ $0 == "-" }).count > 1 { throw InputError("standard input ('-') can be read only once") }
        return try paths.flatMap { try readAll(text: InputText(path: $0), options: options) }
    }

    /// Reads and validates in-memory `bytes` (gzip or not) as if they were the file `name`;
    /// the first series when the file holds several.
    public static func read(bytes: [UInt8], name: String, options: ImportOptions = ImportOptions()) throws -> ImportedFile {
        try readAll(bytes: bytes, name: name, options: options)[0]
    }

    /// Every series of in-memory `bytes` read as the file `name`.
    public static func readAll(bytes: [UInt8], name: String, options: ImportOptions = ImportOptions()) throws -> [ImportedFile] {
        try readAll(text: InputText(file: name, compressed: bytes), options: options)
    }

    static func readAll(text: InputText, options: ImportOptions) throws -> [ImportedFile] {
        let format = try options.format ?? ImportFormat.detect(text)
        let splits = options.symbolColumn != nil || options.layout == .wide
        if splits && options.symbol != nil {
            throw InputError("the symbols come from the file (\(options.layout == .wide ? "its columns" : "its symbol column")); "
                                 + "leave out the symbol", setting: .symbol)
        }
        if format != .csv && format != .binance, options.dateFormat != nil || options.timeZone != nil || splits {
            throw InputError("only CSV files take a date format, a time zone, a symbol column or a wide layout",
                             setting: options.dateFormat != nil ? .dateFormat : options.timeZone != nil ? .timeZone
                                 : options.layout == .wide ? .layout : .symbolColumn)
        }
        let fileSymbol = { try options.symbol.map(Symbol.validated) ?? defaultSymbol(for: text.file) }
        switch format {
        case .book:
            return [ImportedFile(file: text.file, format: format, symbol: try fileSymbol(), content: .book(try BookImporter.read(text)))]
        case .csv, .binance, .alphavantage, .trades:
            if text.firstLine() == nil { throw InputError("file is empty", at: text.file) }
            var prints: [TradePrint] = []
            var parsed: [(symbol: String?, candles: ParsedCandles)]
            var skipped = SkippedRows()
            switch format {
            case .alphavantage: parsed = [(nil, try AlphaVantageImporter.read(text, adjusted: options.adjusted))]
            case .trades:
                let (p, t) = try TradesImporter.read(text, timeframe: options.timeframe ?? TradesImporter.defaultTimeframe)
                (parsed, prints) = ([(nil, p)], t)
            default:
                let out = try CSVImporter.read(text, format: format, options: options)
                (parsed, skipped) = (out.series, out.skipped)
            }
            var files: [ImportedFile] = []
            for (symbol, candles) in parsed where !candles.series.isEmpty {
                var file = try finish(candles, symbol: try symbol ?? fileSymbol(), format: format, text: text, options: options)
                skipped.add(file.skipped)
                file.prints = prints
                file.session = options.session
                files.append(file)
            }
            for k in files.indices { files[k].skipped = skipped }
            return files
        }
    }

    /// Validates one symbol's rows and settles its timeframe.
    static func finish(_ parsed: ParsedCandles, symbol: String, format: ImportFormat, text: InputText,
                       options: ImportOptions) throws -> ImportedFile {
        var (series, skipped) = try parsed.validated(skipBadRows: options.skipBadRows)
        series.symbol = symbol
        let inferred = series.timeframe ?? Timeframe.infer(from: series.time)
        if let wanted = options.timeframe {
            if (inferred.map { $0 < wanted } ?? false) || hasSharedBuckets(series.time, wanted) {
                // With a session, its buckets (09:30-anchored hours), leaving out bars outside it.
                series = try options.session.map { try series.resampled(to: wanted, session: $0) } ?? series.resampled(to: wanted)
                try checkAggregates(series, parsed: parsed)
            }
            series.timeframe = wanted
        } else {
            if inferred == nil && series.count > 1 {
                // Millisecond epochs before 1973-03-03 are below 1e11 and read as seconds:
                // their spacing is then 1000 times a timeframe's.
                let hint = Timeframe.infer(from: series.time.map { $0 / 1000 }) != nil && series.time.last! < 100_000_000_000
                    ? " (the times look like epoch milliseconds before 1973, which bt reads as seconds because they are below 1e11; "
                        + "write them as ISO-8601)"
                    : ""
                throw InputError(
                    .needsSetting,
                    "cannot infer the timeframe: the spacing of the bars matches none of "
                        + Timeframe.allCases.map(\.rawValue).joined(separator: " ") + hint,
                    setting: .timeframe, file: text.file)
            }
            if let inferred, let (a, b) = firstSharedBucket(series.time, inferred) {
                let rowA = parsed.series.time.firstIndex(of: a)!, rowB = parsed.series.time.firstIndex(of: b)!
                var e = parsed.error(
                    "the bars at \(UTCTime.iso(a)) (\(parsed.location(rowA))) and \(UTCTime.iso(b)) fall in the same "
                        + "\(inferred.rawValue) bar of this \(inferred.rawValue) series; name the timeframe to aggregate them",
                    row: rowB)
                e.kind = .needsSetting
                e.setting = .timeframe
                throw e
            }
            series.timeframe = inferred
        }
        var file = ImportedFile(file: text.file, format: format, symbol: symbol, content: .candles(series))
        file.skipped = skipped
        return file
    }

    /// True when two consecutive bars fall in the same `timeframe` bucket.
    static func hasSharedBuckets(_ time: [Int64], _ timeframe: Timeframe) -> Bool {
        firstSharedBucket(time, timeframe) != nil
    }

    /// The first two consecutive times in one `timeframe` bucket.
    static func firstSharedBucket(_ time: [Int64], _ timeframe: Timeframe) -> (Int64, Int64)? {
        zip(time, time.dropFirst()).first { timeframe.bucketStart($0) == timeframe.bucketStart($1) }
    }

    /// Aggregated bars must stay finite (a sum of volumes could overflow); the error names the
    /// first source row of the bar.
    static func checkAggregates(_ series: CandleSeries, parsed: ParsedCandles) throws {
        guard let tf = series.timeframe else { return }
        for i in 0..<series.count {
            let values = [series.open[i], series.high[i], series.low[i], series.close[i]]
            guard values.allSatisfy(\.isFinite) && !series.volume[i].isInfinite else {
                let row = parsed.series.time.firstIndex { tf.bucketStart($0) == series.time[i] } ?? 0
                throw parsed.error("the \(tf.rawValue) bar at \(UTCTime.iso(series.time[i])) overflows when its rows are "
                                       + "summed", row: row)
            }
        }
    }

    /// The file name without directories and extension, upper-cased: `data/goog.csv` -> `GOOG`.
    /// - Throws: `InputError` (kind `.needsSetting`, setting `.symbol`) when the stem is not a
    ///   valid symbol (see `Symbol`).
    static func defaultSymbol(for path: String) throws -> String {
        if path == InputText.standardInput {
            throw InputError(.needsSetting, "standard input has no file name to take the symbol from", setting: .symbol)
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let stem = name.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init) ?? name
        if let problem = Symbol.problem(stem) {
            throw InputError(.needsSetting, "cannot derive a symbol from the file name: \(problem); \(Symbol.rule)",
                             setting: .symbol, file: path)
        }
        return stem.uppercased()
    }
}
