extension ExecutionConfig {
    /// Every execution option with its value, defaults included, named as the `bt run` options
    /// (snake_case): cash, fill, short, size, fee_bps, fee_min, sl, tp, tick, lot, min_notional,
    /// max_participation (0 = off), depth, then the cost model: cost_model (`none`, `fixed`,
    /// `square-root`, `profile`, `recorded`), slippage_bps (fixed slippage), spread_bps (none =
    /// estimated from the bars), profile (where a calibrated book came from), model_tick and
    /// model_tick_source (`given`, `profile`, `inferred`: the spread floor), spread_window,
    /// impact, touch_seconds, impact_window, bid_depth and ask_depth (`A,b`), refill_seconds.
    /// sl and tp are fractions.
    public var parameters: [RunParameter] {
        func optional(_ v: Double?) -> RunParameter.Value { v.map { .double($0) } ?? .none }
        func law(_ p: DepthProfile.PowerLaw?) -> RunParameter.Value {
            p.map { .string(NumberText.shortest($0.a) + "," + NumberText.shortest($0.b)) } ?? .none
        }
        let size = sizing.text
        var slippage: Double?
        if case .fixedSlippage(let bps) = depth { slippage = bps }
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
            RunParameter("cost_model", .string(costModel)),
            RunParameter("slippage_bps", optional(slippage)),
            RunParameter("spread_bps", optional(synthetic.spreadBps)),
            RunParameter("profile", synthetic.profileSource.map { .string($0) } ?? .none),
            RunParameter("model_tick", optional(synthetic.tick)),
            RunParameter("model_tick_source", synthetic.tickSource.map { .string($0) } ?? .none),
            RunParameter("spread_window", .int(synthetic.spreadWindow)),
            RunParameter("impact", .double(synthetic.impact)),
            RunParameter("touch_seconds", .double(synthetic.touchSeconds)),
            RunParameter("impact_window", .int(synthetic.impactWindow)),
            RunParameter("bid_depth", law(synthetic.bidDepth)),
            RunParameter("ask_depth", law(synthetic.askDepth)),
            RunParameter("refill_seconds", .double(synthetic.refillSeconds)),
        ]
    }

    /// The cost model in one word: `none`, `fixed` (fixed slippage), `square-root` (the
    /// candle-only synthetic book), `profile` (a calibrated synthetic book) or `recorded` (book
    /// replay).
    public var costModel: String {
        switch depth {
        case .none: "none"
        case .fixedSlippage: "fixed"
        case .synthetic: synthetic.usesProfile ? "profile" : "square-root"
        case .book: "recorded"
        }
    }
}
