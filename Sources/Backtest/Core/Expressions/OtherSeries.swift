import Foundation

/// What `@` names after an expression: another symbol, a timeframe, or both (`@SPY`, `@1d`,
/// `@SPY@1d`); nil parts are the run's own.
public struct OtherSeriesReference: Hashable, Sendable, CustomStringConvertible {
    /// Upper-cased as the store keeps symbols.
    public var symbol: String?
    public var timeframe: Timeframe?

    public init(symbol: String?, timeframe: Timeframe?) {
        self.symbol = symbol
        self.timeframe = timeframe
    }

    /// `SPY`, `1d` or `SPY@1d`, as written after the first `@`.
    public var description: String {
        [symbol, timeframe?.rawValue].compactMap { $0 }.joined(separator: "@")
    }
}

/// Where the series that rules read with `@` come from (the store, for the command line).
/// `OtherSeriesReader` calls it under its lock, one call at a time.
public protocol OtherSeriesSource: Sendable {
    /// The candles of `symbol` at `timeframe`: the series stored at it, else the symbol's finest
    /// stored series resampled to it with its session (what `--timeframe` does); nil when the
    /// symbol is not stored.
    /// - Throws: `InputError` when the symbol is stored but cannot be had at `timeframe`.
    func candles(symbol: String, timeframe: Timeframe) throws -> CandleSeries?
    /// The stored series as `SYMBOL@TF` keys, for suggestions.
    func keys() throws -> [String]
    /// The trading session `symbol`'s candles follow, if any: its bars close at the session's
    /// close (`TradingSession.barEnd`), not at the end of their nominal length.
    func session(symbol: String) throws -> TradingSession?
}

extension OtherSeriesSource {
    public func session(symbol: String) throws -> TradingSession? { nil }
}

/// The other series one strategy's rules read, each loaded once and shared by every bar, every
/// parameter combination of a sweep and every rule that names it (with its indicator cache).
public final class OtherSeriesReader: @unchecked Sendable {
    /// Read under `lock`.
    let source: any OtherSeriesSource
    /// How long another symbol's value may be carried past its bar's close, beyond its own
    /// bar length (`--max-stale`); nil: its bar length only.
    public let maxStale: Int64?
    /// Held around every call of `source` and every use of `loaded`.
    let lock = NSLock()
    private var loaded: [Key: OtherSeries] = [:]
    private let sessions: Sessions
    /// Whether the run goes on growing after the bars it is bound to (a live session): another
    /// symbol is read only from its stream (`feeds`), and a symbol with no bars yet is read as
    /// empty (a run bound with no bars checks what it reads, not its data).
    public let followsStream: Bool
    /// The other symbols a live session follows, by symbol: their bars grow with the session.
    let feeds: [String: OtherBarFeed]

    private struct Key: Hashable {
        var symbol: String
        var timeframe: Timeframe
    }

    /// Why `@` cannot be read (the binder puts it at the key).
    struct Refusal: Error {
        var reason: String
    }

    /// Every series read so far, by name (`SPY@1d`): what a run's manifest lists.
    public var read: [(name: String, candles: CandleSeries)] {
        lock.lock(); defer { lock.unlock() }
        return loaded.values.map { ($0.name, $0.candles) }.sorted { $0.name < $1.name }
    }

    public init(_ source: any OtherSeriesSource, maxStale: Int64? = nil, followsStream: Bool = false) {
        self.source = source
        self.maxStale = maxStale
        self.followsStream = followsStream
        feeds = [:]
        sessions = Sessions(source)
    }

    /// The reader of a live session: `source` holds the bars each symbol had when it started,
    /// `feeds` the other symbols' bars as they grow (another symbol without one is refused).
    package init(_ source: any OtherSeriesSource, maxStale: Int64?, following feeds: [String: OtherBarFeed]) {
        self.source = source
        self.maxStale = maxStale
        followsStream = true
        self.feeds = feeds
        sessions = Sessions(source)
    }

    /// - Parameter text: `--max-stale` as given, a whole number and a unit (`90m`, `36h`,
    ///   `3d`, `1w`); nil for none.
    /// - Throws: `InputError` (setting `.maxStale`) for any other text.
    public convenience init(_ source: any OtherSeriesSource, maxStale text: String?) throws {
        self.init(source, maxStale: try Self.seconds(maxStale: text))
    }

    /// `--max-stale` in seconds: `text` a whole number and a unit (`90m`, `36h`, `3d`, `1w`);
    /// nil for nil.
    /// - Throws: `InputError` (setting `.maxStale`) for any other text.
    package static func seconds(maxStale text: String?) throws -> Int64? {
        guard let text else { return nil }
        let units: [Character: Int64] = ["m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let unit = text.last.flatMap({ units[$0] }), let n = Int64(text.dropLast()), n >= 0, n <= 1_000_000 else {
            throw InputError("a duration is a whole number and a unit m, h, d or w (90m, 36h, 3d)", setting: .maxStale, value: text)
        }
        return n * unit
    }

