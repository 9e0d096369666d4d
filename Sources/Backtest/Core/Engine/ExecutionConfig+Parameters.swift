extension ExecutionConfig {
    /// Every execution option with its value, defaults included, named as the `bt run` options
    /// (snake_case): cash, fill, short, size, fee_bps, fee_min, sl, tp, tick, lot, min_notional,
    /// max_participation (0 = off), depth, spread_bps (none = estimated from the bars). sl and tp
    /// are fractions.
    public var parameters: [RunParameter] {
        func optional(_ v: Double?) -> RunParameter.Value { v.map { .double($0) } ?? .none }
        let size: String
        switch sizing {
        case .equityFraction(let f): size = RunParameter("", .double(f * 100)).text + "%"
        case .units(let u): size = RunParameter("", .double(u)).text + "u"
        case .cash(let c): size = RunParameter("", .double(c)).text + "$"
        }
        return [
            RunParameter("cash", .double(initialCash)),
            RunParameter("fill", .string(fill.rawValue)),
            RunParameter("short", .bool(allowShort)),
            RunParameter("size", .string(size)),
            RunParameter("fee_bps", .double(feeBps)),
            RunParameter("fee_min", .double(feeMin)),
            RunParameter("sl", optional(stopLoss)),
            RunParameter("tp", optional(takeProfit)),
            RunParameter("tick", optional(tick)),
            RunParameter("lot", optional(lot)),
            RunParameter("min_notional", optional(minNotional)),
            RunParameter("max_participation", maxParticipation.map { .double($0) } ?? .double(0)),
            RunParameter("depth", .string(depth.name)),
            RunParameter("spread_bps", optional(synthetic.spreadBps)),
        ]
    }
}
