import Backtest
import Foundation

// What `bt bench` prints of each benchmark's result: its JSON object (the keys scripts and
// `make perf-check` read) and its text, one line per "\n"-ended line. Kept with the results so
// any front end reports a benchmark the same way.

extension EngineBenchmark.Result {
    package func json(bars: Int) -> JSONValue {
        ["bars": .int(bars), "seconds": .number(none.seconds), "seconds_synthetic": .number(synthetic.seconds),
         "seconds_orders": .number(orders.seconds), "seconds_perp": .number(perp.seconds)]
    }

    package func text(bars: Int, repeats: Int) -> String {
        func ms(_ seconds: Double) -> String { String(format: "%8.2f", seconds * 1000) }
        return "ma-cross 10/30 on \(bars) bars, signals + portfolio, best of \(repeats):\n"
            + "  depth none       \(ms(none.seconds)) ms  (\(none.fills) fills)\n"
            + "  depth synthetic  \(ms(synthetic.seconds)) ms  (\(synthetic.fills) fills; "
            + String(format: "%.2fx depth none)\n", synthetic.seconds / none.seconds)
            + "  orders and exits \(ms(orders.seconds)) ms  (\(orders.fills) fills)\n"
            + "  10x perp, funding \(ms(perp.seconds)) ms  (\(perp.fills) fills)\n"
    }
}

extension ExpressionBenchmark.Result {
    package func json(bars: Int) -> JSONValue {
        ["bars": .int(bars), "builtin_seconds": .number(builtIn), "expr_seconds": .number(expression),
         "daily_filter_seconds": .number(filtered),
         "sweep_builtin_seconds": .number(sweepBuiltIn), "sweep_expr_seconds": .number(sweepExpression)]
    }

    package func text(bars: Int, repeats: Int, sweepBars: Int) -> String {
        "ma-cross 10/30, built-in vs expression (best of \(repeats) and \(min(3, repeats)); build with -c release):\n"
            + String(format: "  one run, %d bars:        built-in %8.2f ms   expression %8.2f ms   (x%.2f)\n",
                     bars, builtIn * 1000, expression * 1000, expression / builtIn)
            + String(format: "  with a daily filter (and close > sma(close, 20)@1d): %8.2f ms   (x%.2f the expression; target 1.3)\n",
                     filtered * 1000, filtered / expression)
            + String(format: "  sweep, %d combinations x %d bars: built-in %8.3f s    expression %8.3f s    (x%.2f)\n",
                     sweepCombinations, sweepBars, sweepBuiltIn, sweepExpression, sweepExpression / sweepBuiltIn)
    }
}

extension PortfolioBenchmark.Result {
    package func json(symbols: Int, bars: Int) -> JSONValue {
        ["symbols": .int(symbols), "bars": .int(bars), "seconds": .number(seconds)]
    }

    package func text(symbols: Int, bars: Int, repeats: Int) -> String {
        "portfolio ma-cross 10/30 over \(symbols) symbols x \(bars) bars (K=20, equal weight, monthly rebalance, "
            + "synthetic depth), best of \(repeats):\n"
            + String(format: "  %.3f s: signals and liquidity %.3f s, portfolio %.3f s, statistics %.3f s\n", seconds, signals, loop, stats)
            + "  \(rows) rows, \(fills) fills, \(trades) round trips, \(skippedEntries) entry signals without a slot\n"
    }
}

extension ScreenBenchmark.Result {
    package func json(symbols: Int, bars: Int) -> JSONValue {
        ["symbols": .int(symbols), "bars": .int(bars), "seconds": .number(seconds)]
    }

    package func text(symbols: Int, bars: Int, repeats: Int) -> String {
        "screen ma-cross over \(symbols) symbols x \(bars) bars (synthetic depth, stats, reports), best of \(repeats):\n"
            + String(format: "  %.3f s (%d failed)\n", seconds, failed)
    }
}

extension SweepBenchmark.Result {
    /// With each of `searches` (a search of the same space) as a member named for it.
    package func json(bars: Int, searches: [(name: String, result: SearchBenchmark.Result)] = []) -> JSONValue {
        .object([(key: "bars", value: .int(bars)), (key: "combos", value: .int(combinations)), (key: "seconds", value: .number(seconds))]
                + searches.map { (key: $0.name, value: $0.result.json) })
    }

