import Foundation
import Backtest

extension Command {
    static let calibrate = Command(
        path: ["calibrate"],
        help: EmbeddedAssets.calibrateTXT,
        positionals: [PositionalSpec(name: "SYMBOL", help: "Symbol with a stored book (case-insensitive)")],
        options: CommonOptions.range + [
            .holdout, .sizes,
            .out.withHelp("Also write the profile JSON to FILE", valueName: "FILE"),
            .force.withHelp("Let --out overwrite an existing file"),
            .json,
        ]
    ) { args in
        let symbol = try args.symbol(at: 0)
        let store = try args.openStoreForWriting()
        let events = try store.bookEvents(symbol: symbol)
        let range = try args.dateRange
        let holdout = try args.value(.holdout).map(DepthCalibration.holdout(parsing:)) ?? 0.5
        let sizes = try args.value(.sizes).map(DepthCalibration.sizes(parsing:))
        let out = args.value(.out)
        if let out, FileManager.default.fileExists(atPath: out), !args.flag(.force) {
            throw InputError(.outputExists, "the profile file exists", file: out)
        }
        let candles = try store.list().contains { $0.symbol == symbol } ? try args.loadCandles(symbol: symbol, store: store) : nil
        let trades = try store.trades(symbol: symbol)
        let result = try DepthCalibration.calibrate(
            symbol: symbol, events: events, candles: candles, trades: trades,
            fromMs: range.from.map { $0 * 1000 }, toMs: range.to.map { $0 * 1000 + 999 }, holdout: holdout, sizes: sizes)
        try store.saveDepthProfile(result.profile, at: Int64(Date().timeIntervalSince1970))
        let json = result.profile.json()
        if let out {
            do {
                try OutputDirectory.write(json + "\n", toFile: out)
            } catch {
                throw InputError("cannot write the profile: \(error)", at: out)
            }
        }
        if args.flag(.json) {
            Output.line(json)
        } else {
            Output.write(CalibrationText.render(result, events: events.count, candles: candles, trades: trades.count))
        }
        Diagnostics.line("profile stored for \(symbol); 'bt run STRATEGY \(symbol) --depth synthetic' uses it"
            + (out.map { "; written to \($0)" } ?? ""))
    }
}
