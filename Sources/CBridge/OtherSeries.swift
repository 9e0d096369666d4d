import Backtest
import CBTABI
import Foundation

/// The other series rules read with `@` (`bt_other`): bars a caller gave under `SYMBOL` or
/// `SYMBOL@TF` keys, a store, and `--max-stale`. Each evaluation reads them through its own
/// `OtherSeriesReader` over `CallerSeries`, which also holds that run's own bars (so
/// `close@1d` resamples them when nothing else holds the symbol at 1d). Adding takes the lock;
/// once the caller stops adding, threads may share the handle.
final class OtherHandle: @unchecked Sendable {
    let store: StoreOnce?
    let maxStale: Int64?
    private let lock = NSLock()
    private var given: [String: [Timeframe: CandleSeries]] = [:]

    /// - Throws: `InputError` for a `maxStale` that is no duration, or a `db` that is no store.
    init(db: String?, maxStale: String?) throws {
        store = db.map { StoreOnce(StoredOtherSeries(path: $0)) }
        self.maxStale = try OtherSeriesReader(CallerSeries(given: [:], store: nil, run: CandleSeries(symbol: "")),
                                              maxStale: maxStale).maxStale  // parsed as --max-stale
        _ = try store?.keys()  // a path that holds no store fails here, not at the first evaluation
    }

    /// Adds `candles` as the series `key` names: `SPY` (at the candles' timeframe) or `SPY@1d`.
    /// - Throws: for a key that is no symbol, a timeframe neither the key nor the candles give,
    ///   one that differs between them, or a series given twice.
    func add(key: String, _ candles: CandleSeries) throws {
        let name = try SeriesName.normalized(key)
        let (symbol, named) = SeriesName.split(name).map { ($0.0, Optional($0.1)) } ?? (name, nil)
        // The bars' own timeframe: as they say, else as their times show.
        let own = candles.timeframe ?? Timeframe.infer(from: candles.time)
        guard let timeframe = named ?? own else {
            throw BridgeError.input("key '\(key)': the bars' timeframe is unknown: name it in the key (\(symbol)@1h) "
                                    + "or in bars.timeframe")
        }
        if let own, own != timeframe {
            throw BridgeError.input("key '\(key)': the key says \(timeframe.rawValue), the bars are \(own.rawValue) "
                                    + "(\(candles.timeframe == nil ? "as their times show" : "bars.timeframe"))")
        }
        var series = candles
        series.symbol = symbol
        series.timeframe = timeframe
        lock.lock(); defer { lock.unlock() }
        if given[symbol]?[timeframe] != nil {
            throw BridgeError.input("key '\(key)': \(symbol)@\(timeframe.rawValue) was given already")
        }
        given[symbol, default: [:]][timeframe] = series
    }

    /// A reader for rules run on `run`, from `other` (nil: the run's own bars alone): each
    /// evaluation gets its own, since `run` is part of its source.
    static func reader(_ other: OtherHandle?, for run: CandleSeries) -> OtherSeriesReader {
        guard let other else { return OtherSeriesReader(CallerSeries(given: [:], store: nil, run: run)) }
        other.lock.lock(); defer { other.lock.unlock() }
        return OtherSeriesReader(CallerSeries(given: other.given, store: other.store, run: run), maxStale: other.maxStale)
    }
}

/// Where one evaluation's `@` series come from, in this order: the series the caller gave for
/// the symbol (held at their timeframes, resampled from the finest as the store resamples), the
/// store, then the run's own bars for the run's own symbol (resampled to the higher timeframe).
struct CallerSeries: OtherSeriesSource {
    var given: [String: [Timeframe: CandleSeries]]
    var store: StoreOnce?
    var run: CandleSeries

    func candles(symbol: String, timeframe: Timeframe) throws -> CandleSeries? {
        if let held = given[symbol] {
            return try CandleSeries.held(symbol, at: timeframe, held: held.keys.sorted().map(\.rawValue), heldAs: "given",
                                         load: { held[Timeframe(rawValue: $0)!]! }, session: { _ in nil })
        }
        if let store, let stored = try store.candles(symbol: symbol, timeframe: timeframe) { return stored }
        if symbol == run.symbol, let own = run.timeframe ?? Timeframe.infer(from: run.time) {
            return try CandleSeries.held(symbol, at: timeframe, held: [own.rawValue], heldAs: "own",
                                         load: { _ in run }, session: { _ in nil })
        }
        return nil
    }

