import Foundation
import Backtest
import BacktestBenchmarks
import Strategies

extension Command {
    static let benchEngine = Command(
        path: ["bench", "engine"],
        summary: "Time ma-cross 10/30 signals + portfolio on synthetic bars: depth none, synthetic, and with orders",
        discussion: """
            Bars come from 'Synth.series' (seed 1, 1m). Depth synthetic is the default candle-only
            model (spread over 250 bars, square-root impact, tick inferred from the prices as
            'bt run' does). The orders figure adds, at depth none, a limit entry at
            'close * 0.9997' working 3 bars, --sl 0.2%, --tp 0.3%@50% --tp 0.6%, --trail 0.25%
            and --exit-after 60 (the execution core's path for working orders and exits). Each figure is the best of --repeat runs
            of signals plus portfolio (the first run, which page-faults fresh memory, rarely
            wins: malloc keeps freed memory as a sweep would); generating data is not timed.
            Build with -c release. --json prints {"bars", "seconds", "seconds_synthetic",
            "seconds_orders"}.
            """,
        options: [
            .bars.withHelp("Number of bars (default 1000000)"),
            .repeat.withHelp("Runs per figure; the best counts (default 7)"),
            .json,
        ]
    ) { args in
        let bars = try args.int(.bars) ?? 1_000_000
        let repeats = try args.int(.repeat) ?? 7
        guard bars >= 31 else { throw UsageError("\(Option.bars) must be at least 31 for ma-cross 10/30", command: "bench engine") }
        guard repeats >= 1 else { throw UsageError("\(Option.repeat) must be at least 1", command: "bench engine") }
        try Synth.validate(symbols: 1, bars: bars, timeframe: .minute1)
        Allocator.keepFreedMemory()
        let r = try EngineBenchmark.run(.maCross, bars: bars, repeats: repeats)
        let (none, synthetic, orders) = (r.none, r.synthetic, r.orders)
        if args.flag(.json) {
            let json: JSONValue = ["bars": .int(bars), "seconds": .number(none.seconds),
                                   "seconds_synthetic": .number(synthetic.seconds), "seconds_orders": .number(orders.seconds)]
            Output.line(json.serialized())
        } else {
            Output.line("ma-cross 10/30 on \(bars) bars, signals + portfolio, best of \(repeats):")
            Output.line("  depth none       \(ms(none.seconds)) ms  (\(none.fills) fills)")
            Output.line("  depth synthetic  \(ms(synthetic.seconds)) ms  (\(synthetic.fills) fills)")
            Output.line("  orders and exits \(ms(orders.seconds)) ms  (\(orders.fills) fills)")
        }
    }

    private static func ms(_ seconds: Double) -> String {
        String(format: "%8.2f", seconds * 1000)
    }
}
