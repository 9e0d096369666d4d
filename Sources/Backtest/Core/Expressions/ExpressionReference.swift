/// `bt help expressions`: the language's series, operators and every function with its
/// arguments and defaults, result, a one-line summary, an example rule and that rule's warm-up,
/// all read from `ExpressionFunction` (the table the checker and the binder use) and computed by
/// the checker and binder themselves, so the text cannot drift from the language.
package enum ExpressionReference {
    /// One function's entry.
    package struct Entry: Sendable {
        package var signature: String
        package var result: String
        package var summary: String
        package var example: String
        /// Leading bars of the example that are undefined (`ExpressionNode.warmUp`).
        package var warmUp: Int
    }

    /// Every function, in the table's order.
    /// - Throws: `ExpressionError` if an example does not parse or check (a bug the tests catch).
    package static func entries() throws -> [Entry] {
        try ExpressionFunction.allCases.map { f in
            let located = try LocatedExpression(f.example, origin: .setting(.entry))
            _ = try located.check(parameters: [])
            let result: String
            switch f.result {
            case .number: result = "number"
            case .condition: result = "condition"
            case .outputs(let names, _): result = "number: ." + names.joined(separator: ", .")
            }
            return Entry(signature: f.signature, result: result, summary: f.summary, example: f.example,
                         warmUp: try located.bind([:]).warmUp)
        }
    }

    /// One line per position series: name, what it is, units, value when flat.
    private static func positionSeries() -> String {
        let width = PositionSeries.allCases.map(\.rawValue.count).max()! + 2
        return PositionSeries.allCases.map { s in
            "  " + s.rawValue + String(repeating: " ", count: width - s.rawValue.count) + s.summary
        }.joined(separator: "\n")
    }

    /// The help text.
    package static func text() throws -> String {
        var s = """
            The expression language of --entry/--exit/--short-entry/--short-exit, --where/--show and
            strategy files' [rules]. An expression describes whole series, one value per bar, using
            data up to that bar's close; rules must be conditions.

            SERIES:
              \(ExpressionSeries.allCases.map(\.rawValue).joined(separator: " "))   (hl2 = (high + low) / 2, hlc3 = (high + low + close) / 3,
              ohlc4 = (open + high + low + close) / 4); numbers: 12, 2.5, 1e-3; $name: a parameter

            POSITION SERIES (the run's open position at each bar's close, after that bar's fills;
            in entry/exit/short_entry/short_exit rules only, not in --where/--show or a rank):
            \(positionSeries())
              They combine with arithmetic, comparisons, and/or/not and abs, min, max, log, exp, sqrt,
              floor, ceil; they cannot feed an indicator, a window function, x[n], a crossing or
              bars_since (those need the past, which depends on the run). Rules that read them are
              evaluated bar by bar in the run; the rest of the rule is computed over whole series.
              e.g. exit: trade_return > 0.05 or bars_in_trade >= 10 or close < highest_since_entry * 0.95

            OTHER SERIES (bt run, signals, sweep, screen, portfolio, strategy files; --max-stale):
              EXPR@TF          the run's symbol at a higher timeframe: close > sma(close, 50)@1d
              EXPR@SYMBOL      another stored symbol at the run's timeframe: close / close@SPY > 1.1
              EXPR@SYMBOL@TF   both: close@SPY@1d > sma(close, 200)@SPY@1d; parameters work inside,
                               sma(close, $slow)@1d
              At a bar that closes at T, EXPR@... is its value at the last bar of that series that
              closed at or before T, so a daily value is yesterday's until today's daily bar closes
              (a bar closes at the end of its length, or at its symbol's session close if sooner).
              It is NaN (the rule false, counted in the run's warnings) where none has closed yet, or
              where another symbol's last bar closed longer ago than its bar length (--max-stale
              DURATION allows more); the run's own symbol never goes stale. The series is the store's
              at that timeframe, else the finest stored one resampled with its session, as
              --timeframe does. A timeframe below the run's is refused. A key runs over letters,
              digits and . - _ ^ / : so put spaces around an operator after it (close@SPY - 1).

            OPERATORS (lowest precedence first):
              or, and, not             three-valued: an undefined bar is unknown, never true
              < <= > >= == !=          comparisons (do not chain)
              + - * /                  arithmetic; NaN propagates; division by zero is NaN
              -x, x[n], f(...).name    negation, x n bars ago, picking an output
              x@KEY                    x on another series (above)

            FUNCTIONS (arguments with = have defaults; warm-up: bars of NaN the example starts with):

            """
        let entries = try entries()
        for e in entries {
            s += "  \(e.signature) -> \(e.result)\n      \(e.summary)\n      e.g. \(e.example)   (warm-up \(e.warmUp))\n"
        }
        s += "\nPeriods and widths (n, k, fast, ...) are fixed: literals, $name or arithmetic of them. "
        s += "See docs/guide/strategies.md.\n"
        return s
    }
}
