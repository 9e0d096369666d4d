/// A strategy's signals computed one closed bar at a time, for a live session: each `next`
/// takes the bar that just closed and decides at it, in O(1) or O(period), with data up to it.
///
/// A strategy that has one (`Strategy.isIncremental`) promises that the decisions equal its
/// whole-series `signals` at the last bar of every prefix, to the bit; the built-ins build theirs
/// from `IndicatorStream`, expression strategies from their compiled plan, and the property tests
/// check the promise over random streams. `SignalStream` keeps the decisions as `Signals`.
public protocol IncrementalSignals: Sendable {
    /// The decisions at `bar`, the bar after the last one taken.
    mutating func next(_ bar: Candle) -> BarSignals
}

/// One bar's decisions.
public struct BarSignals: Sendable, Equatable {
    public var entry: Bool
    public var exit: Bool
    /// nil when the strategy has no short rules (`Signals.shortEntries` nil).
    public var shortEntry: Bool?
    public var shortExit: Bool?
    /// The values a position rule reads at the bar (an expression strategy's rules that read the
    /// position: `PositionRule`'s precomputed columns, rule by rule).
    var positionValues: [Double] = []
    /// The series the rules read with `@` that had no closed bar at this bar, by their index in
    /// `RuleSignals.otherSeries` (a run's warnings count such bars).
    var unaligned: [Int] = []

    public init(entry: Bool, exit: Bool, shortEntry: Bool? = nil, shortExit: Bool? = nil) {
        self.entry = entry
        self.exit = exit
        self.shortEntry = shortEntry
        self.shortExit = shortExit
    }
}

/// `IncrementalSignals` for rules written as expressions: the rules' plan as a stream, the rules
/// that read the position split as `SignalRules.signals` splits them.
struct RuleSignals: IncrementalSignals {
    private var stream: ExpressionPlan.Stream
    /// For each rule, in `Role` order: its signal root, or its program and its first subtree root.
    private let layout: [(plain: Int?, program: PositionProgram?, firstColumn: Int)]
    let roles: [SignalRules.Role]
    /// The series the rules read with `@`, in the order `UnalignedBars.of` lists them.
    let otherSeries: [OtherSeries]
    /// The symbol of the bars taken: a series of another symbol goes stale (`UnalignedBars.canBeStale`).
    let runSymbol: String?

    /// - Parameters:
    ///   - runTimeframe: the timeframe of the bars taken, for rules that read `@`.
    ///   - runSymbol: their symbol; another symbol is read from its feed (`OtherSeries.feed`).
    init(nodes: [ExpressionNode], roles: [SignalRules.Role], runTimeframe: Timeframe? = nil, runSymbol: String? = nil) throws {
        let programs = nodes.map(PositionProgram.init)
        let plain = nodes.indices.filter { programs[$0] == nil }
        var roots = plain.map { nodes[$0] }
        var layout: [(plain: Int?, program: PositionProgram?, firstColumn: Int)] = []
        for (i, program) in programs.enumerated() {
            if let program {
                layout.append((nil, program, roots.count))
                roots.append(contentsOf: program.subtrees)
            } else {
                layout.append((plain.firstIndex(of: i), nil, 0))
            }
        }
        stream = try ExpressionPlan.Stream(ExpressionPlan(roots), runTimeframe: runTimeframe, runSymbol: runSymbol)
        self.layout = layout
        self.roles = roles
        otherSeries = UnalignedBars.series(readBy: nodes)
        self.runSymbol = runSymbol
    }

    mutating func next(_ bar: Candle) -> BarSignals {
        stream.next(bar)
        var truth = [Bool](repeating: false, count: layout.count)
        var columns: [Double] = []
        for (i, rule) in layout.enumerated() {
            if let root = rule.plain {
                truth[i] = stream.root(root) == 1
            } else if let program = rule.program {
                for k in 0..<program.subtrees.count { columns.append(stream.root(rule.firstColumn + k)) }
            }
        }
        func value(_ role: SignalRules.Role) -> Bool? { roles.firstIndex(of: role).map { truth[$0] } }
        var s = BarSignals(entry: value(.entry) ?? false, exit: value(.exit) ?? false,
                           shortEntry: value(.shortEntry), shortExit: value(.shortExit))
        s.positionValues = columns
        if !otherSeries.isEmpty { s.unaligned = otherSeries.indices.filter { !stream.hasClosedBar(otherSeries[$0]) } }
        return s
    }

    /// The position rules over `count` bars, from the `positionValues` of each bar in order
    /// (`values[bar][k]`); nil when no rule reads the position.
    func positionRules(_ values: [[Double]], count: Int) -> PositionRules? {
        var rules = PositionRules()
        var offset = 0
        for (i, rule) in layout.enumerated() {
            guard let program = rule.program else { continue }
            let width = program.subtrees.count
            let columns = (0..<width).map { k in values.map { $0[offset + k] } }
            offset += width
            rules[roles[i]] = program.rule(columns: columns, count: count)
        }
        return rules.isEmpty ? nil : rules
    }
}

extension SignalRules {
    /// The rules with `values` for their parameters, one bar at a time (`IncrementalSignals`);
    /// their decisions equal `signals(on:values:cache:)` at the last bar of every prefix.
    /// - Throws: as `signals` does for the parameters (a requirement that does not hold, a value
    ///   a function cannot take).
    public func incremental(values: [String: ExpressionValue]) throws -> any IncrementalSignals {
        try RuleSignals(nodes: plan(values).nodes, roles: rules.map(\.role))
    }

    /// The rules one bar at a time over `run`'s bars and the bars after them, their `@` series
    /// read from `otherSeries` (bound as `signals(on: run, ...)` binds them), each following
    /// `run`'s symbol bar by bar, or another symbol from the bars its feed is given
    /// (`OtherSeriesStream`): a live session's decisions.
    /// - Throws: as `incremental(values:)`, and for a series read with `@` that cannot be
    ///   followed (an unknown timeframe, another symbol without a feed).
    public func incremental(values: [String: ExpressionValue], run: CandleSeries) throws -> any IncrementalSignals {
        try RuleSignals(nodes: bound(values, on: run), roles: rules.map(\.role),
                        runTimeframe: run.timeframe ?? Timeframe.infer(from: run.time), runSymbol: run.symbol)
    }
}
