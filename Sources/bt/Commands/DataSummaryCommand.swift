import Backtest

extension Command {
    static let dataSummary = Command(
        path: ["data", "summary"],
        help: EmbeddedAssets.dataSummaryTXT,
        positionals: [PositionalSpec(name: "SYMBOL", help: "Stored symbols or SYMBOL@TF series (default: all)", optional: true,
                                     variadic: true)],
        options: CommonOptions.range + [.json]
    ) { args in
        let store = try args.openStore()
        let timeframe = try args.timeframe
        let named = try args.positionals.map(SeriesName.normalized)
        let range = try args.dateRange
        let (summaries, skipped) = try store.summaries(of: named, timeframe: timeframe, from: range.from, to: range.to)
        guard !summaries.isEmpty || !skipped.isEmpty else {
            throw InputError("the store holds no candles; import data with 'bt data import'", at: store.path)
        }
        // A series that cannot be shown at --timeframe (a daily series asked for hours) is
        // reported and the others summarised; only when none can be is it an error.
        let reasons = skipped.map { "\($0.series): \(ErrorMessage.text($0.error))" }
        if summaries.isEmpty {
            throw InputError("no stored series can be shown at \(timeframe!.rawValue):\n  " + reasons.joined(separator: "\n  "))
        }
        for s in reasons { Diagnostics.line("warning: skipped \(s)") }
        Output.write(args.flag(.json) ? StoreListingText.json(summaries).serialized() + "\n" : StoreListingText.table(summaries))
    }
}