    /// The series `reference` names for rules run on `run`.
    /// - Throws: `Refusal` for an unknown symbol (with a suggestion from the stored keys) or
    ///   timeframe, a timeframe below the run's, or a run whose timeframe is unknown.
    func series(_ reference: OtherSeriesReference, for run: CandleSeries) throws -> OtherSeries {
        guard let runTimeframe = run.timeframe ?? Timeframe.infer(from: run.time) else {
            throw Refusal(reason: "'@\(reference)' needs the run's timeframe, and the run's bars match none")
        }
        let symbol = reference.symbol ?? run.symbol
        let timeframe = reference.timeframe ?? runTimeframe
        if followsStream, symbol != run.symbol, feeds[symbol] == nil {
            throw Refusal(reason: "'@\(reference)' reads \(symbol), whose stream the live session of \(run.symbol) does not follow")
        }
        if timeframe < runTimeframe {
            throw Refusal(reason: "'@\(reference)' is a lower timeframe than the run's (\(runTimeframe.rawValue)): "
                          + "a rule reads its own timeframe or a higher one")
        }
        let key = Key(symbol: symbol, timeframe: timeframe)
        lock.lock(); defer { lock.unlock() }
        if let series = loaded[key] { return series }
        let candles: CandleSeries?
        do {
            candles = try source.candles(symbol: symbol, timeframe: timeframe)
        } catch let e as InputError {
            throw Refusal(reason: "'@\(reference)': \(e.reason)")
        }
        guard let candles, !candles.isEmpty || followsStream else {
            throw unknown(symbol, read: "\(symbol)@\(timeframe.rawValue)", keys: (try? source.keys()) ?? [])
        }
        // Shared by the runs of every symbol (a screen, a portfolio): how stale it may go is the run's (`maxAge(for:)`).
        let series = OtherSeries(name: "\(symbol)@\(timeframe.rawValue)", symbol: symbol, candles: candles, timeframe: timeframe,
                                 staleAfter: max(timeframe.seconds, maxStale ?? 0), sessions: sessions, followsStream: followsStream,
                                 feed: symbol == run.symbol ? nil : feeds[symbol])
        loaded[key] = series
        return series
    }
}

/// Each symbol's session (`OtherSeriesSource.session`), asked once, and bar close times by it.
final class Sessions: @unchecked Sendable {
    private let source: any OtherSeriesSource
    private let lock = NSLock()
    private var known: [String: TradingSession?] = [:]

    init(_ source: any OtherSeriesSource) {
        self.source = source
    }

    /// The trading session `symbol`'s bars follow, if any.
    func session(of symbol: String) -> TradingSession? {
        lock.lock(); defer { lock.unlock() }
        if let s = known[symbol] { return s }
        let session = (try? source.session(symbol: symbol)) ?? nil
        known[symbol] = session
        return session
    }

    /// When each bar of `series` closes: at its session's close when it has one.
    func closes(of series: CandleSeries, timeframe: Timeframe) -> [Int64] {
        guard let session = session(of: series.symbol) else { return series.time.map(timeframe.barEnd) }
        return series.time.map { session.barEnd($0, timeframe: timeframe) }
    }
}

/// One series rules read with `@`, and how its bars line up with a run's: at a run bar that
/// closes at T, the value of its last bar that closed at or before T (an as-of join on close
/// times), so no bar is seen before it has closed. Bars close at their session's close when
/// their symbol has one (`Sessions`), else at the end of their length.
public final class OtherSeries: Hashable, @unchecked Sendable {
    /// `SPY@1d`.
    public let name: String
    let candles: CandleSeries
    let timeframe: Timeframe
    /// When each bar closes (`Sessions.closes`), ascending.
    let closes: [Int64]
    private let sessions: Sessions
    let symbol: String
    /// Longest time a value is shown to another symbol's run after its bar closed: its bar
    /// length, or `--max-stale` when longer (`maxAge(for:)`).
    let staleAfter: Int64
    /// The indicators of `candles`, shared by every evaluation.
    let cache = IndicatorCache()
    /// Whether `candles` are what a live session holds before it streams (`OtherSeriesReader`).
    private let followsStream: Bool
    /// Another symbol's bars as a live session follows them (its stored bars, then its
    /// stream's); nil for the run's own symbol and for a batch run.
    let feed: OtherBarFeed?

    init(name: String, symbol: String, candles: CandleSeries, timeframe: Timeframe, staleAfter: Int64, sessions: Sessions,
         followsStream: Bool = false, feed: OtherBarFeed? = nil) {
        self.name = name
        self.symbol = symbol
        self.candles = candles
        self.timeframe = timeframe
        self.closes = sessions.closes(of: candles, timeframe: timeframe)
        self.staleAfter = staleAfter
        self.sessions = sessions
        self.followsStream = followsStream
        self.feed = feed
    }

