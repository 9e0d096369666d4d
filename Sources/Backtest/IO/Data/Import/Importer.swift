import BacktestAnalysis
import BacktestCore

/// One input file read and validated in memory, ready to be written.
public struct ImportedFile: Sendable {
    public enum Content: Sendable {
        /// Validated candles: sorted, unique times. `timeframe` is nil only when it could not be
        /// inferred (a single bar); the store then uses the symbol's stored timeframe.
        case candles(CandleSeries)
        /// Validated book events, ordered by time, starting with a snapshot.
        case book([BookEvent])
        /// Validated funding settlements, in time order with unique times.
        case funding([FundingRate])
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
    /// What the import saw in the file's times and prices that the user should hear about.
    public var notices: [ImportNotice] = []
    /// The prices are adjusted (`ImportOptions.adjusted`): the store remembers it, and runs do
    /// not take their moves for splits.
    public var adjusted = false

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

    /// `bt data synth`'s files: the synthetic universe (`Synth.universe`), and with `books` each
    /// symbol's synthetic order book (seeded `seed + k` for the k-th symbol), named after the seed.
    package static func synthetic(symbols: Int, bars: Int, seed: UInt64, timeframe: Timeframe, books: Bool) -> [ImportedFile] {
        let universe = Synth.universe(symbols: symbols, bars: bars, seed: seed, timeframe: timeframe)
        let source = "synth seed \(seed)"
        return universe.map { generated($0, source: source) }
            + (books ? universe.enumerated().map { k, s in
                generated(book: Synth.book(for: s, seed: seed &+ UInt64(k)), symbol: s.symbol, source: source)
            } : [])
    }
}

/// Reads input files into validated candles or book events, touching no store.
public enum Importer {
    /// Reads and validates every file in `paths` completely, in order (`-`: standard input,
    /// read once). A file with a symbol column or a wide layout gives one entry per symbol, each
    /// named as `options` say (`SymbolNaming`).
    /// - Throws: `InputError` naming the file, line (or JSON key) and reason of the first problem,
    ///   with the settings that would read the file when one is known (`ImportFixes`).
    public static func read(paths: [String], options: ImportOptions = ImportOptions()) throws -> [ImportedFile] {
        if paths.filter({ $0 == "-" }).count > 1 { throw InputError("standard input ('-') can be read only once") }
        return try SymbolNaming(options).named(try paths.flatMap { try readAll(text: InputText(path: $0), options: options) })
    }

    /// Reads and validates in-memory `bytes` (gzip or not) as if they were the file `name`;
    /// the first series when the file holds several.
    public static func read(bytes: [UInt8], name: String, options: ImportOptions = ImportOptions()) throws -> ImportedFile {
        try readAll(bytes: bytes, name: name, options: options)[0]
    }

    /// Every series of in-memory `bytes` read as the file `name`.
    public static func readAll(bytes: [UInt8], name: String, options: ImportOptions = ImportOptions()) throws -> [ImportedFile] {
        try SymbolNaming(options).named(try readAll(text: InputText(file: name, compressed: bytes), options: options))
    }

    /// The file's series, or its refusal with the settings that would read it (`ImportFixes`,
    /// which reads the file again with each, `suggesting` false).
    static func readAll(text: InputText, options: ImportOptions, suggesting: Bool = true) throws -> [ImportedFile] {
        do {
            return try readSeries(text: text, options: options)
        } catch var e as InputError where suggesting && e.fixes.isEmpty {
            ImportFixes.add(to: &e, text: text, options: options)
            throw e
        }
    }

    private static func readSeries(text: InputText, options: ImportOptions) throws -> [ImportedFile] {
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
        if options.stamp == .end && (format == .trades || format == .book || format == .funding) {
            throw InputError("trade prints, book events and funding rates have their own times: only candle files take a bar stamp",
                             setting: .stamp)
        }
        if format == .funding, options.timeframe != nil || options.skipBadRows || options.adjusted {
            throw InputError("funding rates are stored as given, at their own times, and a bad row refuses the file: "
                                 + "a funding file takes no timeframe, adjusted close or skipping of bad rows",
                             setting: options.timeframe != nil ? .timeframe : options.skipBadRows ? .skipBadRows : .format)
        }
        let fileSymbol = { try options.symbol.map(Symbol.validated) ?? defaultSymbol(for: text.file) }
        switch format {
        case .book:
            return [ImportedFile(file: text.file, format: format, symbol: try fileSymbol(), content: .book(try BookImporter.read(text)))]
        case .funding:
            return [ImportedFile(file: text.file, format: format, symbol: try fileSymbol(),
                                 content: .funding(try FundingImporter.read(text)))]
        case .csv, .binance, .alphavantage, .trades:
            if text.firstLine() == nil { throw InputError("file is empty", at: text.file) }
            var prints: [TradePrint] = []
            var parsed: [(symbol: String?, candles: ParsedCandles)]
            var skipped = SkippedRows()
            var wallClock = false
            switch format {
            case .alphavantage: parsed = [(nil, try AlphaVantageImporter.read(text, adjusted: options.adjusted))]
            case .trades:
                let (p, t) = try TradesImporter.read(text, timeframe: options.timeframe ?? TradesImporter.defaultTimeframe)
                (parsed, prints) = ([(nil, p)], t)
            default:
                let out = try CSVImporter.read(text, format: format, options: options)
                (parsed, skipped, wallClock) = (out.series, out.skipped, out.wallClock)
            }
            var files: [ImportedFile] = []
            for (symbol, candles) in parsed where !candles.series.isEmpty {
                var file = try finish(candles, symbol: try symbol ?? fileSymbol(), format: format, text: text, options: options,
                                      wallClock: wallClock)
                skipped.add(file.skipped)
                file.prints = prints
                file.session = options.session
                files.append(file)
            }
            for k in files.indices { files[k].skipped = skipped }
            return files
        }
    }

    /// Validates one symbol's rows, moves end stamps to starts, settles its timeframe and notes
    /// what the user should hear about its times (`ImportNotice`).
    /// - Parameter wallClock: the file writes times of day without an offset (not epochs).
    static func finish(_ parsed: ParsedCandles, symbol: String, format: ImportFormat, text: InputText,
                       options: ImportOptions, wallClock: Bool = false) throws -> ImportedFile {
        var parsed = parsed
        var (series, skipped) = try parsed.validated(skipBadRows: options.skipBadRows)
        series.symbol = symbol
        let inferred = series.timeframe ?? Timeframe.infer(from: series.time)
        if options.stamp == .end { try BarStamp.moveEndsToStarts(&series, &parsed, interval: inferred ?? options.timeframe) }
        let aggregates = options.timeframe.map { wanted in
            (inferred.map { $0 < wanted } ?? false) || hasSharedBuckets(series.time, wanted)
        } ?? false
        let notices = try ImportNotice.notices(series, interval: inferred ?? options.timeframe, options: options,
                                               wallClock: wallClock, aggregated: aggregates)
        if let wanted = options.timeframe {
            if aggregates {
                series.timeframe = inferred
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
        file.adjusted = options.adjusted
        let splits = options.adjusted ? [] : LikelySplit.find(series)
        file.notices = notices + (splits.isEmpty ? [] : [.likelySplits(splits)])
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
