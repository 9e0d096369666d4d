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
    /// Where the file stamps its bars; nil when not said (read as `.start`, and an import whose
    /// times look like bar ends says so).
    public var stamp: BarStamp?
    /// Put before and after every symbol of the import (`Y_` + `AAPL` + `.2`), after `renames`.
    public var symbolPrefix = ""
    public var symbolSuffix = ""
    /// Symbols stored under another name: `AAPL` -> `AAPL2` (upper case, both valid symbols).
    public var renames: [String: String] = [:]

    public init(symbol: String? = nil, timeframe: Timeframe? = nil, format: ImportFormat? = nil, adjusted: Bool = false) {
        self.symbol = symbol
        self.timeframe = timeframe
        self.format = format
        self.adjusted = adjusted
    }
}
