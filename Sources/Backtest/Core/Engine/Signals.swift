/// A strategy's decisions as whole vectors, one element per bar, each computed from data up to
/// that bar's close.
///
/// With short selling allowed, `shortEntries`/`shortExits` default to `exits`/`entries`, so an
/// exit reverses a long into a short and an entry reverses a short into a long.
///
/// A rule that reads the open position (`trade_return > 0.05`) has no vector before the run: it
/// is in `positionRules`, evaluated at each bar's close during the run, and its role's vector
/// here is all false.
public struct Signals: Sendable, Equatable {
    public var entries: [Bool]
    public var exits: [Bool]
    public var shortEntries: [Bool]?
    public var shortExits: [Bool]?
    /// The rules that read the position, by role; nil when no rule does.
    public var positionRules: PositionRules?
    /// The bars where a series the rules read with `@` had no closed bar (its rules were
    /// false there), one entry per such series; a run's warnings count them.
    public var unaligned: [UnalignedBars] = []

    public init(entries: [Bool], exits: [Bool], shortEntries: [Bool]? = nil, shortExits: [Bool]? = nil,
                positionRules: PositionRules? = nil) {
        precondition(entries.count == exits.count, "entries and exits must have the same length")
        precondition(shortEntries.map { $0.count == entries.count } ?? true, "short entries must match entries' length")
        precondition(shortExits.map { $0.count == entries.count } ?? true, "short exits must match entries' length")
        if let positionRules {
            for rule in [positionRules.entry, positionRules.exit, positionRules.shortEntry, positionRules.shortExit] {
                precondition(rule.map { $0.count == entries.count } ?? true, "position rules must match entries' length")
            }
        }
        self.entries = entries
        self.exits = exits
        self.shortEntries = shortEntries
        self.shortExits = shortExits
        self.positionRules = positionRules?.isEmpty == true ? nil : positionRules
    }

    public var count: Int { entries.count }

    /// The signals of bars `range` only (bar 0 of the result is `range.lowerBound`), position
    /// rules included: what a run over part of the candles (a walk-forward fold) reads.
    public func slice(_ range: Range<Int>) -> Signals {
        Signals(entries: Array(entries[range]), exits: Array(exits[range]),
                shortEntries: shortEntries.map { Array($0[range]) }, shortExits: shortExits.map { Array($0[range]) },
                positionRules: positionRules?.slice(range))
            .with(unaligned: unaligned.map { $0.slice(range) })
    }

    private func with(unaligned: [UnalignedBars]) -> Signals {
        var s = self
        s.unaligned = unaligned
        return s
    }
}
