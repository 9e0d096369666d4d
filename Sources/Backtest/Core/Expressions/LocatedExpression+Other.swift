extension LocatedExpression {
    /// Whether the expression reads another series with `@` (`close@SPY`, `sma(close, 50)@1d`):
    /// it binds only against a run's bars, with an `OtherSeriesReader`.
    public var readsOtherSeries: Bool {
        ExpressionChecker.firstOther(in: expression.root) != nil
    }
}
