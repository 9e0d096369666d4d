import Backtest
import Foundation

/// The execution options shared by `bt run` and the commands that simulate many runs
/// (`bt screen`, `bt sweep`): one table, one place that turns them into an `ExecutionConfig`.
enum ExecutionOptions {
    static let table: [Option] = [
        .cash, .fill, .short, .size, .feeBps, .feeMin, .stopLoss, .takeProfit, .trail, .breakeven, .exitAfter,
        .entryLimit, .entryStop, .shortEntryLimit, .shortEntryStop, .orderBars, .pyramid, .tick, .lot, .minNotional,
        .maxParticipation, .depth, .slippageBps, .spreadBps, .depthProfile, .bidDepth, .askDepth, .refillSeconds,
        .spreadWindow, .impact, .touchSeconds, .impactWindow,
    ]

    /// The options that give order and exit settings, with the settings they give.
    static let orders: [(option: Option, setting: Setting)] = [
        (.stopLoss, .stopLoss), (.takeProfit, .takeProfit), (.trail, .trail), (.breakeven, .breakeven), (.exitAfter, .exitAfter),
        (.entryLimit, .entryLimit), (.entryStop, .entryStop), (.shortEntryLimit, .shortEntryLimit),
        (.shortEntryStop, .shortEntryStop), (.orderBars, .orderBars), (.pyramid, .pyramid),
    ]
}

extension ParsedArguments {
    /// The execution configuration from the options in `ExecutionOptions.table`.
    ///
    /// `--depth book` loads `symbol`'s recorded events from the store. `--depth synthetic` (the
    /// default) uses, in this order: `--depth-profile FILE`, else the profile `bt calibrate`
    /// stored for `symbol`, else the candle-only book; each model option given on the command
    /// line overrides the profile's value. The spread floor's tick is `--tick`, else the
    /// profile's, else inferred from `candles` (`CandleSeries.inferredTick`). `--slippage-bps`
    /// selects fixed slippage (`--depth fixed`). Entry orders and exits are `strategy`'s (a
    /// strategy file's `[orders]`, `[exits]`), each overridden by its option; their expressions
    /// read `parameters` as `$names`. Bars per year (`--size vol:`) are `--periods-per-year`,
    /// else inferred from the candles' times.
    /// - Parameter depth: the depth model when the command fixes it (`bt live`: its own book);
    ///   nil: `--depth`.
    func executionConfig(symbol: String, candles: CandleSeries, store: @autoclosure () throws -> CandleStore,
                         strategy: Strategy? = nil, parameters: StrategyParameters? = nil,
                         depth fixedDepth: String? = nil) throws -> ExecutionConfig {
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
        let orders = (strategy?.orders ?? OrderSettings()).overridden(by: orderSettings)
        try orders.apply(to: &c, values: parameters?.expressionValues ?? [:])
        if case .volatility = c.sizing {
            c.periodsPerYear = try periodsPerYear ?? PeriodsPerYear.infer(from: candles.time)
        }
        c.tick = try double(.tick)
        c.lot = try double(.lot)
        c.minNotional = try double(.minNotional)
        if let v = try double(.maxParticipation) { c.maxParticipation = v == 0 ? nil : v }

        let slippage = try double(.slippageBps)
        let depth = fixedDepth ?? value(.depth) ?? (slippage != nil ? "fixed" : "synthetic")
        if slippage != nil && depth != "fixed" {
            throw UsageError("\(Option.slippageBps) is fixed slippage: it cannot be combined with \(Option.depth) \(depth)",
                             command: command.name)
        }
        switch depth {
        case "synthetic":
            c.depth = .synthetic
            do {
                try candles.require(range: true, volume: true, for: "the synthetic book (\(Option.depth) synthetic, the default)")
            } catch let e as InputError {
                throw InputError(e.reason + "; or use \(Option.depth) fixed \(Option.slippageBps) N or \(Option.depth) none")
            }
            c.synthetic = try syntheticDepth(symbol: symbol, candles: candles, store: store)
        case "none": c.depth = .none
        case "book": c.depth = .book(try store().bookEvents(symbol: symbol))
        case "fixed":
            guard let slippage else {
                throw InputError(.needsSetting, "fixed slippage needs its size in basis points", setting: .slippageBps)
            }
            c.depth = .fixedSlippage(bps: slippage)
        case let other:
            throw UsageError("\(Option.depth): '\(other)' is not one of none, synthetic, book, fixed", command: command.name)
        }
        try c.validate()
        return c
    }

    /// The synthetic book's parameters: profile (file or stored), then the command line's knobs.
    private func syntheticDepth(symbol: String, candles: CandleSeries,
                                store: () throws -> CandleStore) throws -> SyntheticDepth {
        var model = SyntheticDepth()
        if let t = try double(.tick) {
            model.tick = t
            model.tickSource = "given"
        }
        if let path = value(.depthProfile) {
            model.use(try DepthProfileJSON.read(path: path), source: path)
        } else if let stored = try store().depthProfile(symbol: symbol) {
            model.use(stored, source: "stored profile of \(symbol)")
        }
        if model.tick == nil, let inferred = candles.inferredTick {
            model.tick = inferred
            model.tickSource = "inferred"
        }
        if let v = try double(.spreadBps) { model.spreadBps = v }
        if let v = try double(.refillSeconds) { model.refillHalfLifeSeconds = v }
        if let v = try int(.spreadWindow) {
            model.spreadWindow = v
            SyntheticDepth.longWindowWarning(.spread, name: "\(Option.spreadWindow)", window: v, candles: candles).map(Diagnostics.line)
        }
        if let v = try int(.impactWindow) {
            model.impactWindow = v
            SyntheticDepth.longWindowWarning(.impact, name: "\(Option.impactWindow)", window: v, candles: candles).map(Diagnostics.line)
        }
        if let v = try double(.impact) { model.impact = v }
        if let v = try double(.touchSeconds) { model.touchSeconds = v }
        if let v = value(.bidDepth) { model.bidDepth = try DepthProfile.PowerLaw(parsing: v, setting: .bidDepth) }
        if let v = value(.askDepth) { model.askDepth = try DepthProfile.PowerLaw(parsing: v, setting: .askDepth) }
        if model.bidDepth != nil || model.askDepth != nil, model.profileSource == nil { model.profileSource = "given" }
        return model
    }
}

extension ParsedArguments {
    /// The order and exit options given, as the library's settings (in the order of
    /// `ExecutionOptions.orders`; `--tp` may be repeated).
    var orderSettings: OrderSettings {
        OrderSettings(ExecutionOptions.orders.flatMap { option, setting in
            (option.kind == .repeated ? values(option) : value(option).map { [$0] } ?? [])
                .map { OrderSettings.Item(setting, $0, origin: .setting(setting)) }
        })
    }
}
