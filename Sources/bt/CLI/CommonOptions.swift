import Backtest

/// Options shared by several commands, defined once.
enum CommonOptions {
    static let global: [OptionSpec] = [
        .value("db", "PATH", "SQLite store (default $BT_DB or data/bt.sqlite)"),
        .flag("help", "Show help for this command"),
    ]

    /// `--timeframe`, `--from`, `--to`: for every command that reads candles.
    static let range: [OptionSpec] = [
        .value("timeframe", "TF", "Resample to 1m 5m 15m 30m 1h 4h 1d 1w 1M (default: stored)"),
        .value("from", "DATE", "First bar time, inclusive (YYYY-MM-DD or ISO-8601)"),
        .value("to", "DATE", "Last bar time, inclusive"),
    ]

    static let json: OptionSpec = .flag("json", "Print JSON instead of text")
}

extension ParsedArguments {
    /// The store path: `--db`, else `$BT_DB`, else `data/bt.sqlite`.
    var databasePath: String {
        value("db") ?? Environment.value("BT_DB") ?? "data/bt.sqlite"
    }

    var timeframe: Timeframe? {
        get throws { try value("timeframe").map(Timeframe.parse) }
    }

    /// `--from`/`--to` as epoch seconds; `--to` with a bare date includes that whole day.
    var dateRange: (from: Int64?, to: Int64?) {
        get throws {
            let from = try value("from").map { try UTCTime.parseUserDate($0, option: "--from") }
            var to = try value("to").map { try UTCTime.parseUserDate($0, option: "--to") }
            if let text = value("to"), text.count == 10, let t = to { to = t + 86_399 }
            return (from, to)
        }
    }
}
