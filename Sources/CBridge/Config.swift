import Backtest
import CBTABI

/// `bt_config` as the library's `ExecutionConfig`, built the way `bt run` builds it from its
/// options (`Sources/bt/CLI/ExecutionOptions.swift`, `executionConfig`): the same defaults, the
/// same order, the same parsers (`Sizing.parse`, `OrderSettings`, `DepthProfile.PowerLaw`), the
/// same checks (`ExecutionConfig.validate`). The Python tests hold the two equal through
/// `bt run --json`.
enum Config {
    static func defaults() -> bt_config {
        var c = bt_config()
        c.struct_size = MemoryLayout<bt_config>.size
        c.cash = 10_000
        c.allow_short = 0
        c.fee_bps = 10
        c.fee_min = 0
        c.tick = .nan
        c.lot = .nan
        c.min_notional = .nan
        c.max_participation = 0.1
        c.slippage_bps = .nan
        c.spread_bps = .nan
        c.refill_seconds = .nan
        c.spread_window = 0
        c.impact = .nan
        c.touch_seconds = .nan
        c.impact_window = 0
        c.periods_per_year = .nan
        return c
    }

    /// The checked struct: a NULL pointer is the defaults; a struct of another size (another
    /// bt.h) is refused.
    static func read(_ pointer: UnsafePointer<bt_config>?) throws -> bt_config {
        guard let pointer else { return defaults() }
        let c = pointer.pointee
        guard c.struct_size == MemoryLayout<bt_config>.size else {
            throw BridgeError.argument("config.struct_size is \(c.struct_size), this library's bt_config has \(MemoryLayout<bt_config>.size) "
                                       + "bytes: call bt_config_init, and build against the bt.h of this library")
        }
        return c
    }

    /// A number that must be finite.
    static func finite(_ v: Double, _ name: String) throws -> Double {
        guard v.isFinite else { throw BridgeError.input("\(name) '\(v)': not a number (give a finite value)") }
        return v
    }

    /// A number that is not given when NaN, else must be finite.
    static func optional(_ v: Double, _ name: String) throws -> Double? {
        if v.isNaN { return nil }
        return try finite(v, name)
    }

    /// The periods per year asked for (nil: inferred from the times).
    static func periodsPerYear(_ c: bt_config) throws -> Double? {
        guard let v = try optional(c.periods_per_year, "periods_per_year") else { return nil }
        guard v > 0 else { throw BridgeError.input("periods_per_year '\(NumberText.shortest(v))': must be positive") }
        return v
    }

    /// The order and exit settings given as text, in the command line's order.
    static func orderSettings(_ c: bt_config) throws -> OrderSettings {
        let fields: [(UnsafePointer<CChar>?, Setting)] = [
            (c.sl, .stopLoss), (c.tp, .takeProfit), (c.trail, .trail), (c.breakeven, .breakeven), (c.exit_after, .exitAfter),
            (c.entry_limit, .entryLimit), (c.entry_stop, .entryStop), (c.short_entry_limit, .shortEntryLimit),
            (c.short_entry_stop, .shortEntryStop), (c.order_bars, .orderBars), (c.pyramid, .pyramid),
        ]
        return OrderSettings(try fields.compactMap { pointer, setting in
            try optionalString(pointer, setting.name).map { OrderSettings.Item(setting, $0, origin: .setting(setting)) }
        })
    }

