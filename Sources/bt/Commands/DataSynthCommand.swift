import Backtest

extension Command {
    static let dataSynth = Command(
        path: ["data", "synth"],
        help: EmbeddedAssets.dataSynthTXT,
        options: [
            .symbolCount.withHelp("Number of symbols (default 10)"),
            .bars.withHelp("Bars per symbol (default 2520)"),
            .seed,
            .timeframe.withHelp("Bar spacing (default 1d)"),
            .book,
        ]
    ) { args in
        let symbols = try args.int(.symbolCount) ?? 10
        let bars = try args.int(.bars) ?? 2520
        guard symbols >= 1 else { throw UsageError("\(Option.symbolCount) must be at least 1", command: "data synth") }
        guard bars >= 2 else { throw UsageError("\(Option.bars) must be at least 2", command: "data synth") }
        let seed = try Seed.parse(args.value(.seed))
        let timeframe = try args.timeframe ?? .day1
        try Synth.validate(symbols: symbols, bars: bars, timeframe: timeframe)
        let files = ImportedFile.synthetic(symbols: symbols, bars: bars, seed: seed, timeframe: timeframe, books: args.flag(.book))
        for r in try args.updatingStore({ try $0.write(files) }) {
            let unit = r.timeframe == "book" ? "events" : "bars"
            Output.line("\(r.symbol) \(r.timeframe): \(r.added) \(unit) added, \(r.updated) updated, \(r.unchanged) unchanged")
        }
    }
}