    /// Whether its bars follow a trading session (`Sessions`).
    var followsSession: Bool { sessions.session(of: candles.symbol) != nil }

    /// `2004-08-19 to 2013-03-01`: its first and last bars' days.
    var span: String {
        "\(UTCTime.isoDate(candles.time[0])) to \(UTCTime.isoDate(candles.time[candles.count - 1]))"
    }

    public static func == (a: OtherSeries, b: OtherSeries) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Longest time a value is shown to `run` after its bar closed: nil (always, through
    /// weekends and session gaps) for a run of the series' own symbol, else `staleAfter`.
    func maxAge(for run: CandleSeries) -> Int64? {
        run.symbol == symbol ? nil : staleAfter
    }

    /// The last run `alignment(to:)` was asked for and its answer: binding, evaluation and the
    /// warnings' count ask for the same run's, and a sweep's combinations all do.
    private var lastAlignment: (symbol: String, timeframe: Timeframe?, time: [Int64], alignment: OtherSeriesAlignment)?
    private let alignmentLock = NSLock()

    /// Which of this series' bars each bar of `run` sees: its last bar closed at or before the
    /// run bar's close, none where none has closed or the last is older than `maxAge(for: run)`.
    /// - Precondition: both series' times ascend.
    /// - Complexity: O(1) again for the same run's times (the same array storage), O(run bars)
    ///   for equal times in another array; else `OtherSeriesAlignment.init`'s.
    func alignment(to run: CandleSeries) -> OtherSeriesAlignment {
        alignmentLock.lock()
        if let last = lastAlignment, last.symbol == run.symbol, last.timeframe == run.timeframe, last.time == run.time {
            alignmentLock.unlock()
            return last.alignment
        }
        alignmentLock.unlock()
        let runTimeframe = run.timeframe ?? Timeframe.infer(from: run.time) ?? timeframe
        let alignment: OtherSeriesAlignment
        if sessions.session(of: run.symbol) != nil {
            let runCloses = sessions.closes(of: run, timeframe: runTimeframe)
            alignment = OtherSeriesAlignment(closes: closes, maxAge: maxAge(for: run), count: run.count) { runCloses[$0] }
        } else {
            let time = run.time
            alignment = OtherSeriesAlignment(closes: closes, maxAge: maxAge(for: run), count: run.count) { runTimeframe.barEnd(time[$0]) }
        }
        alignmentLock.lock()
        lastAlignment = (run.symbol, run.timeframe, run.time, alignment)
        alignmentLock.unlock()
        return alignment
    }

    /// `node`'s values on this series, aligned to `run`'s bars (NaN where `alignment` has none).
    /// - Throws: `InputError` from an indicator (a period longer than the series), naming this
    ///   series (and, before a live session, the warm-up that should hold more of it).
    func values(of node: ExpressionNode, alignedTo run: CandleSeries) throws -> [Double] {
        let own: [Double]
        do {
            own = try ExpressionPlan([node]).evaluate(on: candles, cache: cache, workspace: ExpressionWorkspace()) { Array($0[0]) }
        } catch var e as InputError {
            e.reason = "\(name): \(e.reason)"
                + (followsStream ? "; a live session's warm-up (\(Setting.warmupBars.mention)) must hold enough of its bars" : "")
            throw e
        }
        return alignment(to: run).values(own)
    }
}

extension UnalignedBars {
    /// The bars of `run` without a closed bar of each series `nodes` read with `@`, for the
    /// series that have such bars, each once.
    package static func of(_ nodes: [ExpressionNode], on run: CandleSeries) -> [UnalignedBars] {
        series(readBy: nodes).compactMap { series in
            UnalignedBars(series, bars: series.alignment(to: run).unseen, canBeStale: series.maxAge(for: run) != nil)
        }
    }

    /// The series `nodes` read with `@`, each once, in the order warnings list them.
    static func series(readBy nodes: [ExpressionNode]) -> [OtherSeries] {
        var seen: [OtherSeries] = []
        var pending = nodes
        while let node = pending.popLast() {
            if case .other(let series, _) = node, !seen.contains(series) { seen.append(series) }
            pending += node.children
        }
        return seen
    }

    /// `bars` of a run without a closed bar of `series`; nil when there are none.
    /// - Parameter canBeStale: whether the run is another symbol's, for which the series' values go stale.
    init?(_ series: OtherSeries, bars: [Int], canBeStale: Bool) {
        guard !bars.isEmpty else { return nil }
        self.init(series: series.name, canBeStale: canBeStale, bars: bars)
    }
}
