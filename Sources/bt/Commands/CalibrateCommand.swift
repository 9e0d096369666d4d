import Foundation
import Backtest

extension Command {
    static let calibrate = Command(
        path: ["calibrate"],
        summary: "Fit a depth profile from a symbol's recorded L2 book, test it on held-out bars, store it",
        discussion: """
            Replays the stored book at millisecond precision and fits, on the first part of its
            time range: the tick (most common level gap near the mid), the spread (time-weighted
            median and p90), per side the power law Q(x) = A x^b of the depth within x bps of the
            mid (on the median book of one-second samples), the rank correlation of depth with
            bar volume, and the refill half-life in seconds after taker orders (from the stored
            trade prints of a 'trades' import; null without them). The last --holdout share of
            the range (default 0.5) tests the profile: at each held-out bar's open, the cost of
            market orders of --sizes against the true book, median and p90 absolute error in bps
            (buy and sell pooled).
            The profile is stored with the symbol; 'bt run ... --depth synthetic' then uses it.
            --json prints it as {"symbol", "tick", "spread_bps", "spread_p90_bps", "bid": {"a",
            "b"}, "ask": {"a", "b"}, "volume_rank_correlation", "refill_half_life_seconds",
            "holdout": {"sizes", "median_abs_error_bps", "p90_abs_error_bps"}}; --out FILE
            writes the same JSON to FILE (for --depth-profile FILE).
            """,
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
