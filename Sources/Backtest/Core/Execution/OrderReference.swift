/// `bt help exits` and `bt help strategy-file`: the order and exit settings (their forms, a
/// summary and an example each) and the strategy file's sections, read from the lists the
/// parsers use (`OrderSettings.exitSettings`/`orderSettings`, `StrategyFile.sections`), with
/// every example parsed by `OrderSettings` itself, so the text cannot drift from what is accepted.
package enum OrderReference {
    /// One setting's entry: its name in files (`sl`), its forms and what it does.
    package struct Entry: Sendable {
        package var setting: Setting
        package var forms: String
        package var summary: String
        package var example: String
    }

    /// Every order and exit setting, exits first, in the parsers' order.
    package static let entries: [Entry] = [
        Entry(setting: .stopLoss, forms: "PCT | EXPR",
              summary: "stop-loss below a long's entry price (above a short's): a percentage, or a distance in price read at the entry's signal bar",
              example: "2 * atr(14)"),
        Entry(setting: .takeProfit, forms: "PCT[@SHARE] | EXPR[@SHARE], ...",
              summary: "take-profit targets; @SHARE sells that share of the trade's quantity once, a target without @ what is left",
              example: "5%@50%, 12%"),
        Entry(setting: .trail, forms: "PCT | EXPR",
              summary: "trailing stop below the peak since entry (fill price, then the highs of completed bars); an expression is re-read each bar; it only rises",
              example: "3 * atr(22)"),
        Entry(setting: .trailFrom, forms: "high | close",
              summary: "what trail follows: high (the default, the peak above) or close: close - D at each close of the position's bars from the entry bar's on, none before it; it only rises (backtesting.py's TrailingStrategy)",
              example: "close"),
        Entry(setting: .breakeven, forms: "PCT",
              summary: "once the peak has gained PCT over the entry, the stop moves up to the entry price", example: "4%"),
        Entry(setting: .exitAfter, forms: "N", summary: "leave at the open N bars after the entry bar (--fill close: at that close)",
              example: "20"),
        Entry(setting: .entryLimit, forms: "EXPR",
              summary: "enter with a limit order at this price, read at the signal bar: it fills at the open when the open is at or below it, else at the limit when the low reaches it",
              example: "close * 0.99"),
        Entry(setting: .entryStop, forms: "EXPR",
              summary: "enter with a stop order (a breakout): at the open when the open is at or above it, else at the stop when the high reaches it; with entry_limit, a stop-limit",
              example: "highest(high, 20)"),
        Entry(setting: .shortEntryLimit, forms: "EXPR", summary: "a short entry's limit price (at or above it)", example: "close * 1.01"),
        Entry(setting: .shortEntryStop, forms: "EXPR", summary: "a short entry's stop price (at or below it)", example: "lowest(low, 20)"),
        Entry(setting: .orderBars, forms: "N", summary: "bars a limit or stop entry works before it expires (default 1)", example: "3"),
        Entry(setting: .pyramid, forms: "N", summary: "entries a position may take, each from its own entry signal (default 1)", example: "3"),
    ]

    /// `--sl` for `sl`, `--exit-after` for `exit_after`.
    static func flag(_ setting: Setting) -> String { "--" + setting.name.replacingOccurrences(of: "_", with: "-") }

    /// The text of `bt help exits`.
    /// - Throws: `InputError` if an example does not parse (a bug the tests catch).
    package static func exitsText() throws -> String {
        for e in entries {
            var config = ExecutionConfig()
            try OrderSettings([OrderSettings.Item(e.setting, e.example, origin: .setting(e.setting))]).apply(to: &config)
        }
        var s = """
            Entry orders and the exits attached to every position (docs/design/orders.md). On the
            command line as options (--sl 2%, --tp 5%@50% --tp 12%), in a strategy file as the
            keys of its [exits] and [orders] sections (sl = 2%, tp = 5%@50%, 12%); the command
            line's options override the file's. PCT is a percentage (5%) or a fraction below 1;
            EXPR a price or price distance in the expression language ('bt help expressions').

            EXITS ([exits]):

            """
        func add(_ e: Entry) {
            s += "  \(e.setting.name) = \(e.forms)    (\(flag(e.setting)))\n      \(e.summary)\n      e.g. \(e.example)\n"
        }
        for e in entries where OrderSettings.exitSettings.contains(e.setting) { add(e) }
        s += "\nORDERS ([orders]):\n"
        for e in entries where OrderSettings.orderSettings.contains(e.setting) { add(e) }
        s += """

            ON EACH BAR OF A POSITION: the open first (a signal exit due, else a time exit, else a
            stop or trailing level the open is through, else targets the open is through: filled at
            the open), then the range (a stop level reached: filled at it; a target too: the stop
            is taken and the bar counted in ambiguous_exit_bars; else targets reached, nearest
            first), then the close (the peak, trailing stop and break-even follow the bar, then the
            rules are read). Levels are measured from the average entry fill price and rounded to
            --tick against the position. Each trade records how it ended: signal, stop, stop-gap,
            target, target-gap, trail, time, end.

            SIZING (--size): N% of equity, Nu units, N$ cash, risk:N% (N% of equity lost at the
            initial stop; needs sl), vol:N% (N% annualised volatility from the last 20 returns).

            """
        return s
    }

    /// The text of `bt help strategy-file`.
    package static func strategyFileText() -> String {
        """
        A strategy file (NAME.bt in the strategies directory, or any path) names a strategy, its
        parameters and its rules; bt run/screen/sweep/portfolio take its name or path.

            # Moving-average crossover with a chandelier exit.
            name = trail-cross
            summary = Enter on the cross above, trail 3 ATRs below the peak

            [params]
            fast = int 10 >= 1 : Fast moving-average period
            slow = int 30 >= 2 : Slow moving-average period (> fast)
            type = sma|ema sma : Moving-average type

            [rules]
            entry = cross_above($type(close, $fast), $type(close, $slow))
            exit = cross_below($type(close, $fast), $type(close, $slow))
                or trade_return < -0.1
            require = $fast < $slow

            [exits]
            sl = 2 * atr(14)
            trail = 3 * atr(22)

            [orders]
            entry_limit = close * 0.995
            order_bars = 2

        Lines are key = value; # starts a comment line; a line starting with whitespace continues
        the rule above. Before the sections: name (default: the file name) and summary.
        SECTIONS: \(StrategyFile.sections.map { "[\($0)]" }.joined(separator: " "))
          [params]  NAME = TYPE DEFAULT [BOUND]... [: HELP]; TYPE int, number or a choice a|b|c of
                    function names ($type(close, 10) calls the chosen one); bounds >= x, > x, <= x, < x
          [rules]   \(SignalRules.Role.allCases.map(\.rawValue).joined(separator: ", ")) (entry and exit required; the
                    short rules in pairs, used with --short), and require lines (conditions on
                    parameters only); expressions as in 'bt help expressions'
          [exits]   \(OrderSettings.exitSettings.map(\.name).joined(separator: ", "))
          [orders]  \(OrderSettings.orderSettings.map(\.name).joined(separator: ", "))
                    (forms as in 'bt help exits'; a command line's option overrides the key)

        """
    }
}
