extension ExecutionConfig {
    /// Every execution option with its value, defaults included, named as the `bt run` options
    /// (snake_case): cash, fill, short, size, fee_bps, fee_min, sl, tp, trail, breakeven,
    /// exit_after, entry_limit, entry_stop, short_entry_limit, short_entry_stop, order_bars,
    /// pyramid, tick, lot, min_notional,
    /// max_participation (0 = off), depth, then the cost model: cost_model (`none`, `fixed`,
    /// `square-root`, `profile`, `recorded`), slippage_bps (fixed slippage), spread_bps (none =
    /// estimated from the bars), profile (where a calibrated book came from), model_tick and
    /// model_tick_source (`given`, `profile`, `inferred`: the spread floor), spread_window,
    /// impact, touch_seconds, impact_window, bid_depth and ask_depth (`A,b`), refill_seconds.
    /// sl, tp, trail and breakeven are fractions, or the expression's text for a price distance.
    /// fee_per_unit, maker_bps and fee_max (a fraction) follow fee_min only when given (not 0,
    /// nil), and borrow_bps after them when not 0, then a margin account's leverage, margin,
    /// instrument, mmr (the rate in force) and liq_fee_bps, and margin_rate when not 0, so the
    /// parameters of runs without them read as before they existed; last allow_unprotected,
    /// trail_from (when close) and conventions (when a preset was used), for the same reason.
    public var parameters: [RunParameter] {
        func optional(_ v: Double?) -> RunParameter.Value { v.map { .double($0) } ?? .none }
        /// A fraction as a number, an expression as its text.
        func distance(_ d: ExitDistance?) -> RunParameter.Value {
            switch d {
            case .fraction(let f)?: return .double(f)
            case .price(let e)?: return .string(e.text)
            case nil: return .none
            }
        }
        /// One target selling everything at a fraction: the fraction; several, a share or an
        /// expression: the targets as the command line writes them (`5%@50%, 12%`).
        var targets: RunParameter.Value {
            if exits.takeProfits.isEmpty { return .none }
            if let f = takeProfit { return .double(f) }
            return .string(exits.takeProfits.map { t in
                let d: String
                switch t.distance {
                case .fraction(let f): d = NumberText.shortest(f * 100) + "%"
                case .price(let e): d = e.text
                }
                return d + (t.share.map { "@" + NumberText.shortest($0 * 100) + "%" } ?? "")
            }.joined(separator: ", "))
        }
        func law(_ p: DepthProfile.PowerLaw?) -> RunParameter.Value {
            p.map { .string(NumberText.shortest($0.a) + "," + NumberText.shortest($0.b)) } ?? .none
        }
        let size = sizing.text
        var slippage: Double?
        if case .fixedSlippage(let bps) = depth { slippage = bps }
        var fees = [RunParameter("fee_bps", .double(feeBps)), RunParameter("fee_min", .double(feeMin))]
        if feePerUnit != 0 { fees.append(RunParameter("fee_per_unit", .double(feePerUnit))) }
        if let makerBps { fees.append(RunParameter("maker_bps", .double(makerBps))) }
        if let feeMax { fees.append(RunParameter("fee_max", .double(feeMax))) }
        if borrowBps != 0 { fees.append(RunParameter("borrow_bps", .double(borrowBps))) }
        if isMarginAccount {
            fees += [RunParameter("leverage", .double(leverage)), RunParameter("margin", .string(margin.rawValue)),
                     RunParameter("instrument", .string(instrument.rawValue)), RunParameter("mmr", .double(maintenanceRate)),
                     RunParameter("liq_fee_bps", .double(liqFeeBps))]
            if multiplier != 1 { fees.append(RunParameter("multiplier", .double(multiplier))) }
        }
        if marginRate != 0 { fees.append(RunParameter("margin_rate", .double(marginRate))) }
        return [
            RunParameter("cash", .double(initialCash)),
            RunParameter("fill", .string(fill.rawValue)),
            RunParameter("short", .bool(allowShort)),
            RunParameter("size", .string(size)),
        ] + fees + [
            RunParameter("sl", distance(exits.stopLoss)),
            RunParameter("tp", targets),
            RunParameter("trail", distance(exits.trail)),
            RunParameter("breakeven", optional(exits.breakeven)),
            RunParameter("exit_after", exits.exitAfterBars.map { .int($0) } ?? .none),
            RunParameter("entry_limit", entries.limit.map { .string($0.text) } ?? .none),
            RunParameter("entry_stop", entries.stop.map { .string($0.text) } ?? .none),
            RunParameter("short_entry_limit", entries.shortLimit.map { .string($0.text) } ?? .none),
            RunParameter("short_entry_stop", entries.shortStop.map { .string($0.text) } ?? .none),
            RunParameter("order_bars", .int(entries.orderBars)),
            RunParameter("pyramid", .int(entries.pyramid)),
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
        ] + (allowUnprotected ? [RunParameter("allow_unprotected", .bool(true))] : [])
            + (exits.trailFrom != .high ? [RunParameter("trail_from", .string(exits.trailFrom.rawValue))] : [])
            + (conventions.map { [RunParameter("conventions", .string($0.rawValue))] } ?? [])
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
