import Backtest

/// The execution options shared by `bt run` and the commands that simulate many runs
/// (`bt screen`, `bt sweep`): one table, one place that turns them into an `ExecutionConfig`.
enum ExecutionOptions {
    static let table: [Option] = [
        .cash, .fill, .short, .size, .feeBps, .feeMin, .stopLoss, .takeProfit, .tick, .lot, .minNotional,
        .maxParticipation, .depth, .spreadBps,
    ]
}

extension ParsedArguments {
    /// The execution configuration from the options in `ExecutionOptions.table`. `--depth book`
    /// loads `symbol`'s recorded events from the store.
    func executionConfig(symbol: String, store: @autoclosure () throws -> CandleStore) throws -> ExecutionConfig {
        var c = ExecutionConfig()
        if let v = try double(.cash) { c.initialCash = v }
        if let v = value(.fill) {
            guard let timing = ExecutionConfig.FillTiming(rawValue: v) else {
                throw UsageError("\(Option.fill): '\(v)' is not next-open or close", command: command.name)
            }
            c.fill = timing
        }
        c.allowShort = flag(.short)
        if let v = value(.size) { c.sizing = try ExecutionConfig.Sizing.parse(v) }
        if let v = try double(.feeBps) { c.feeBps = v }
        if let v = try double(.feeMin) { c.feeMin = v }
        if let v = value(.stopLoss) { c.stopLoss = try ExecutionConfig.parseFraction(v, setting: .stopLoss) }
        if let v = value(.takeProfit) { c.takeProfit = try ExecutionConfig.parseFraction(v, setting: .takeProfit) }
        c.tick = try double(.tick)
        c.lot = try double(.lot)
        c.minNotional = try double(.minNotional)
        if let v = try double(.maxParticipation) { c.maxParticipation = v == 0 ? nil : v }
        c.synthetic.spreadBps = try double(.spreadBps)
        switch value(.depth) ?? "synthetic" {
        case "synthetic": c.depth = .synthetic
        case "none": c.depth = .none
        case "book": c.depth = .book(try store().bookEvents(symbol: symbol))
        case let other:
            throw UsageError("\(Option.depth): '\(other)' is not one of none, synthetic, book", command: command.name)
        }
        try c.validate()
        return c
    }
}
