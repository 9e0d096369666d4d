import BacktestCore
import BacktestData
import BacktestPresentation

/// `bt replay` as a job: the settings as given (text and numbers), checked and turned into an
/// event-level replay of the store's events, and its output folder. The command line only reads
/// its options into one.
package struct ReplayJob {
    package var symbol: String
    /// The range, UTC milliseconds (nil: open on that side).
    package var fromMs: Int64?
    package var toMs: Int64?
    /// Durations and models as typed (`100ms`, `5ms,5ms`, `riskaverse`, `whole`); nil: defaults.
    package var every: String?
    /// `ENTRY[,RESPONSE]`, or `feed:M,C` (`FeedLatency`, made from the replayed events).
    package var latency: String?
    /// A CSV of recorded request, exchange and response times (`LatencyFile`), instead of
    /// `latency`.
    package var latencyFile: String?
    package var queue: String?
    package var fills: String?
    package var quoteBid: String?
    package var quoteAsk: String?
    package var quoteSize: Double?
    package var maxPosition: Double?
    package var makerBps: Double?
    /// Nil: inferred from the stored quantities of the range (a first pass over its events).
    package var lot: Double?

    package init(symbol: String) { self.symbol = symbol }

    /// Checks the settings, reads the events from `store` and replays them.
    /// - Parameter trace: keep the state at every step for report.html's chart
    ///   (`ReplayResult.trace`, bounded memory); `write` needs it for the page.
    /// - Throws: `InputError` naming the setting for bad input (a missing quote, size or
    ///   maximum position; `--every 0`; a negative latency; a bad latency file, or one given with
    ///   a latency; `feed:M,C` malformed or on events without receive times; an unknown model; a
    ///   quote size below the lot; no depth in the range);
    ///   `StoreError` while reading.
    package func run(store: CandleStore, trace: Bool = false) throws -> (result: ReplayResult, settings: ReplaySettings) {
        let every = try ReplayDuration.nanoseconds(parsing: self.every ?? "100ms", setting: .every)
        let given = try replayLatency()
        let feed = try given == nil ? latency.map(FeedLatency.init(parsing:)) : nil
        var latency = try given ?? ReplayLatency(entryNs: 0, responseNs: 0)
        let queue = try QueueModel(parsing: self.queue ?? "riskaverse")
        let fills = try FillModel(parsing: self.fills ?? "whole")
        let bid = try quoteBid.map { try QuoteExpression($0, setting: .quoteBid) }
        let ask = try quoteAsk.map { try QuoteExpression($0, setting: .quoteAsk) }
        guard bid != nil || ask != nil else { throw InputError(.needsSetting, "a replay needs a quote", setting: .quoteBid) }
        guard let quoteSize else { throw InputError(.needsSetting, "quotes need a size", setting: .quoteSize) }
        guard let maxPosition else { throw InputError(.needsSetting, "quotes need a maximum position", setting: .maxPosition) }
        var source = try store.replayEvents(symbol: symbol, fromMs: fromMs, toMs: toMs)
        let lot = try self.lot ?? LotInference.lot(of: &source)
        if let feed {
            source = try store.replayEvents(symbol: symbol, fromMs: fromMs, toMs: toMs)
            latency = ReplayLatency(feed: feed, table: try feed.table(of: &source))
        }
        let settings = try ReplaySettings(everyNs: every, quoteSize: quoteSize, maxPosition: maxPosition, latency: latency,
                                          queue: queue, fills: fills, makerBps: makerBps ?? 0, lot: lot, startMs: fromMs)
        source = try store.replayEvents(symbol: symbol, fromMs: fromMs, toMs: toMs)
        var replay = EventReplay(settings: settings, bidQuote: bid, askQuote: ask)
        replay.tracesSteps = trace
        return (try replay.run(&source), settings)
    }

    /// The latency `latency` or `latencyFile` gives (at most one), else none; nil for
    /// `feed:M,C`, which is made from the events.
    private func replayLatency() throws -> ReplayLatency? {
        if let latencyFile {
            guard latency == nil else {
                throw InputError("give a latency or a latency file, not both", setting: .latencyFile, value: latencyFile)
            }
            return ReplayLatency(table: try LatencyFile.read(path: latencyFile))
        }
        if let latency, FeedLatency.isFeed(latency) { return nil }
        return try latency.map(ReplayLatency.init(parsing:)) ?? ReplayLatency(entryNs: 0, responseNs: 0)
    }

    /// Writes `fills.csv`, `stats.json`, `report.md` and, when the replay traced its steps,
    /// `report.html` to the folder `path`, whole or not at all.
    /// - Throws: `InputError` when `path` may not be replaced (`OutputDirectory.check`).
    package func write(_ result: ReplayResult, settings: ReplaySettings, to path: String, force: Bool) throws {
        let staged = try OutputDirectory.stage(path, force: force)
        try staged.write(ReplayReport.fillsCSV(result), to: "fills.csv")
        try staged.write(ReplayReport.json(result, symbol: symbol, settings: settings).serialized() + "\n", to: "stats.json")
        let setup = ReplayReport.Setup(symbol: symbol, quoteBid: quoteBid, quoteAsk: quoteAsk, latencyFile: latencyFile)
        try staged.write(ReplayReport.markdown(result, setup: setup, settings: settings), to: "report.md")
        if let html = ReplayReport.html(result, setup: setup, settings: settings) { try staged.write(html, to: "report.html") }
        try staged.commit()
    }
}
