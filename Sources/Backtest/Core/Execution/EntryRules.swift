/// How entry signals become orders (docs/design/orders.md, "Entries" and "Sizing").
public struct EntryRules: Sendable, Hashable {
    /// A long entry's limit price (`--entry-limit`), read at the signal bar; nil: no limit.
    public var limit: PriceExpression?
    /// A long entry's stop price (`--entry-stop`); with `limit`, a stop-limit order.
    public var stop: PriceExpression?
    /// A short entry's limit and stop prices (a short limit fills at or above its price).
    public var shortLimit: PriceExpression?
    public var shortStop: PriceExpression?
    /// Bars a limit or stop entry works, from the bar after its signal (>= 1).
    public var orderBars = 1
    /// Entries a position may take, each from its own entry signal (>= 1).
    public var pyramid = 1

    public init(limit: PriceExpression? = nil, stop: PriceExpression? = nil, shortLimit: PriceExpression? = nil,
                shortStop: PriceExpression? = nil, orderBars: Int = 1, pyramid: Int = 1) {
        self.limit = limit; self.stop = stop; self.shortLimit = shortLimit; self.shortStop = shortStop
        self.orderBars = orderBars; self.pyramid = pyramid
    }

    /// Whether entries are market orders (the default).
    public var isMarket: Bool { limit == nil && stop == nil && shortLimit == nil && shortStop == nil }

    /// The expressions the prices read, in a fixed order (limit, stop, short limit, short stop).
    var expressions: [PriceExpression] { [limit, stop, shortLimit, shortStop].compactMap { $0 } }

    /// Throws `InputError` naming the setting for a count out of range, or short entries without
    /// their own prices when long ones have them.
    func validate(allowShort: Bool) throws {
        guard orderBars >= 1 else {
            throw InputError("a limit or stop entry works for at least 1 bar", setting: .orderBars, value: String(orderBars))
        }
        guard pyramid >= 1 else {
            throw InputError("a position takes at least 1 entry", setting: .pyramid, value: String(pyramid))
        }
        if allowShort {
            if limit != nil && shortLimit == nil {
                throw InputError(.needsSetting, "with shorts, limit entries need the short entries' limit price too", setting: .shortEntryLimit)
            }
            if stop != nil && shortStop == nil {
                throw InputError(.needsSetting, "with shorts, stop entries need the short entries' stop price too", setting: .shortEntryStop)
            }
        }
        if (shortLimit != nil || shortStop != nil) && !allowShort {
            throw InputError("short entry prices need shorts allowed", setting: shortLimit != nil ? .shortEntryLimit : .shortEntryStop)
        }
        if (shortLimit != nil && limit == nil) || (shortStop != nil && stop == nil) {
            throw InputError("short entries take the kind of order long entries take: give the long entries' price as well",
                             setting: shortLimit != nil && limit == nil ? .shortEntryLimit : .shortEntryStop)
        }
    }
}
