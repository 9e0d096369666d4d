import Backtest
import BacktestBenchmarks
import Foundation
import Strategies

extension Command {
    static let benchSweep = Command(
        path: ["bench", "sweep"],
        help: EmbeddedAssets.benchSweepTXT,
        options: [
            .bars.withHelp("Number of bars (default 10000)"),
            .repeat,
            .json,
        ]
    ) { args in
        let bars = try args.count(.bars, default: 10_000, in: 201...Int.max)  // windows up to 200
        let repeats = try args.count(.repeat, default: 3, in: 1...Int.max)
        try Synth.validate(symbols: 1, bars: bars, timeframe: .day1)
        let r = try SweepBenchmark.run(.maCross, bars: bars, repeats: repeats)
        let random = try SearchBenchmark.random(.maCross, bars: bars, repeats: repeats)
        let bayes = try SearchBenchmark.bayes(.maCross, bars: bars, repeats: repeats)
        Output.write(args.flag(.json) ? r.json(bars: bars, searches: [("random", random), ("bayes", bayes)]).serialized() + "\n"
                     : r.text(bars: bars, repeats: repeats) + random.text("random") + bayes.text("bayes"))
    }
}
