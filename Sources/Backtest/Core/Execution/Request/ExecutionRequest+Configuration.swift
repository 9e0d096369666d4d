/// What a request's settings mean for one run, and what a front end should say about them.
public struct ExecutionPlan: Sendable {
    public var config: ExecutionConfig
    /// Settings that work but may surprise: a window longer than the series.
    public var warnings: [ExecutionWarning]
    /// Settings given that have no effect on this run: the synthetic book's knobs when fills
    /// meet another liquidity.
    public var unused: [Setting]
}

/// A setting that works but may surprise, worded without the front end's spelling of it: a
/// front end writes `name value reason` (`--spread-window 1000 is longer than ...`).
public struct ExecutionWarning: Sendable, Equatable {
    public var setting: Setting
    public var value: String
    public var reason: String

    public init(setting: Setting, value: String, reason: String) {
        self.setting = setting
        self.value = value
        self.reason = reason
    }

    /// The warning with its setting written by `name`: `spread_window 1000 is longer than ...`.
    public func text(naming name: (Setting) -> String) -> String { "\(name(setting)) \(value) \(reason)" }
}

extension ExecutionRequest {
    /// The engine's configuration for a run on `candles`: the settings given over the symbol's
    /// stored instrument settings (`ExecutionResources.instrumentSettings`, by its base symbol)
    /// over their defaults, `strategy`'s orders and exits under the request's own, checked
    /// (`ExecutionConfig.validate`).
    ///
    /// The liquidity: `depth` given, else fixed slippage when `slippage_bps` is, else the
    /// synthetic book, which takes, in this order, `depth_profile`, else the profile stored for
    /// the symbol, else the candle-only book, each knob given overriding the profile's; its tick
    /// is `tick`, else the profile's, else `inferredTick` (the candles' `inferredTick`, which a
    /// caller may have kept). Bars per year (`size vol:`) are `periods_per_year`, else inferred
    /// from the candles' times.
    /// - Parameters:
    ///   - symbol: whose recorded book and stored profile to read (default: the candles').
    ///   - parameters: the strategy's parameter values, read by order expressions as `$names`.
    ///   - fixedDepth: the depth model when the front end fixes it (`bt live`: its own book).
    /// - Throws: `InputError` naming the setting at fault.
    public func configuration(for candles: CandleSeries, symbol: String? = nil, strategy: Strategy? = nil,
                              parameters: StrategyParameters? = nil, resources: ExecutionResources,
                              inferredTick: (() -> Double?)? = nil, depth fixedDepth: String? = nil) throws -> ExecutionPlan {
        // A strategy file's [account] settings apply where the request gives none; an error in
        // one of them names its file and line.
        let fromFile = (strategy?.account ?? []).filter { values[$0.setting] == nil }
        guard !fromFile.isEmpty else {
            return try build(for: candles, symbol: symbol, strategy: strategy, parameters: parameters, resources: resources,
                             inferredTick: inferredTick, depth: fixedDepth)
        }
        var merged = self
        do {
            for item in fromFile { try merged.set(item.setting, try Self.value(item.text, of: item.setting)) }
            return try merged.build(for: candles, symbol: symbol, strategy: strategy, parameters: parameters, resources: resources,
                                    inferredTick: inferredTick, depth: fixedDepth)
        } catch var e as InputError where e.file == nil {
            if let item = fromFile.first(where: { $0.setting == e.setting }), case .file(let path, let line) = item.origin {
                e.file = path
                e.line = line
            }
            throw e
        }
    }

    /// `text` as a value of `setting`'s kind (a number for number settings).
    private static func value(_ text: String, of setting: Setting) throws -> ExecutionValue {
        guard let spec = ExecutionSetting.of(setting), spec.kind == .number || spec.kind == .wholeNumber else { return .text(text) }
        guard let v = Double(text), v.isFinite else { throw InputError("not a number", setting: setting, value: text) }
        return .number(v)
    }

    /// The request over the symbol's stored instrument settings, then `plan`.
    private func build(for candles: CandleSeries, symbol: String?, strategy: Strategy?, parameters: StrategyParameters?,
                       resources: ExecutionResources, inferredTick: (() -> Double?)?, depth fixedDepth: String?) throws -> ExecutionPlan {
        let symbol = symbol ?? candles.symbol
        let base = SeriesName.split(symbol)?.0 ?? symbol
        let stored = try resources.instrumentSettings(symbol: base)
        do {
            return try overConventions().over(stored).plan(for: candles, symbol: symbol, strategy: strategy, parameters: parameters, resources: resources,
                                         inferredTick: inferredTick, depth: fixedDepth)
        } catch var e as InputError where e.file == nil && e.setting.map({ values[$0] == nil && stored[$0] != nil }) == true {
            // The value at fault is the symbol's, not the command line's: say where it is kept.
            e.reason += " (\(base)'s stored setting: give it to the run to override, or change it with bt data instrument \(base))"
            throw e
        }
    }