    /// The execution configuration `bt run` would make from the same options for `candles`,
    /// with `strategy`'s orders and exits under the config's own.
    /// - Parameter inferredTick: the candles' `inferredTick` (a prepared series keeps it: it
    ///   scans every price).
    static func execution(_ cfg: bt_config, candles: CandleSeries, inferredTick: () -> Double?, strategy: Strategy? = nil,
                          parameters: StrategyParameters? = nil) throws -> ExecutionConfig {
        var c = ExecutionConfig()
        c.initialCash = try finite(cfg.cash, "cash")
        if let v = try optionalString(cfg.fill, "fill") {
            guard let timing = ExecutionConfig.FillTiming(rawValue: v) else {
                throw BridgeError.input("fill '\(v)': not next-open or close")
            }
            c.fill = timing
        }
        c.allowShort = cfg.allow_short != 0
        if let v = try optionalString(cfg.size, "size") { c.sizing = try ExecutionConfig.Sizing.parse(v) }
        c.feeBps = try finite(cfg.fee_bps, "fee_bps")
        c.feeMin = try finite(cfg.fee_min, "fee_min")
        let orders = (strategy?.orders ?? OrderSettings()).overridden(by: try orderSettings(cfg))
        try orders.apply(to: &c, values: parameters?.expressionValues ?? [:])
        let ppy = try periodsPerYear(cfg)
        if case .volatility = c.sizing {
            c.periodsPerYear = ppy ?? PeriodsPerYear.infer(from: candles.time)
        }
        c.tick = try optional(cfg.tick, "tick")
        c.lot = try optional(cfg.lot, "lot")
        c.minNotional = try optional(cfg.min_notional, "min_notional")
        let participation = try finite(cfg.max_participation, "max_participation")
        c.maxParticipation = participation == 0 ? nil : participation

        let slippage = try optional(cfg.slippage_bps, "slippage_bps")
        let depth = try optionalString(cfg.depth, "depth") ?? (slippage != nil ? "fixed" : "synthetic")
        if slippage != nil && depth != "fixed" {
            throw BridgeError.input("slippage_bps is fixed slippage: it cannot be combined with depth '\(depth)'")
        }
        let db = try optionalString(cfg.db, "db")
        var opened: CandleStore?
        func store(for what: String) throws -> CandleStore {
            if let opened { return opened }
            guard let db else { throw BridgeError.input("\(what) needs the store: set db to the store that holds \(candles.symbol)") }
            let s = try CandleStore(existingAt: db)
            opened = s
            return s
        }
        switch depth {
        case "synthetic":
            c.depth = .synthetic
            do {
                try candles.require(range: true, volume: true, for: "the synthetic book (depth synthetic, the default)")
            } catch let e as InputError {
                throw InputError(e.reason + "; or use depth fixed with slippage_bps, or depth none")
            }
            c.synthetic = try synthetic(cfg, candles: candles, inferredTick: inferredTick, storedProfile: {
                db == nil ? nil : try store(for: "a stored profile").depthProfile(symbol: candles.symbol)
            })
        case "none": c.depth = .none
        case "book": c.depth = .book(try store(for: "depth book").bookEvents(symbol: candles.symbol))
        case "fixed":
            guard let slippage else {
                throw InputError(.needsSetting, "fixed slippage needs its size in basis points", setting: .slippageBps)
            }
            c.depth = .fixedSlippage(bps: slippage)
        case let other:
            throw BridgeError.input("depth '\(other)': not one of none, synthetic, book, fixed")
        }
        try c.validate()
        return c
    }

    /// The synthetic book's parameters: the profile file, else the store's profile of the
    /// symbol, then the config's knobs (as `bt run`'s `syntheticDepth`).
    private static func synthetic(_ cfg: bt_config, candles: CandleSeries, inferredTick: () -> Double?,
                                  storedProfile: () throws -> DepthProfile?) throws -> SyntheticDepth {
        var model = SyntheticDepth()
        if let t = try optional(cfg.tick, "tick") {
            model.tick = t
            model.tickSource = "given"
        }
        if let path = try optionalString(cfg.depth_profile, "depth_profile") {
            model.use(try DepthProfileJSON.read(path: path), source: path)
        } else if let stored = try storedProfile() {
            model.use(stored, source: "stored profile of \(candles.symbol)")
        }
        if model.tick == nil, let inferred = inferredTick() {
            model.tick = inferred
            model.tickSource = "inferred"
        }
        if let v = try optional(cfg.spread_bps, "spread_bps") { model.spreadBps = v }
        if let v = try optional(cfg.refill_seconds, "refill_seconds") { model.refillHalfLifeSeconds = v }
        if cfg.spread_window != 0 { model.spreadWindow = Int(cfg.spread_window) }
        if cfg.impact_window != 0 { model.impactWindow = Int(cfg.impact_window) }
        if let v = try optional(cfg.impact, "impact") { model.impact = v }
        if let v = try optional(cfg.touch_seconds, "touch_seconds") { model.touchSeconds = v }
        if let v = try optionalString(cfg.bid_depth, "bid_depth") { model.bidDepth = try DepthProfile.PowerLaw(parsing: v, setting: .bidDepth) }
        if let v = try optionalString(cfg.ask_depth, "ask_depth") { model.askDepth = try DepthProfile.PowerLaw(parsing: v, setting: .askDepth) }
        if model.bidDepth != nil || model.askDepth != nil, model.profileSource == nil { model.profileSource = "given" }
        return model
    }
}

@_cdecl("bt_config_init")
public func bt_config_init(_ config: UnsafeMutablePointer<bt_config>?) {
    guard let config else {
        LastError.set(.argument, "bt_config_init: config is NULL")
        return
    }
    config.pointee = Config.defaults()
}
