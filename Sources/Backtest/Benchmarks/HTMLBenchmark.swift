import Backtest
import Foundation

/// `report.html` pages of synthetic runs, written and timed, for `bt bench html`.
package enum HTMLBenchmark {
    /// One page written.
    package struct Page: Sendable {
        package var bars: Int
        /// `run` or `chart`.
        package var name: String
        package var path: String
        package var bytes: Int
        /// Time to build the page's text, in milliseconds.
        package var milliseconds: Double
    }

    /// For each of `counts`: synthetic 1m bars (seed 1), `strategy` with synthetic depth, and its
    /// run page and chart page, each written to `out/NAME-BARS/report.html`; `written` sees each
    /// page as soon as it is on disk.
    package static func run(_ strategy: Strategy, bars counts: [Int], out: String, commandLine: [String],
                           written: (Page) -> Void) throws {
        for n in counts {
            let candles = Synth.series(symbol: "BENCH", bars: n, seed: 1, timeframe: .minute1)
            let parameters = try strategy.parameters([])
            let signals = try strategy.signals(candles, parameters)
            let result = try Engine.run(Engine.Request(candles, signals: signals, config: ExecutionConfig()))
            var report = Report(strategy: strategy.name, parameters: parameters.runParameters, execution: ExecutionConfig().parameters,
                                commandLine: commandLine, result: result, stats: Stats(result), costs: nil)
            report.indicators = strategy.indicators(parameters)
            let pages: [(String, () throws -> String)] = [
                ("run", { report.html() }),
                ("chart", { try ChartReport(candles: candles, specs: [], commandLine: commandLine).html() }),
            ]
            for (name, build) in pages {
                let start = DispatchTime.now().uptimeNanoseconds
                let html = try build()
                let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                let directory = (out as NSString).appendingPathComponent("\(name)-\(n)")
                try OutputDirectory.prepare(directory, force: true)
                let path = try OutputDirectory.write(html, to: "report.html", in: directory)
                written(Page(bars: n, name: name, path: path, bytes: html.utf8.count, milliseconds: ms))
            }
        }
    }
}
