import BacktestAnalysis
import BacktestCore
import BacktestData
import BacktestPresentation

/// A condition screen as a job: the symbols where a condition holds on their last bar of a date
/// range (at or before `at`), read from the store, and its report. `bt screen --where` runs it;
/// a shard computes `rows` for its symbols and a merge reports every shard's rows.
public struct ConditionScreenRun {
    public let screen: ConditionScreen
    /// The `$name` values the expressions read.
    public let parameters: [(name: String, value: ExpressionValue)]
    /// The timeframe to read (nil: each symbol's only one).
    public let timeframe: Timeframe?
    /// The date range, in epoch seconds (nil: open on that side): the bar looked at is the last
    /// at or before `to`, and must be at or after `from`; the bars before `from` are read too, as
    /// the expressions' warm-up, so a value is the one the whole series gives on that bar.
    public let from: Int64?
    public let to: Int64?
    /// The time the screen looks at, when one is given (`to` is then that time).
    public let at: Int64?
    /// The command line the report's manifest records.
    public let commandLine: [String]
    /// How a symbol's load error is worded in its row (the command line names settings by
    /// their flags); as thrown by default.
    public var reword: @Sendable (Error) -> Error = { $0 }
    /// Stored symbols the screen left out and series it reads resampled, with why
    /// (`CandleStore.seriesNotes`), listed by its report.
    public var seriesNotes: [SeriesNote] = []

    public init(screen: ConditionScreen, parameters: [(name: String, value: ExpressionValue)], timeframe: Timeframe?,
                from: Int64?, to: Int64?, at: Int64?, commandLine: [String]) {
        self.screen = screen
        self.parameters = parameters
        self.timeframe = timeframe
        self.from = from
        self.to = to
        self.at = at
        self.commandLine = commandLine
    }

    /// Every symbol's row, in the order given, on all cores (each symbol read through its own
    /// store connection). A symbol without bars in the range is an error row.
    public func rows(symbols: [String], databasePath: String, progress: ((Int) -> Void)? = nil) -> [ConditionScreen.Row] {
        let timeframe = self.timeframe, from = self.from, to = self.to, at = self.at, reword = self.reword
        return screen.run(symbols: symbols, progress: progress) { symbol in
            do {
                let candles = try CandleStore(existingAt: databasePath).load(symbol: symbol, timeframe: timeframe, to: to)
                guard let last = candles.time.last, last >= from ?? .min else {
                    throw InputError(at.map { "no bars at or before \(UTCTime.iso($0))" } ?? "no bars in the requested range")
                }
                return candles
            } catch {
                throw reword(error)
            }
        }
    }

    /// The report of every symbol's `rows` (`screen.csv`, `screen.md`, JSON and the match table).
    /// - Throws: `InputError` when no symbol could be checked (exit 2, as a strategy screen or a
    ///   sweep where nothing ran), listing each symbol's reason (the first ten).
    public func report(rows: [ConditionScreen.Row]) throws -> ConditionScreenReport {
        if !rows.isEmpty, rows.allSatisfy({ $0.status == .error }) {
            let reasons = rows.prefix(10).map { "\($0.symbol): \($0.error ?? "failed")" }
            throw InputError("no symbol could be checked: all \(rows.count) failed (" + reasons.joined(separator: "; ")
                             + (rows.count > 10 ? "; ..." : "") + ")")
        }
        var report = ConditionScreenReport(screen: screen, rows: rows, commandLine: commandLine,
                              parameters: parameters.map { RunParameter($0.name, $0.value.runValue) }, at: at)
        report.seriesNotes = seriesNotes
        return report
    }
}

extension ExpressionValue {
    /// The value as report manifests record it.
    public var runValue: RunParameter.Value {
        switch self {
        case .number(let v): .double(v)
        case .word(let w): .string(w)
        }
    }
}