    package func text(bars: Int, repeats: Int) -> String {
        let rate = Double(bars) * Double(combinations) / seconds
        return "ma-cross sweep: 76 windows, \(combinations) combinations on \(bars) bars, best of \(repeats):\n"
            + String(format: "  %.3f s, %.1f million bar-backtests per second (best sharpe %.3f)\n", seconds, rate / 1e6, bestSharpe)
    }
}

extension SearchBenchmark.Result {
    package var json: JSONValue {
        ["trials": .int(trials), "seconds": .number(seconds), "trials_per_second": .number(trialsPerSecond)]
    }

    /// One line: `name` (random, bayes), the trials, the time and the rate.
    package func text(_ name: String) -> String {
        String(format: "  %@ search, %d trials: %.3f s, %.0f trials per second (best sharpe %.3f)\n",
               name, trials, seconds, trialsPerSecond, bestSharpe)
    }
}

extension StatsBenchmark.Result {
    package var json: JSONValue {
        func ms(_ x: Double) -> JSONValue { .numberLiteral("\((x * 1000).rounded() / 1000)") }
        return ["returns": .int(returns), "runs": .int(runs), "median_ms": ms(median), "best_ms": ms(best),
                "draw_blocks_ms": ms(drawBlocks), "shared_median_ms": ms(sharedMedian), "shared_best_ms": ms(sharedBest),
                "tape_median_ms": ms(tapeMedian), "tape_best_ms": ms(tapeBest)]
    }

    package var text: String {
        "sharpe interval: \(returns) returns, 1000 resamples: median "
            + String(format: "%.3f ms, best %.3f ms per call over %d runs\n", median, best, runs)
            + String(format: "  with the blocks drawn once (%.3f ms, as a screen does per length): median %.3f ms, best %.3f ms per call\n",
                     drawBlocks, sharedMedian, sharedBest)
            + String(format: "  with the generator's outputs read from a tape (a screen's other lengths): median %.3f ms, best %.3f ms per call\n",
                     tapeMedian, tapeBest)
    }
}

extension StoreBenchmark.Result {
    package var json: JSONValue {
        ["bars": .int(bars), "load_ms": .numberLiteral(Format.fixed(loadMilliseconds, 3)),
         "csv_parse_ms": .numberLiteral(Format.fixed(csvParseMilliseconds, 3)), "csv_bytes": .int(csvBytes)]
    }

    package var text: String {
        "load \(bars) candles from the store: \(Format.fixed(loadMilliseconds, 1)) ms\n"
            + "parse the same candles from CSV (\(Format.fixed(Double(csvBytes) / 1e6, 1)) MB): \(Format.fixed(csvParseMilliseconds, 1)) ms\n"
    }
}

extension ChartBenchmark.Result {
    package var text: String {
        "chart: \(candles) candles at \(size.width)x\(size.height): median "
            + String(format: "%.3f ms, best %.3f ms over %d runs\n", median, best, runs)
    }
}

extension IndicatorBenchmark {
    /// `nanosecondsPerBar`'s figures as JSON.
    package static func json(bars: Int, results: [(String, Double)]) -> JSONValue {
        ["bars": .int(bars), "results": .object(results.map { (key: $0.0, value: JSONValue.numberLiteral("\(($0.1 * 1000).rounded() / 1000)")) })]
    }

    /// `nanosecondsPerBar`'s figures, then `microsecondsPerCall`'s at 1,000 bars.
    package static func text(bars: Int, results: [(String, Double)], perCall: [(String, Double)]) -> String {
        func row(_ name: String, _ v: Double) -> String { name.padding(toLength: 14, withPad: " ", startingAt: 0) + String(format: "%8.3f\n", v) }
        return "bars: \(bars)\nindicator        ns/bar\n" + results.map(row).joined() + "\nat 1000 bars     us/call\n" + perCall.map(row).joined()
    }
}

extension HTMLBenchmark.Page {
    package var json: JSONValue {
        ["bars": .int(bars), "page": .string(name), "path": .string(path), "bytes": .int(bytes),
         "build_ms": .numberLiteral(String(format: "%.1f", milliseconds))]
    }

    package var text: String {
        name.padding(toLength: 6, withPad: " ", startingAt: 0)
            + String(format: "%9d bars  built in %8.1f ms  %8.2f MB  %5.2f MB per 100k bars  ",
                     bars, milliseconds, Double(bytes) / 1e6, Double(bytes) / Double(bars) * 1e5 / 1e6) + path + "\n"
    }
}
