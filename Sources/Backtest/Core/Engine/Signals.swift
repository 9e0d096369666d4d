/// A strategy's decisions as whole vectors, one element per bar, each computed from data up to
/// that bar's close.
///
/// With short selling allowed, `shortEntries`/`shortExits` default to `exits`/`entries`, so an
/// exit reverses a long into a short and an entry reverses a short into a long.
public struct Signals: Sendable, Equatable {
    public var entries: [Bool]
    public var exits: [Bool]
    public var shortEntries: [Bool]?
    public var shortExits: [Bool]?

    public init(entries: [Bool], exits: [Bool], shortEntries: [Bool]? = nil, shortExits: [Bool]? = nil) {
        precondition(entries.count == exits.count, "entries and exits must have the same length")
        precondition(shortEntries.map { $0.count == entries.count } ?? true, "short entries must match entries' length")
        precondition(shortExits.map { $0.count == entries.count } ?? true, "short exits must match entries' length")
        self.entries = entries
        self.exits = exits
        self.shortEntries = shortEntries
        self.shortExits = shortExits
    }

    public var count: Int { entries.count }
}
