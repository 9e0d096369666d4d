/// The order and exit settings as written, on a command line (`--sl "2 * atr(14)"`) or in a
/// strategy file's `[exits]` and `[orders]` sections (`sl = 2 * atr(14)`), each with where it
/// was written: one parser for both, so they accept the same texts and refuse them alike.
///
/// The forms (docs/design/orders.md): `sl`, `trail`: `5%` (or a fraction below 1, `0.05`) or a
/// price-distance expression; `tp`: the same, optionally `@SHARE` (`5%@50%`: sell half at +5%),
/// repeated for several targets; `breakeven`: `PCT`; `exit_after`, `order_bars`, `pyramid`: a
/// whole number >= 1; `entry_limit`, `entry_stop`, `short_entry_limit`, `short_entry_stop`: a
/// price expression, read at the signal bar.
public struct OrderSettings: Sendable {
    /// One setting's text and where it was written.
    public struct Item: Sendable {
        public var setting: Setting
        public var text: String
        public var origin: LocatedExpression.Origin

        public init(_ setting: Setting, _ text: String, origin: LocatedExpression.Origin) {
            self.setting = setting
            self.text = text
            self.origin = origin
        }
    }

    /// The settings these texts may give, with their names in strategy files.
    public static let exitSettings: [Setting] = [.stopLoss, .takeProfit, .trail, .trailFrom, .breakeven, .exitAfter]
    public static let orderSettings: [Setting] = [.entryLimit, .entryStop, .shortEntryLimit, .shortEntryStop, .orderBars, .pyramid]

    public var items: [Item]

    public init(_ items: [Item] = []) { self.items = items }

    public var isEmpty: Bool { items.isEmpty }

    /// These settings with `overrides`' replacing every setting they give (all of a setting's
    /// items: several `tp` on the command line replace the file's targets).
    public func overridden(by overrides: OrderSettings) -> OrderSettings {
        let given = Set(overrides.items.map(\.setting))
        return OrderSettings(items.filter { !given.contains($0.setting) } + overrides.items)
    }

    /// Sets `config.exits` and `config.entries` from the settings given (the others keep their
    /// values), binding expressions to `values` (the strategy's parameters as `$names`).
    /// - Throws: `InputError` naming the setting (or the file and line) and the reason.
    public func apply(to config: inout ExecutionConfig, values: [String: ExpressionValue] = [:]) throws {
        var targets: [TakeProfit] = []
        for item in items {
            switch item.setting {
            case .stopLoss: config.exits.stopLoss = try distance(item, values)
            case .trail: config.exits.trail = try distance(item, values)
            case .trailFrom:
                guard let anchor = TrailAnchor(rawValue: item.text.trimmingWhitespace()) else { throw error(item, "not high or close") }
                config.exits.trailFrom = anchor
            case .takeProfit:
                for part in Self.list(item.text) {
                    var one = item
                    one.text = part
                    targets.append(try target(one, values))
                }
            case .breakeven: config.exits.breakeven = try fraction(item)
            case .exitAfter: config.exits.exitAfterBars = try count(item)
            case .orderBars: config.entries.orderBars = try count(item)
            case .pyramid: config.entries.pyramid = try count(item)
            case .entryLimit: config.entries.limit = try price(item, values)
            case .entryStop: config.entries.stop = try price(item, values)
            case .shortEntryLimit: config.entries.shortLimit = try price(item, values)
            case .shortEntryStop: config.entries.shortStop = try price(item, values)
            default: preconditionFailure("\(item.setting.name) is not an order or exit setting")
            }
        }
        if items.contains(where: { $0.setting == .takeProfit }) { config.exits.takeProfits = targets }
    }

    /// Applies the settings to a default configuration and checks the exits and entries they
    /// give together (shares adding up, distances in range), so a file is refused when read: an
    /// error names the item (its file and line) that gave the setting at fault.
    /// - Throws: `InputError` at the item's origin.
    public func check(values: [String: ExpressionValue] = [:], allowShort: Bool = true) throws {
        var sample = ExecutionConfig()
        try apply(to: &sample, values: values)
        do {
            try sample.exits.validate()
            try sample.entries.validate(allowShort: allowShort)
        } catch let e as InputError {
            guard let setting = e.setting, let item = items.last(where: { $0.setting == setting }) else { throw e }
            throw error(item, e.reason)
        }
    }

    /// A file's `tp = 5%@50%, 10%` lists several targets; a command line repeats `--tp`.
    static func list(_ text: String) -> [String] {
        var parts: [String] = [], depth = 0, current = ""
        for ch in text {
            if ch == "(" { depth += 1 } else if ch == ")" { depth -= 1 }
            if ch == "," && depth == 0 { parts.append(current); current = ""; continue }
            current.append(ch)
        }
        parts.append(current)
        return parts.map { $0.trimmingWhitespace() }
    }

    private func error(_ item: Item, _ reason: String) -> InputError {
        item.origin.inputError(item.setting, value: item.text, reason)
    }

    /// `5%`, `0.05` (a fraction of the entry price) or a price-distance expression.
    private func distance(_ item: Item, _ values: [String: ExpressionValue]) throws -> ExitDistance {
        let text = item.text.trimmingWhitespace()
        if text.hasSuffix("%") || Double(text) != nil {
            do {
                return .fraction(try ExecutionConfig.parseDistance(text, setting: item.setting))
            } catch let e as InputError {
                throw error(item, e.reason)
            }
        }
        return .price(try price(item, values, what: "a distance in price"))
    }

    /// `DISTANCE` or `DISTANCE@SHARE` with SHARE a percentage.
    private func target(_ item: Item, _ values: [String: ExpressionValue]) throws -> TakeProfit {
        guard let at = item.text.lastIndex(of: "@") else { return TakeProfit(try distance(item, values)) }
        var head = item
        head.text = String(item.text[..<at]).trimmingWhitespace()
        let shareText = String(item.text[item.text.index(after: at)...]).trimmingWhitespace()
        guard shareText.hasSuffix("%"), let v = Double(shareText.dropLast()), v.isFinite else {
            throw error(item, "the share after '@' is a percentage of the trade's quantity, e.g. 5%@50%")
        }
        return TakeProfit(try distance(head, values), share: v / 100)
    }

    /// `5%` or a fraction.
    private func fraction(_ item: Item) throws -> Double {
        do {
            return try ExecutionConfig.parseFraction(item.text.trimmingWhitespace(), setting: item.setting)
        } catch let e as InputError {
            throw error(item, e.reason)
        }
    }

    /// A whole number >= 1.
    private func count(_ item: Item) throws -> Int {
        guard let n = Int(item.text.trimmingWhitespace()), n >= 1 else { throw error(item, "not a whole number >= 1") }
        return n
    }

    private func price(_ item: Item, _ values: [String: ExpressionValue], what: String = "a price") throws -> PriceExpression {
        let e = try LocatedExpression(item.text, origin: item.origin)
        try e.requireNoPositionSeries(for: what)
        return try PriceExpression(e, values: values)
    }
}
