import Backtest

extension Command {
    static let replay = Command(
        path: ["replay"],
        help: EmbeddedAssets.replayTXT,
        positionals: [PositionalSpec(name: "SYMBOL", help: "Symbol with a stored book (case-insensitive)")],
        options: [
            .from.withHelp("First event time, inclusive (YYYY-MM-DD or ISO-8601)"), .to.withHelp("Last event time, inclusive"),
            .every, .quoteBid, .quoteAsk, .quoteSize, .maxPosition, .latency, .latencyFile, .queue, .fills, .replayMakerBps, .replayLot,
            .out.withHelp("Write fills.csv, stats.json, report.md and report.html to DIR"), .force.withHelp("Let --out replace a directory of bt output"), .json,
        ]
    ) { args in
        var job = ReplayJob(symbol: try args.symbol(at: 0))
        let range = try args.dateRange
        (job.fromMs, job.toMs) = (range.from.map { $0 * 1000 }, range.to.map { $0 * 1000 + 999 })
        (job.every, job.latency, job.queue, job.fills) = (args.value(.every), args.value(.latency), args.value(.queue), args.value(.fills))
        (job.quoteBid, job.quoteAsk, job.latencyFile) = (args.value(.quoteBid), args.value(.quoteAsk), args.value(.latencyFile))
        (job.quoteSize, job.maxPosition) = (try args.double(.quoteSize), try args.double(.maxPosition))
        (job.makerBps, job.lot) = (try args.double(.replayMakerBps), try args.double(.replayLot))
        let out = args.value(.out)
        if let out { try OutputDirectory.check(out, force: args.flag(.force)) }
        let (result, settings) = try job.run(store: try args.openStore(), trace: out != nil)
        if let out { try job.write(result, settings: settings, to: out, force: args.flag(.force)) }
        let json = ReplayReport.json(result, symbol: job.symbol, settings: settings)
        args.flag(.json) ? Output.line(json.serialized()) : Output.write(ReplayReport.text(json))
    }
}
