import Backtest
import CBTABI

/// `bt_bars` as candles: the caller's columns copied into a `CandleSeries` (the library's
/// expressions and engine take Swift arrays), after the pointers are checked. A backtest's bars
/// are copied and checked in one pass (`CandleSeries.copying`).
enum Bars {
    /// How strictly the bars are checked.
    enum Use {
        /// Expressions: any values (NaN splits indicators into runs, as in the library); times
        /// may be missing (the bars are numbered) but must increase when given.
        case expression
        /// Backtests and strategies: bars bt could store (`CandleSeries.firstUnstorableBar`),
        /// times required.
        case backtest
    }

    static func candles(_ pointer: UnsafePointer<bt_bars>?, for use: Use, _ what: String = "bars") throws -> CandleSeries {
        guard let pointer else { throw BridgeError.argument("\(what) is NULL") }
        let b = pointer.pointee
        let n = b.n
        try IndicatorCall.checkCount(n, what)
        let symbol = try optionalString(b.symbol, "\(what).symbol") ?? ""
        var timeframe: Timeframe?
        if let text = try optionalString(b.timeframe, "\(what).timeframe") {
            guard let tf = Timeframe(rawValue: text) else {
                throw BridgeError.input("\(what).timeframe '\(text)' is not one of \(Timeframe.allCases.map(\.rawValue).joined(separator: " "))")
            }
            timeframe = tf
        }
        if use == .backtest {
            guard let t = b.time else { throw BridgeError.argument("\(what).time is NULL (a backtest needs the bars' times)") }
            if n == 0 { throw BridgeError.input("\(what): no bars") }
            func pointer(_ p: UnsafePointer<Double>?, _ name: String) throws -> UnsafePointer<Double> {
                guard let p else { throw BridgeError.argument("\(what).\(name) is NULL") }
                return p
            }
            let (candles, storable) = CandleSeries.copying(
                symbol: symbol, timeframe: timeframe, count: n, time: t, open: try pointer(b.open, "open"),
                high: try pointer(b.high, "high"), low: try pointer(b.low, "low"), close: try pointer(b.close, "close"), volume: b.volume)
            if !storable, let bad = candles.firstUnstorableBar {
                throw BridgeError.input("\(what)[\(bad.index)] (\(symbol.isEmpty ? "" : symbol + " ")\(UTCTime.describe(candles.time[bad.index]))): \(bad.reason)")
            }
            return candles
        }
        func column(_ p: UnsafePointer<Double>?, _ name: String) throws -> [Double] {
            if n == 0 { return [] }
            guard let p else { throw BridgeError.argument("\(what).\(name) is NULL") }
            return Array(UnsafeBufferPointer(start: p, count: n))
        }
        let time: [Int64]
        if let t = b.time {
            time = n == 0 ? [] : Array(UnsafeBufferPointer(start: t, count: n))
        } else if use == .expression {
            time = (0..<n).map(Int64.init)
        } else {
            throw BridgeError.argument("\(what).time is NULL (a backtest needs the bars' times)")
        }
        let volume: [Double]
        if b.volume == nil && n > 0 {
            volume = [Double](repeating: 0, count: n)
        } else {
            volume = try column(b.volume, "volume")
        }
        let candles = CandleSeries(symbol: symbol, timeframe: timeframe, time: time, open: try column(b.open, "open"),
                                   high: try column(b.high, "high"), low: try column(b.low, "low"),
                                   close: try column(b.close, "close"), volume: volume)
        switch use {
        case .expression:
            for i in 1..<max(1, n) where time[i] <= time[i - 1] {
                throw BridgeError.input("\(what).time[\(i)] = \(time[i]) does not follow time[\(i - 1)] = \(time[i - 1]): times must increase")
            }
        case .backtest:
            if n == 0 { throw BridgeError.input("\(what): no bars") }
            if let bad = candles.firstUnstorableBar {
                throw BridgeError.input("\(what)[\(bad.index)] (\(symbol.isEmpty ? "" : symbol + " ")\(UTCTime.describe(candles.time[bad.index]))): \(bad.reason)")
            }
        }
        return candles
    }

    /// `n` signal bytes as booleans; nil for a NULL pointer when `optional`.
    static func flags(_ p: UnsafePointer<UInt8>?, _ n: Int, _ what: String, optional: Bool = false) throws -> [Bool]? {
        if n == 0 { return [] }
        guard let p else {
            if optional { return nil }
            throw BridgeError.argument("\(what) is NULL")
        }
        return UnsafeBufferPointer(start: p, count: n).map { $0 != 0 }
    }
}

@_cdecl("bt_series_from_bars")
public func bt_series_from_bars(_ bars: UnsafePointer<bt_bars>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guarded {
        guard let out else { throw BridgeError.argument("out is NULL") }
        out.pointee = nil
        out.pointee = Handles.shared.add(SeriesHandle(try Bars.candles(bars, for: .backtest)))
    }
}

extension Bars {
    /// The caller's named series (a portfolio's, a screen's): each named by its `symbol`,
    /// upper-cased as the store keeps symbols, no two the same; with `oneTimeframe`, all at one
    /// timeframe (given, else inferred from the times).
    /// - Throws: `InputError` for a series without a symbol, two series of one symbol, and
    ///   naming the timeframes that differ.
    static func named(_ series: UnsafePointer<bt_bars>?, _ n: Int, oneTimeframe: Bool) throws -> [CandleSeries] {
        guard let series else { throw BridgeError.argument("series is NULL but its count is \(n)") }
        try IndicatorCall.checkCount(n, "nseries")
        var first: (symbol: String, timeframe: Timeframe?)?
        var seen = Set<String>()
        return try (0..<n).map { i in
            var candles = try Bars.candles(series + i, for: .backtest, "series[\(i)]")
            guard !candles.symbol.isEmpty else { throw BridgeError.input("series[\(i)].symbol is empty: the series are named") }
            candles.symbol = try SeriesName.normalized(candles.symbol)
            guard seen.insert(candles.symbol).inserted else {
                throw BridgeError.input("series[\(i)]: two series are named \(candles.symbol) (symbols are upper-cased): name each once")
            }
            guard oneTimeframe else { return candles }
            let timeframe = candles.timeframe ?? Timeframe.infer(from: candles.time)
            if let first, first.timeframe != timeframe {
                throw InputError("\(first.symbol) is at \(first.timeframe?.rawValue ?? "an unknown timeframe"), \(candles.symbol) at "
                                 + "\(timeframe?.rawValue ?? "an unknown timeframe"): a portfolio's series share one timeframe "
                                 + "(resample them first)", setting: .timeframe)
            }
            if first == nil { first = (candles.symbol, timeframe) }
            return candles
        }
    }
}
