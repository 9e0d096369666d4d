import Backtest
import BacktestBenchmarks
import Foundation
import Strategies

extension Command {
    static let benchExpr = Command(
        path: ["bench", "expr"],
        help: EmbeddedAssets.benchExprTXT,
        options: [
            .bars.withHelp("Bars of the single run (default 1000000)"),
            .repeat.withHelp("Single runs per figure; the best counts (default 7)"),
            .candles.withHelp("Bars of the sweep (default 10000)"),
            .json,
        ]
    ) { args in
        let bars = try args.int(.bars) ?? 1_000_000
        let repeats = try args.int(.repeat) ?? 7
        guard bars >= 31 else { throw UsageError("\(Option.bars) must be at least 31 for ma-cross 10/30", command: "bench expr") }
        guard repeats >= 1 else { throw UsageError("\(Option.repeat) must be at least 1", command: "bench expr") }
        let sweepBars = try args.int(.candles) ?? 10_000
        guard sweepBars >= 201 else { throw UsageError("\(Option.candles) must be at least 201 for windows up to 200", command: "bench expr") }
        Allocator.keepFreedMemory()
        let r = try ExpressionBenchmark.run(builtIn: .maCross, bars: bars, repeats: repeats, sweepBars: sweepBars)
        let best = (builtIn: r.builtIn, expr: r.expression), sweepBest = (builtIn: r.sweepBuiltIn, expr: r.sweepExpression)

        if args.flag(.json) {
            let json: JSONValue = ["bars": .int(bars), "builtin_seconds": .number(best.builtIn), "expr_seconds": .number(best.expr),
                                   "sweep_builtin_seconds": .number(sweepBest.builtIn), "sweep_expr_seconds": .number(sweepBest.expr)]
            Output.line(json.serialized())
        } else {
            Output.line("ma-cross 10/30, built-in vs expression (best of \(repeats) and \(min(3, repeats)); build with -c release):")
            Output.line(String(format: "  one run, %d bars:        built-in %8.2f ms   expression %8.2f ms   (x%.2f)",
                               bars, best.builtIn * 1000, best.expr * 1000, best.expr / best.builtIn))
            Output.line(String(format: "  sweep, %d combinations x %d bars: built-in %8.3f s    expression %8.3f s    (x%.2f)",
                               r.sweepCombinations, sweepBars, sweepBest.builtIn, sweepBest.expr, sweepBest.expr / sweepBest.builtIn))
        }
    }
}
