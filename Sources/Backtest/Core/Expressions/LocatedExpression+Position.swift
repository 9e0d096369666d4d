extension LocatedExpression {
    /// Whether the expression reads a position series (`position`, `trade_return`, ...), which
    /// has values only inside a run.
    public var readsPositionSeries: Bool {
        ExpressionChecker.firstPositionSeries(in: expression.root) != nil
    }

    /// Refuses an expression that reads a position series, for places that evaluate expressions
    /// without a run: a screen's condition and shown values, a rank, an order's price.
    /// - Parameter what: what the expression is, for the message (`"a screen condition"`).
    /// - Throws: `InputError` at the origin, with a caret under the first position series.
    public func requireNoPositionSeries(for what: String) throws {
        guard let use = ExpressionChecker.firstPositionSeries(in: expression.root) else { return }
        let rules = SignalRules.Role.allCases.map(\.rawValue).joined(separator: ", ")
        throw Self.inputError(ExpressionError(
            .positionSeries,
            "'\(use.name)' is a position series, known only bar by bar during a run, and \(what) is evaluated "
                + "without one: position series may be read only by a strategy's rules (\(rules))",
            at: use.range, in: text), origin)
    }
}
