import Backtest
import Foundation
import Strategies

extension Command {
    static let benchPortfolio = Command(
        path: ["bench", "portfolio"],
        summary: "Time a portfolio of synthetic symbols: ma-cross, K=20, equal weight, monthly rebalance, synthetic depth",
        discussion: """
            Generates --symbols synthetic daily series of --bars bars (Synth seed 1; not timed),
            then times what 'bt portfolio ma-cross --max-positions 20 --rebalance 1M' computes
            after loading: each symbol's signals and its liquidity settings (the tick inferred
            from its prices) on all cores, the portfolio loop (one cash account, slots, monthly
            rebalance, every fill through the candle-only synthetic book with the participation
            cap) and every statistic of the portfolio. Best of --repeat runs. Build with -c
            release. --json prints {"symbols", "bars", "seconds"}.
            """,
        options: [
            .symbolCount.withHelp("Number of symbols (default 500)"),
            .bars.withHelp("Bars per symbol (default 5000)"),
            .repeat.withHelp("Runs; the best counts (default 5)"),
            .json,
        ]
    ) { args in
        let count = try args.int(.symbolCount) ?? 500
        let bars = try args.int(.bars) ?? 5000
        let repeats = try args.int(.repeat) ?? 5
        guard count >= 1, bars >= 31, repeats >= 1 else {
            throw UsageError("need \(Option.symbolCount) >= 1, \(Option.bars) >= 31, \(Option.repeat) >= 1", command: "bench portfolio")
        }
        Allocator.keepFreedMemory()
        let universe = Synth.universe(symbols: count, bars: bars, seed: 1, timeframe: .day1)
        let strategy = Strategy.maCross
        let parameters = try strategy.parameters([])
        let rules = PortfolioRules(maxPositions: 20, weighting: .equal, rebalance: .monthly)
        let config = ExecutionConfig()
        var best = Double.infinity, parts = (signals: 0.0, loop: 0.0, stats: 0.0)
        var result: PortfolioResult?
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            let symbols = try Parallel.map(count: universe.count) { j -> PortfolioSymbol in
                let candles = universe[j]
                var liquidity = config
                liquidity.synthetic.tick = candles.inferredTick
                return PortfolioSymbol(candles: candles, signals: try strategy.signals(candles, parameters), liquidity: liquidity)
            }.map { try $0.get() }
            let signalsDone = DispatchTime.now().uptimeNanoseconds
            let r = try Portfolio.run(symbols, rules: rules, config: config)
            let loopDone = DispatchTime.now().uptimeNanoseconds
            _ = Stats(r.account)
            let end = DispatchTime.now().uptimeNanoseconds
            let seconds = Double(end - start) / 1e9
            if seconds < best {
                best = seconds
                parts = (Double(signalsDone - start) / 1e9, Double(loopDone - signalsDone) / 1e9, Double(end - loopDone) / 1e9)
            }
            result = r
        }
        if args.flag(.json) {
            Output.line((["symbols": .int(count), "bars": .int(bars), "seconds": .number(best)] as JSONValue).serialized())
        } else {
            let r = result!
            Output.line("portfolio ma-cross 10/30 over \(count) symbols x \(bars) bars (K=20, equal weight, monthly rebalance, "
                        + "synthetic depth), best of \(repeats):")
            Output.line(String(format: "  %.3f s: signals and liquidity %.3f s, portfolio %.3f s, statistics %.3f s",
                               best, parts.signals, parts.loop, parts.stats))
            Output.line("  \(r.time.count) rows, \(r.fills.count) fills, \(r.trades.count) round trips, "
                        + "\(r.skippedEntries) entry signals without a slot")
        }
    }
}
