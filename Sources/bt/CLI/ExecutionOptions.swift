import Backtest

/// The execution options shared by `bt run` and the commands that simulate many runs
/// (`bt screen`, `bt sweep`): one table, one place that turns them into an `ExecutionConfig`.
enum ExecutionOptions {
    static let table: [OptionSpec] = [
        .value("cash", "AMOUNT", "Initial cash (default 10000)"),
        .value("fill", "WHEN", "next-open (default: signal at close, fill at next open) or close"),
        .flag("short", "Allow shorts: exits reverse into a short, entries reverse back"),
        .value("size", "SIZE", "Order size: 100% (default) or N% of equity, Nu units, N$ cash"),
        .value("fee-bps", "BPS", "Fee in basis points of notional (default 10)"),
        .value("fee-min", "AMOUNT", "Minimum fee per order (default 0)"),
        .value("sl", "PCT", "Stop-loss distance from the entry price, e.g. 5%"),
        .value("tp", "PCT", "Take-profit distance from the entry price, e.g. 10%"),
        .value("tick", "PRICE", "Price increment (synthetic book levels, stop prices)"),
        .value("lot", "QTY", "Quantity increment; order sizes round down to it"),
        .value("min-notional", "AMOUNT", "Reject opening orders below this notional"),
        .value("max-participation", "SHARE", "Cap an order at this share of the fill bar's volume (default 0.1; 0 = off)"),
        .value("depth", "MODEL", "Liquidity: synthetic (default), book (recorded L2) or none"),
        .value("spread-bps", "BPS", "Synthetic book spread (default: estimated from the bars)"),
    ]
}

extension ParsedArguments {
    /// The execution configuration from the options in `ExecutionOptions.table`. `--depth book`
    /// loads `symbol`'s recorded events from the store.
    func executionConfig(symbol: String, store: @autoclosure () throws -> CandleStore) throws -> ExecutionConfig {
        var c = ExecutionConfig()
        if let v = try double("cash") { c.initialCash = v }
        if let v = value("fill") {
            guard let timing = ExecutionConfig.FillTiming(rawValue: v) else {
                throw UsageError("--fill: '\(v)' is not next-open or close", command: command.name)
            }
            c.fill = timing
        }
        c.allowShort = flag("short")
        if let v = value("size") { c.sizing = try ExecutionConfig.Sizing.parse(v) }
        if let v = try double("fee-bps") { c.feeBps = v }
        if let v = try double("fee-min") { c.feeMin = v }
        if let v = value("sl") { c.stopLoss = try ExecutionConfig.parseFraction(v, option: "--sl") }
        if let v = value("tp") { c.takeProfit = try ExecutionConfig.parseFraction(v, option: "--tp") }
        c.tick = try double("tick")
        c.lot = try double("lot")
        c.minNotional = try double("min-notional")
        if let v = try double("max-participation") { c.maxParticipation = v == 0 ? nil : v }
        c.synthetic.spreadBps = try double("spread-bps")
        switch value("depth") ?? "synthetic" {
        case "synthetic": c.depth = .synthetic
        case "none": c.depth = .none
        case "book": c.depth = .book(try store().bookEvents(symbol: symbol))
        case let other:
            throw UsageError("--depth: '\(other)' is not one of none, synthetic, book", command: command.name)
        }
        try c.validate()
        return c
    }
}
