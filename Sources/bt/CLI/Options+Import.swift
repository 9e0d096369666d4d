import Backtest

/// The options of `bt data import` (and the fetches that share some), declared once as the
/// rest are in `Options.swift`.
extension Option {
    static let format = Option("format", kind: .value, valueName: "F",
                               help: "csv, binance, alphavantage, trades, book or funding (default: detected; funding: named)")
    static let adjusted = Option("adjusted", kind: .flag, help: "Use the adjusted close, scale open, high and low by adj/close and volume by close/adj")
    static let dateFormat = Option("date-format", kind: .value, valueName: "FMT",
                                   help: "How the file writes dates, strftime-style, e.g. %d/%m/%Y %H:%M (default: detected)")
    static let tz = Option("tz", kind: .value, valueName: "ZONE",
                           help: "IANA time zone of the file's local times, e.g. America/New_York (default: UTC)")
    static let session = Option("session", kind: .value, valueName: "HH:MM-HH:MM",
                                help: "Trading session in --tz local time, kept with the series for resampling")
    static let symbolColumn = Option("symbol-column", kind: .value, valueName: "NAME",
                                     help: "Column naming each row's symbol: one series per symbol")
    static let layout = Option("layout", kind: .value, valueName: "L",
                               help: "long (default) or wide: a date column and one close column per symbol")
    static let skipBadRows = Option("skip-bad-rows", kind: .flag,
                                    help: "Import the valid rows and report the skipped ones (default: refuse the file)")
    static let update = Option("update", kind: .flag, help: "Let the file change bars already stored")
    static let stamp = Option("stamp", kind: .value, valueName: "start|end",
                              help: "Where the file stamps each bar: start (default) or end, moved back one bar to its start")
    static let symbolPrefix = Option("symbol-prefix", kind: .value, valueName: "P", help: "Put P before every imported symbol")
    static let symbolSuffix = Option("symbol-suffix", kind: .value, valueName: "S",
                                     help: "Put S after every imported symbol (a second source beside the first: _2)")
    static let rename = Option("rename", kind: .repeated, valueName: "FROM=TO", help: "Store the file's symbol FROM as TO (repeatable)")
}