    func session(symbol: String) throws -> TradingSession? {
        if given[symbol] != nil { return nil }
        return try store?.session(symbol: symbol)
    }

    func keys() throws -> [String] {
        let ownKey = run.symbol.isEmpty ? [] : [run.symbol + "@" + (run.timeframe?.rawValue ?? "?")]
        return given.flatMap { symbol, series in series.keys.map { "\(symbol)@\($0.rawValue)" } } + (try store?.keys() ?? []) + ownKey
    }
}

@_cdecl("bt_other_new")
public func bt_other_new(_ db: UnsafePointer<CChar>?, _ maxStale: UnsafePointer<CChar>?,
                         _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        guard let out else { throw BridgeError.argument("out is NULL") }
        out.pointee = nil
        let handle = try OtherHandle(db: try optionalString(db, "db"), maxStale: try optionalString(maxStale, "max_stale"))
        out.pointee = Handles.shared.add(handle)
    }
}

@_cdecl("bt_other_add")
public func bt_other_add(_ handle: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ bars: UnsafePointer<bt_bars>?) -> Int32 {
    guarded {
        let other = try Handles.shared.get(handle, as: OtherHandle.self, "other")
        let name = try requiredString(key, "key")
        guard let bars else { throw BridgeError.argument("bars is NULL") }
        guard bars.pointee.time != nil else { throw BridgeError.argument("bars.time is NULL (@ aligns a series by its times)") }
        if bars.pointee.n == 0 { throw BridgeError.input("key '\(name)': no bars") }
        // Bars a store could hold, as the store's own series are: a NaN row (a frame
        // reindexed to another calendar) would read as a bar with no value, where the store's
        // series shows its last closed bar.
        try other.add(key: name, try Bars.candles(bars, for: .backtest, "other['\(name)']"))
    }
}

@_cdecl("bt_other_free")
public func bt_other_free(_ handle: OpaquePointer?) {
    freeHandle(handle, as: OtherHandle.self, "bt_other_free")
}

/// The `bt_other` a call names, nil for NULL (the run's own bars only).
func otherSeries(_ handle: OpaquePointer?) throws -> OtherHandle? {
    guard handle != nil else { return nil }
    return try Handles.shared.get(handle, as: OtherHandle.self, "other")
}

/// The store's series and sessions, each read once for the life of a `bt_other`: every
/// evaluation makes its own reader, and a parameter search on one `bt_other` would otherwise
/// read the same series from SQLite on every call. The store is read-only here, as a run's.
final class StoreOnce: OtherSeriesSource, @unchecked Sendable {
    private let store: any OtherSeriesSource
    private let lock = NSLock()
    private var candles: [String: CandleSeries?] = [:]
    private var sessions: [String: TradingSession?] = [:]
    private var listed: [String]?

    init(_ store: any OtherSeriesSource) { self.store = store }

    /// `read` of `key` from `cache`, or read once and kept (errors are not kept).
    private func once<T>(_ cache: ReferenceWritableKeyPath<StoreOnce, [String: T]>, _ key: String, _ read: () throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        if let known = self[keyPath: cache][key] { return known }
        let value = try read()
        self[keyPath: cache][key] = value
        return value
    }

    func candles(symbol: String, timeframe: Timeframe) throws -> CandleSeries? {
        try once(\.candles, "\(symbol)@\(timeframe.rawValue)") { try store.candles(symbol: symbol, timeframe: timeframe) }
    }

    func session(symbol: String) throws -> TradingSession? {
        try once(\.sessions, symbol) { try store.session(symbol: symbol) }
    }

    func keys() throws -> [String] {
        lock.lock(); defer { lock.unlock() }
        if let listed { return listed }
        let keys = try store.keys()
        listed = keys
        return keys
    }
}
