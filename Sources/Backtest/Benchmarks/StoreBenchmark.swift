import Backtest
import Foundation

/// The store's hot paths timed on synthetic data: whole-series load and CSV parsing.
package enum StoreBenchmark {
    package struct Result: Sendable {
        package var bars: Int
        /// Best of the runs: loading the whole series from the store, in milliseconds.
        package var loadMilliseconds: Double
        /// Best of the runs: parsing and validating the same bars from CSV text in memory.
        package var csvParseMilliseconds: Double
        package var csvBytes: Int
    }

    /// Writes `bars` synthetic 1m candles to a fresh store in `directory`, then times `runs`
    /// loads and `runs` CSV parses of the same data and keeps the best of each.
    package static func run(bars: Int, runs: Int = 5, directory: String) throws -> Result {
        precondition(bars > 1 && runs > 0, "bars > 1 and runs > 0")
        let series = Synth.series(symbol: "BENCH", bars: bars, seed: 1, timeframe: .minute1)
        let path = (directory as NSString).appendingPathComponent("bench-\(getpid()).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try CandleStore(path: path)
        try store.write([.generated(series, source: "bench")])
        try store.checkpoint()
        var load = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let loaded = try store.load(symbol: "BENCH")
            load = min(load, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            guard loaded.count == bars else { throw InternalError("bench: loaded \(loaded.count) of \(bars) bars") }
        }
        let csv = Array(series.csvText().utf8)
        var parse = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let file = try Importer.read(bytes: csv, name: "bench.csv")
            parse = min(parse, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            guard case .candles(let parsed) = file.content, parsed.close == series.close else {
                throw InternalError("bench: CSV did not read back the written bars")
            }
        }
        return Result(bars: bars, loadMilliseconds: load, csvParseMilliseconds: parse, csvBytes: csv.count)
    }
}