    /// `configuration(for:...)` of this request as it is (no file or stored settings added).
    private func plan(for candles: CandleSeries, symbol: String, strategy: Strategy?, parameters: StrategyParameters?,
                      resources: ExecutionResources, inferredTick: (() -> Double?)?, depth fixedDepth: String?) throws -> ExecutionPlan {
        var c = ExecutionConfig()
        var warnings: [ExecutionWarning] = []
        if let v = number(.cash) { c.initialCash = v }
        if let v = text(.fill) {
            guard let timing = ExecutionConfig.FillTiming(rawValue: v) else {
                throw InputError("not next-open or close", setting: .fill, value: v)
            }
            c.fill = timing
        }
        c.allowShort = flag(.short)
        c.allowUnprotected = flag(.allowUnprotected)
        if let v = text(.size) { c.sizing = try ExecutionConfig.Sizing.parse(v) }
        try costsAndRules(&c)
        try funding(&c, symbol: symbol, candles: candles, resources: resources)
        let orders = (strategy?.orders ?? OrderSettings()).overridden(by: orderSettings)
        try orders.apply(to: &c, values: parameters?.expressionValues ?? [:])
        if let v = text(.conventions) { try Conventions.parse(v).apply(to: &c) }
        if case .volatility = c.sizing {
            c.periodsPerYear = try periodsPerYear() ?? PeriodsPerYear.infer(from: candles.time)
        }

        let slippage = number(.slippageBps)
        let depth = fixedDepth ?? text(.depth) ?? (slippage != nil ? "fixed" : "synthetic")
        if slippage != nil && depth != "fixed" {
            throw InputError("\(Setting.slippageBps.mention) is fixed slippage: it cannot be combined with \(Setting.depth.mention) \(depth)")
        }
        switch depth {
        case "synthetic":
            c.depth = .synthetic
            do {
                try candles.require(range: true, volume: true, for: "the synthetic book (\(Setting.depth.mention) synthetic, the default)")
            } catch let e as InputError {
                throw InputError(e.reason + "; or use \(Setting.depth.mention) fixed \(Setting.slippageBps.mention) N "
                                 + "or \(Setting.depth.mention) none")
            }
            c.synthetic = try syntheticDepth(candles: candles, symbol: symbol, resources: resources, inferredTick: inferredTick, warnings: &warnings)
        case "none": c.depth = .none
        case "book": c.depth = .book(try resources.bookEvents(symbol: symbol))
        case "fixed":
            guard let slippage else {
                throw InputError(.needsSetting, "fixed slippage needs its size in basis points", setting: .slippageBps)
            }
            c.depth = .fixedSlippage(bps: slippage)
        case let other:
            throw InputError("not one of none, synthetic, book, fixed", setting: .depth, value: other)
        }
        try c.validate()
        let unused = c.depth.name == "synthetic" ? [] : Self.syntheticKnobs.filter { values[$0] != nil }
        return ExecutionPlan(config: c, warnings: warnings, unused: unused)
    }

    /// The settings only the synthetic book reads.
    public static let syntheticKnobs: [Setting] = [.spreadBps, .depthProfile, .bidDepth, .askDepth, .refillSeconds, .spreadWindow,
                                            .impact, .touchSeconds, .impactWindow]

    /// `periods_per_year` when given (it must be positive).
    public func periodsPerYear() throws -> Double? {
        guard let v = number(.periodsPerYear) else { return nil }
        guard v > 0, v.isFinite else { throw InputError("must be positive", setting: .periodsPerYear, value: NumberText.shortest(v)) }
        return v
    }

    /// The synthetic book's parameters: the profile (file or stored), then the knobs given.
    private func syntheticDepth(candles: CandleSeries, symbol: String, resources: ExecutionResources, inferredTick: (() -> Double?)?,
                                warnings: inout [ExecutionWarning]) throws -> SyntheticDepth {
        var model = SyntheticDepth()
        if let t = number(.tick) {
            model.tick = t
            model.tickSource = "given"
        }
        if let path = text(.depthProfile) {
            model.use(try resources.depthProfile(file: path), source: path)
        } else if let stored = try resources.storedDepthProfile(symbol: symbol) {
            model.use(stored, source: "stored profile of \(symbol)")
        }
        if model.tick == nil, let inferred = inferredTick.map({ $0() }) ?? candles.inferredTick {
            model.tick = inferred
            model.tickSource = "inferred"
        }
        if let v = number(.spreadBps) { model.spreadBps = v }
        if let v = number(.refillSeconds) { model.refillHalfLifeSeconds = v }
        if let v = wholeNumber(.spreadWindow) {
            model.spreadWindow = v
            warnings += SyntheticDepth.longWindowWarning(.spread, window: model.spreadWindow, candles: candles).map { [$0] } ?? []
        }
        if let v = wholeNumber(.impactWindow) {
            model.impactWindow = v
            warnings += SyntheticDepth.longWindowWarning(.impact, window: model.impactWindow, candles: candles).map { [$0] } ?? []
        }
        if let v = number(.impact) { model.impact = v }
        if let v = number(.touchSeconds) { model.touchSeconds = v }
        if let v = text(.bidDepth) { model.bidDepth = try DepthProfile.PowerLaw(parsing: v, setting: .bidDepth) }
        if let v = text(.askDepth) { model.askDepth = try DepthProfile.PowerLaw(parsing: v, setting: .askDepth) }
        if model.bidDepth != nil || model.askDepth != nil, model.profileSource == nil { model.profileSource = "given" }
        return model
    }
}
