import Backtest
import CBTABI
import Foundation

/// An open store (`bt_store`): read-only, with the list of series last read (whose C strings
/// it owns).
final class StoreHandle: @unchecked Sendable {
    let store: CandleStore
    private(set) var series: [CandleStore.SeriesInfo] = []
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init(_ store: CandleStore) { self.store = store }

    deinit { strings.forEach { Foundation.free($0) } }

    func list() throws -> Int {
        let listed = try store.list()
        strings.forEach { Foundation.free($0) }
        strings = listed.flatMap { [strdup($0.symbol)!, strdup($0.timeframe)!] }
        series = listed
        return listed.count
    }

    func info(_ i: Int) -> bt_series_info {
        let s = series[i]
        return bt_series_info(symbol: UnsafePointer(strings[2 * i]), timeframe: UnsafePointer(strings[2 * i + 1]),
                              first: s.first, last: s.last, bars: Int64(s.bars))
    }
}

/// A series (`bt_series`) loaded from the store or copied from a caller's bars
/// (`bt_series_from_bars`): candles bt could store, read-only once made, so backtests on
/// several threads may share it. Keeps the candles' inferred tick once found.
final class SeriesHandle: @unchecked Sendable {
    let candles: CandleSeries
    let symbol: UnsafeMutablePointer<CChar>
    let timeframe: UnsafeMutablePointer<CChar>?
    private let lock = NSLock()
    private var tick: Double??

    init(_ candles: CandleSeries) {
        self.candles = candles
        symbol = strdup(candles.symbol)!
        timeframe = candles.timeframe.map { strdup($0.rawValue)! }
    }

    /// `candles.inferredTick`, found on first use (it scans every price).
    var inferredTick: Double? {
        lock.lock()
        defer { lock.unlock() }
        if let tick { return tick }
        let found = candles.inferredTick
        tick = .some(found)
        return found
    }

    deinit {
        Foundation.free(symbol)
        if let timeframe { Foundation.free(timeframe) }
    }
}

@_cdecl("bt_store_open")
public func bt_store_open(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        guard let out else { throw BridgeError.argument("out is NULL") }
        out.pointee = nil
        let store = try CandleStore(existingAt: try requiredString(path, "path"))
        out.pointee = Handles.shared.add(StoreHandle(store))
    }
}

@_cdecl("bt_store_list")
public func bt_store_list(_ handle: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> Int32 {
    guarded {
        let s = try Handles.shared.get(handle, as: StoreHandle.self, "store")
        guard let count else { throw BridgeError.argument("count is NULL") }
        count.pointee = try s.list()
    }
}

@_cdecl("bt_store_series")
public func bt_store_series(_ handle: OpaquePointer?, _ i: Int, _ out: UnsafeMutablePointer<bt_series_info>?) -> Int32 {
    guarded {
        let s = try Handles.shared.get(handle, as: StoreHandle.self, "store")
        guard let out else { throw BridgeError.argument("out is NULL") }
        guard i >= 0, i < s.series.count else {
            throw BridgeError.length("series \(i) is out of range: the last bt_store_list found \(s.series.count)")
        }
        out.pointee = s.info(i)
    }
}

@_cdecl("bt_store_read")
public func bt_store_read(_ handle: OpaquePointer?, _ symbol: UnsafePointer<CChar>?, _ timeframe: UnsafePointer<CChar>?,
                          _ from: UnsafePointer<Int64>?, _ to: UnsafePointer<Int64>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        guard let out else { throw BridgeError.argument("out is NULL") }
        out.pointee = nil
        let s = try Handles.shared.get(handle, as: StoreHandle.self, "store")
        let name = try SeriesName.normalized(try requiredString(symbol, "symbol"))
        let tf = try optionalString(timeframe, "timeframe").map(Timeframe.parse)
        let series = try s.store.load(symbol: name, timeframe: tf, from: from?.pointee, to: to?.pointee)
        if series.isEmpty { throw InputError("no candles for '\(name)' in the requested range") }
        out.pointee = Handles.shared.add(SeriesHandle(series))
    }
}

func series(_ handle: OpaquePointer?) throws -> SeriesHandle {
    try Handles.shared.get(handle, as: SeriesHandle.self, "series")
}

@_cdecl("bt_series_count")
public func bt_series_count(_ handle: OpaquePointer?) -> Int {
    var n = 0
    _ = guarded { n = try series(handle).candles.count }
    return n
}

@_cdecl("bt_series_symbol")
public func bt_series_symbol(_ handle: OpaquePointer?) -> UnsafePointer<CChar>? {
    var p: UnsafePointer<CChar>?
    _ = guarded { p = UnsafePointer(try series(handle).symbol) }
    return p
}

@_cdecl("bt_series_timeframe")
public func bt_series_timeframe(_ handle: OpaquePointer?) -> UnsafePointer<CChar>? {
    var p: UnsafePointer<CChar>?
    _ = guarded { p = try series(handle).timeframe.map { UnsafePointer($0) } }
    return p
}

@_cdecl("bt_series_copy")
public func bt_series_copy(_ handle: OpaquePointer?, _ time: UnsafeMutablePointer<Int64>?, _ open: UnsafeMutablePointer<Double>?,
                           _ high: UnsafeMutablePointer<Double>?, _ low: UnsafeMutablePointer<Double>?,
                           _ close: UnsafeMutablePointer<Double>?, _ volume: UnsafeMutablePointer<Double>?) -> Int32 {
    guarded {
        let c = try series(handle).candles
        if let time { c.time.withUnsafeBufferPointer { time.update(from: $0.baseAddress!, count: c.count) } }
        for (values, out) in [(c.open, open), (c.high, high), (c.low, low), (c.close, close), (c.volume, volume)] {
            guard let out else { continue }
            values.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: c.count) }
        }
    }
}

@_cdecl("bt_series_free")
public func bt_series_free(_ handle: OpaquePointer?) {
    freeHandle(handle, as: SeriesHandle.self, "bt_series_free")
}

@_cdecl("bt_store_close")
public func bt_store_close(_ handle: OpaquePointer?) {
    freeHandle(handle, as: StoreHandle.self, "bt_store_close")
}
