/// A price, or a distance in price, per bar: an expression such as `close * 0.99`,
/// `highest(high, 20)` or `2 * atr(14)`, checked and bound when made and evaluated on each run's
/// candles. Orders read its value at their signal bar (docs/design/orders.md); a trailing stop
/// reads it at each completed bar.
public struct PriceExpression: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    public let text: String
    let node: ExpressionNode
    /// Where it was written, for errors found once it is evaluated (nil: made by bt). Not part
    /// of its identity: the same expression from a file or a flag computes the same values.
    let origin: LocatedExpression.Origin?

    /// Checks that `expression` is a number series over `parameters` and binds their `values`.
    /// - Throws: `InputError` at the expression's origin (with a caret) for a name, type or value
    ///   it cannot take.
    public init(_ expression: LocatedExpression, values: [String: ExpressionValue] = [:]) throws {
        try expression.check(.number, parameters: values.map { name, value in
            switch value {
            case .number: ExpressionParameter(name, .number)
            case .word(let w): ExpressionParameter(name, .word([w]))
            }
        }, for: "a price")
        text = expression.text
        node = try expression.bind(values)
        origin = expression.origin
    }

    init(text: String, node: ExpressionNode) {
        self.text = text
        self.node = node
        origin = nil
    }

    public static func == (a: PriceExpression, b: PriceExpression) -> Bool { a.text == b.text && a.node == b.node }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(node)
    }

    public var description: String { text }

    /// Leading bars where the value is undefined whatever the data.
    public var warmUp: Int { node.warmUp }
}

extension Array where Element == PriceExpression {
    /// Each expression's values on `candles`, in order, computed as one plan (shared
    /// subexpressions once; indicators from `cache`, which must belong to `candles`).
    /// - Throws: `InputError` from an indicator (a period longer than the series).
    /// - Complexity: linear in the expressions' nodes (and bars): thousands of take-profit
    ///   distances are read out as arrays, one after another.
    func values(on candles: CandleSeries, cache: IndicatorCache) throws -> [[Double]] {
        guard !isEmpty else { return [] }
        let plan = ExpressionPlan(map(\.node))
        return try plan.outputs(on: candles, cache: cache, workspace: ExpressionWorkspace(), truths: 0).values
    }
}
