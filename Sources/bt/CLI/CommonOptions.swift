import Backtest

/// Option groups shared by several commands.
enum CommonOptions {
    /// Accepted by every command.
    static let global: [Option] = [.db, .help]

    /// For every command that reads candles.
    static let range: [Option] = [.timeframe, .from, .to]

    /// For the commands that trade, sweep or screen a window of time: the bars before `--from`
    /// are read as the warm-up of the indicators, rules and order expressions.
    static let window: [Option] = [
        .timeframe,
        .from.withHelp("First bar traded and measured, inclusive (YYYY-MM-DD or ISO-8601); the bars before it warm up the indicators"),
        .to.withHelp("Last bar, inclusive; nothing after it is read"),
    ]
}

extension ParsedArguments {
    /// The store path: `--db`, else `$BT_DB`, else `data/bt.sqlite`.
    var databasePath: String {
        databaseOverride ?? value(.db) ?? Environment.value("BT_DB") ?? "data/bt.sqlite"
    }

    var timeframe: Timeframe? {
        get throws { try value(.timeframe).map(Timeframe.parse) }
    }

    /// `--from`/`--to` as epoch seconds; `--to` with a bare date includes that whole day.
    var dateRange: (from: Int64?, to: Int64?) {
        get throws {
            (try value(.from).map { try UTCTime.parseUserDate($0, setting: .from) },
             try value(.to).map { try UTCTime.parseUserEnd($0, setting: .to) })
        }
    }
}

extension ParsedArguments {
    /// A whole-number option within `range`, `default` when not given: a usage error naming
    /// the option and its range otherwise (counts of bars, symbols, runs).
    func count(_ option: Option, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        let v = try int(option) ?? value
        guard range.contains(v) else {
            let bounds = range.upperBound == .max ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw UsageError("\(option) must be \(bounds) (got \(v))", command: command.name)
        }
        return v
    }
}
