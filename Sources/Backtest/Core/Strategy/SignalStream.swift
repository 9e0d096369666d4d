/// A strategy's signals kept up to date bar by bar: what `bt live` decides with at each close.
///
/// Made over the stored history (the strategy's whole-series signals are computed once there,
/// which checks the parameters and the data as a run does, and its incremental form takes every
/// history bar), then `append` takes each closed bar in O(1) or O(period). `signals` equals
/// `strategy.signals(series, parameters)` over the same bars, to the bit.
public struct SignalStream: Sendable {
    private var incremental: any IncrementalSignals
    private var entries: [Bool] = [], exits: [Bool] = []
    private var shortEntries: [Bool]?, shortExits: [Bool]?
    private var positionValues: [[Double]] = []
    /// For each series the rules read with `@` (`RuleSignals.otherSeries`), the bars taken
    /// without a closed bar of it.
    private var unaligned: [[Int]] = []

    /// - Returns: nil when the strategy has no incremental form (`Strategy.fixed`).
    /// - Throws: what `strategy.signals(history, parameters)` throws.
    public init?(_ strategy: Strategy, _ parameters: StrategyParameters, history: CandleSeries) throws {
        guard strategy.isIncremental else { return nil }
        _ = try strategy.signals(history, parameters)
        guard let incremental = try strategy.incremental(parameters, run: history) else { return nil }
        self.incremental = incremental
        entries.reserveCapacity(history.count + 1_024)
        exits.reserveCapacity(history.count + 1_024)
        for i in 0..<history.count { append(history[bar: i]) }
    }

    /// Bars taken.
    public var count: Int { entries.count }

    /// Takes the next closed bar; returns its decisions.
    @discardableResult
    public mutating func append(_ bar: Candle) -> BarSignals {
        let s = incremental.next(bar)
        entries.append(s.entry)
        exits.append(s.exit)
        if let e = s.shortEntry {
            if shortEntries == nil { shortEntries = [] }
            shortEntries!.append(e)
        }
        if let e = s.shortExit {
            if shortExits == nil { shortExits = [] }
            shortExits!.append(e)
        }
        if !s.positionValues.isEmpty { positionValues.append(s.positionValues) }
        for k in s.unaligned {
            while unaligned.count <= k { unaligned.append([]) }
            unaligned[k].append(entries.count - 1)
        }
        return s
    }

    /// The signals of every bar taken.
    public var signals: Signals {
        let ruleSignals = incremental as? RuleSignals
        let rules = ruleSignals?.positionRules(positionValues, count: entries.count)
        var signals = Signals(entries: entries, exits: exits, shortEntries: shortEntries, shortExits: shortExits, positionRules: rules)
        signals.unaligned = zip(ruleSignals?.otherSeries ?? [], unaligned).compactMap {
            UnalignedBars($0, bars: $1, canBeStale: $0.symbol != ruleSignals?.runSymbol)
        }
        return signals
    }

    /// The signals of every bar taken and then `bar`, without keeping it (a provisional bar).
    public func signals(adding bar: Candle) -> Signals {
        var copy = self
        copy.append(bar)
        return copy.signals
    }
}
