import BacktestAnalysis
import BacktestCore
import BacktestData

/// The paper side of `bt live`: the session's bars and recorded book, and the fills the engine
/// makes of them, found the way `bt run --depth book --from START` finds them afterwards.
///
/// After each closed bar the strategy's signals and the engine run again over every bar held
/// (the stored history as the warm-up, the session's bars as the window) with the recorded
/// book as `--depth book`; what is new at the end of the fill list is the bar's news. The
/// engine decides at a bar's close with data up to it and fills at the next bar's open with the
/// book as of that millisecond (`BookReplay`), so running it again with more bars never changes
/// an earlier fill: the live fills are the replay's fills by construction, and the replay test
/// checks it from the outside.
///
/// A decision made at the close of the last bar fills at the open of the next one, which is
/// known before that bar closes: its first trade and the book at its opening millisecond. So
/// `step(opening:)` runs over the bars plus a provisional next bar, flat at its first price,
/// and keeps the fills on it; every such fill is at the open (a flat bar reaches no stop or
/// target that the open did not), and the next bar's own run finds it again unchanged. With
/// `--fill close` the provisional bar is used too: a fill at a bar's close is stamped at the
/// millisecond before the next bar opens (the engine's convention), and only the fills on the
/// closed bars are kept.
///
/// The signals are kept bar by bar (`SignalStream`) when the strategy has an incremental form
/// (the built-ins and every expression strategy do): each close computes the new bar's
/// decisions only, equal to the bit to the whole-series signals the replay computes. The runs
/// share `BookCheckpoints`: a fill an earlier close found is taken again without replaying the
/// book, and a new one replays only the events since the furthest state an earlier run reached.
/// The cost of a step is O(bars + fills + new book events): the engine's bar loop still runs over
/// every bar held (cheap next to the book: a few ns a bar), and so do the order price
/// expressions it evaluates.
package struct LivePaperTrader {
    /// Every bar held: the stored history, then the session's closed bars.
    package private(set) var series: CandleSeries
    /// The session's first traded bar, UTC seconds (the replay's `--from`).
    package let startTime: Int64
    /// The recorded book: every stored event of the symbol, then the session's.
    package private(set) var events: [BookEvent]
    /// The run's settings; a perpetual's funding rows grow as the session records them.
    package private(set) var config: ExecutionConfig
    /// The signals kept bar by bar over `series`, when the strategy has an incremental form.
    private var stream: SignalStream?
    /// Else the strategy over a whole series, at every close.
    private let batch: ((CandleSeries) throws -> Signals)?
    /// Every fill reported so far, in order (a resumed session's journal first).
    package private(set) var reported: [JournalFill]
    /// Runs whose fills did not begin with those reported before (a journal resumed over bars
    /// that changed since): their fills are reported from where they differ.
    package private(set) var divergences = 0
    /// The last run's result, nil before the first bar of the session.
    package private(set) var lastResult: BacktestResult?

    /// - Parameters:
    ///   - history: the stored bars of the symbol at the session's interval (may end after
    ///     `startTime`, on a resume).
    ///   - events: the stored book events of the symbol.
    ///   - config: the run's execution settings; its depth is replaced by the recorded book.
    ///   - signals: the strategy, over a whole series.
    ///   - journaled: the fills a resumed session reported before.
    package init(history: CandleSeries, startTime: Int64, events: [BookEvent], config: ExecutionConfig,
                journaled: [JournalFill] = [], signals: @escaping (CandleSeries) throws -> Signals) {
        self.init(history: history, startTime: startTime, events: events, config: config, journaled: journaled,
                  stream: nil, batch: signals)
    }

    /// The trader of `strategy` with `parameters`: its signals kept bar by bar when it has an
    /// incremental form, else recomputed over every bar at each close.
    /// - Throws: what `strategy.signals(history, parameters)` throws.
    package init(history: CandleSeries, startTime: Int64, events: [BookEvent], config: ExecutionConfig,
                journaled: [JournalFill] = [], strategy: Strategy, parameters: StrategyParameters) throws {
        let stream = try SignalStream(strategy, parameters, history: history)
        self.init(history: history, startTime: startTime, events: events, config: config, journaled: journaled,
                  stream: stream, batch: stream == nil ? { try strategy.signals($0, parameters) } : nil)
    }

    private init(history: CandleSeries, startTime: Int64, events: [BookEvent], config: ExecutionConfig,
                 journaled: [JournalFill], stream: SignalStream?, batch: ((CandleSeries) throws -> Signals)?) {
        reported = journaled
        series = history
        self.startTime = startTime
        self.events = events
        var c = config
        c.depth = .book([])
        c.bookCheckpoints = BookCheckpoints()
        self.config = c
        self.stream = stream
        self.batch = batch
    }

    /// Whether the signals are kept bar by bar (else recomputed over every bar at each close).
    package var isIncremental: Bool { stream != nil }

    /// The signals over `run`: `series`, then `provisional` when given (the stream takes the
    /// provisional bar on a copy; the batch reads `run` itself).
    private func signals(over run: CandleSeries, provisional: Candle?) throws -> Signals {
        guard let stream else { return try batch!(run) }
        return provisional.map { stream.signals(adding: $0) } ?? stream.signals
    }

    /// Gets the first close ready, before the session trades: runs the strategy and the engine
    /// once over the last warm-up bars (nothing is reported or kept; the code and data a run
    /// touches are then warm) and replays the recorded book so far into the checkpoints, so the
    /// first close pays only for what came after. Optional: the fills are the same without it.
    package func prepare() throws {
        let bars = series.lowerBound(of: startTime)
        if bars > 1 {
            var c = config
            c.depth = .book(events)
            c.bookCheckpoints = nil
            _ = try Engine.run(Engine.Request(CandleWindow(series, start: max(0, bars - 64)), signals: try signals(over: series, provisional: nil),
                                              config: c))
        }
        config.bookCheckpoints?.seed(events)
    }

    /// Appends a closed bar (later than the last one held).
    package mutating func append(_ bar: TradeBar) {
        let candle = Candle(time: bar.time, open: bar.open, high: bar.high, low: bar.low, close: bar.close, volume: bar.volume)
        series.append(candle)
        stream?.append(candle)
    }

    /// Appends a perpetual's funding row recorded from the stream (later than every row held):
    /// the engine settles it as it settles a stored row, at the bar whose span holds its time.
    package mutating func append(funding row: FundingRate) {
        precondition(config.funding.last.map { row.timeMs > $0.timeMs } ?? true, "funding rows come in time order")
        config.funding.append(row)
    }

    /// Appends recorded book events (none earlier than the last one held).
    package mutating func append(_ recorded: [BookEvent]) {
        events.append(contentsOf: recorded)
    }

    /// Runs the strategy and the engine over the bars held and, with a next-open fill, a
    /// provisional bar opening at `opening` (its open time in UTC seconds and its first price);
    /// returns the fills not reported before. Book events up to the provisional bar's opening
    /// millisecond must have been appended.
    /// - Throws: what the strategy or the engine throws (an expression error, a bad setting).
    package mutating func step(opening: (time: Int64, price: Double)?) throws -> [Fill] {
        // The window starts where `bt run --from START` starts it (`CandleStore.loadWindow`).
        let start = series.lowerBound(of: startTime)
        guard start < series.count else { return [] }
        var run = series
        let provisional = opening.map { Candle(time: $0.time, open: $0.price, high: $0.price, low: $0.price, close: $0.price, volume: 0) }
        if let provisional {
            precondition(series.time.last.map { provisional.time > $0 } ?? true, "the next bar must open after the last one")
            run.append(provisional)
        }
        let decided = try signals(over: run, provisional: provisional)
        var c = config
        c.depth = .book(events)
        let result = try Engine.run(Engine.Request(CandleWindow(run, start: start), signals: decided, config: c))
        lastResult = result
        // At the close the provisional bar's own fills are not known yet (its close is not).
        let closedBars = series.count - start
        let fills = opening != nil && config.fill == .close ? result.fills.filter { $0.index < closedBars } : result.fills
        let found = fills.map(JournalFill.init)
        var same = 0
        while same < min(found.count, reported.count), found[same] == reported[same] { same += 1 }
        if same < reported.count { divergences += 1 }
        reported = found
        return Array(fills[same...])
    }
}
