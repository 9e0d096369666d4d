/// The options of issue 20: entry orders, exits attached to the position, pyramiding
/// (docs/design/orders.md).
extension Option {
    static let entryLimit = Option("entry-limit", kind: .value, valueName: "EXPR",
                                   help: "Enter with a limit order at this price (read at the signal bar), e.g. 'close * 0.99'")
    static let entryStop = Option("entry-stop", kind: .value, valueName: "EXPR",
                                  help: "Enter with a stop order at this price (with --entry-limit: a stop-limit)")
    static let shortEntryLimit = Option("short-entry-limit", kind: .value, valueName: "EXPR",
                                        help: "Short entries' limit price (with --short and --entry-limit)")
    static let shortEntryStop = Option("short-entry-stop", kind: .value, valueName: "EXPR",
                                       help: "Short entries' stop price (with --short and --entry-stop)")
    static let orderBars = Option("order-bars", kind: .value, valueName: "N",
                                  help: "Bars a limit or stop entry works before it expires (default 1)")
    static let trail = Option("trail", kind: .value, valueName: "PCT|EXPR",
                              help: "Trailing stop below the peak since entry: 5%, or a price distance like '3 * atr(22)'")
    static let breakeven = Option("breakeven", kind: .value, valueName: "PCT",
                                  help: "Move the stop to the entry price once the trade has gained PCT")
    static let exitAfter = Option("exit-after", kind: .value, valueName: "N",
                                  help: "Leave at the open N bars after the entry bar")
    static let pyramid = Option("pyramid", kind: .value, valueName: "N",
                                help: "Allow up to N entries per position (default 1)")
}
