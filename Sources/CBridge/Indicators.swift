import Backtest

/// The indicator functions of bt.h: the library's kernels (`Indicators.Kernel`) run directly
/// over the caller's arrays, split at NaN gaps as the array API splits them
/// (`Indicators.forEachFiniteRun`), after every pointer, length and parameter is checked here,
/// since the kernels check theirs with `precondition`.
enum IndicatorCall {
    /// The largest period accepted, as `IndicatorSpec.validate` bounds them.
    static let maximumPeriod: Int32 = 10_000_000

    /// The most elements an array may have (far beyond memory, far below overflow of byte counts).
    static let maximumCount = 1 << 40

    typealias Buffers = [UnsafeBufferPointer<Double>]
    typealias Outputs = [UnsafeMutableBufferPointer<Double>]

    /// Checks `n`, the inputs and outputs and the periods of `name`, then runs `kernel` over each
    /// finite run of the inputs (NaN written at the gaps). With `checked` (the same kernel from
    /// `Indicators.Checked`, which tells whether it proved every input finite), clean input is
    /// one pass of it over all bars, without the separate scan for gaps.
    static func run(
        _ name: String, _ n: Int, inputs: [(UnsafePointer<Double>?, String)],
        outputs: [(UnsafeMutablePointer<Double>?, String)], periods: [(Int32, String)],
        checked: ((Buffers, Outputs) -> Bool)? = nil,
        _ kernel: (Buffers, Outputs) -> Void
    ) -> Int32 {
        guarded {
            try checkCount(n, name)
            try checkPeriods(name, periods)
            if n == 0 { return }
            let given = try inputs.map { pointer, what -> UnsafeBufferPointer<Double> in
                guard let pointer else { throw BridgeError.argument("\(name): \(what) is NULL") }
                return UnsafeBufferPointer(start: pointer, count: n)
            }
            let outs = try outputs.map { pointer, what -> UnsafeMutableBufferPointer<Double> in
                guard let pointer else { throw BridgeError.argument("\(name): \(what) is NULL") }
                return UnsafeMutableBufferPointer(start: pointer, count: n)
            }
            let copies = try InPlace(name, inputs: zip(given, inputs.map(\.1)), outputs: zip(outs, outputs.map(\.1)))
            defer { copies.free() }
            let ins = copies.inputs
            let split = { (r: Range<Int>) in
                kernel(ins.map { UnsafeBufferPointer(rebasing: $0[r]) }, outs.map { UnsafeMutableBufferPointer(rebasing: $0[r]) })
            }
            if let checked {
                Indicators.forEachFiniteRun(ins, outputs: outs, trying: { checked(ins, outs) }, split)
            } else {
                Indicators.forEachFiniteRun(ins, outputs: outs, split)
            }
        }
    }

    static func checkCount(_ n: Int, _ name: String) throws {
        guard n >= 0, n <= maximumCount else { throw BridgeError.length("\(name): n \(UInt(bitPattern: n)) is not a length") }
    }

    static func checkPeriods(_ name: String, _ periods: [(Int32, String)]) throws {
        for (value, what) in periods {
            if value < 1 { throw BridgeError.input("\(name): \(what) must be at least 1 (got \(value))") }
            if value > maximumPeriod { throw BridgeError.input("\(name): \(what) must be at most \(maximumPeriod) (got \(value))") }
        }
    }

    /// A lookback, or -1 when a period is out of range.
    static func lookback(_ periods: [Int32], _ value: ([Int]) -> Int) -> Int32 {
        guard periods.allSatisfy({ $0 >= 1 && $0 <= maximumPeriod }) else { return -1 }
        return Int32(clamping: value(periods.map(Int.init)))
    }
}

private typealias L = Indicators.Lookback
private typealias K = Indicators.Kernel
public typealias Doubles = UnsafePointer<Double>
public typealias MutableDoubles = UnsafeMutablePointer<Double>

// MARK: - One series

@_cdecl("bt_sma_lookback") public func bt_sma_lookback(_ period: Int32) -> Int32 { IndicatorCall.lookback([period]) { L.sma(period: $0[0]) } }
@_cdecl("bt_sma") public func bt_sma(_ n: Int, _ x: Doubles?, _ period: Int32, _ out: MutableDoubles?) -> Int32 {
    IndicatorCall.run("sma", n, inputs: [(x, "in")], outputs: [(out, "out")], periods: [(period, "period")],
                      checked: { i, o in Indicators.Checked.sma(i[0], period: Int(period), into: o[0]) }) { i, o in
        K.sma(i[0], period: Int(period), into: o[0])
    }
}

@_cdecl("bt_ema_lookback") public func bt_ema_lookback(_ period: Int32) -> Int32 { IndicatorCall.lookback([period]) { L.ema(period: $0[0]) } }
@_cdecl("bt_ema") public func bt_ema(_ n: Int, _ x: Doubles?, _ period: Int32, _ out: MutableDoubles?) -> Int32 {
    IndicatorCall.run("ema", n, inputs: [(x, "in")], outputs: [(out, "out")], periods: [(period, "period")],
                      checked: { i, o in Indicators.Checked.ema(i[0], period: Int(period), into: o[0]) }) { i, o in
        K.ema(i[0], period: Int(period), into: o[0])
    }
}

@_cdecl("bt_wma_lookback") public func bt_wma_lookback(_ period: Int32) -> Int32 { IndicatorCall.lookback([period]) { L.wma(period: $0[0]) } }
@_cdecl("bt_wma") public func bt_wma(_ n: Int, _ x: Doubles?, _ period: Int32, _ out: MutableDoubles?) -> Int32 {
    IndicatorCall.run("wma", n, inputs: [(x, "in")], outputs: [(out, "out")], periods: [(period, "period")]) { i, o in
        K.wma(i[0], period: Int(period), into: o[0])
    }
}

@_cdecl("bt_rsi_lookback") public func bt_rsi_lookback(_ period: Int32) -> Int32 { IndicatorCall.lookback([period]) { L.rsi(period: $0[0]) } }
@_cdecl("bt_rsi") public func bt_rsi(_ n: Int, _ x: Doubles?, _ period: Int32, _ out: MutableDoubles?) -> Int32 {
    IndicatorCall.run("rsi", n, inputs: [(x, "in")], outputs: [(out, "out")], periods: [(period, "period")],
                      checked: { i, o in Indicators.Checked.rsi(i[0], period: Int(period), into: o[0]) }) { i, o in
        K.rsi(i[0], period: Int(period), into: o[0])
    }
}

@_cdecl("bt_roc_lookback") public func bt_roc_lookback(_ period: Int32) -> Int32 { IndicatorCall.lookback([period]) { L.roc(period: $0[0]) } }
@_cdecl("bt_roc") public func bt_roc(_ n: Int, _ x: Doubles?, _ period: Int32, _ out: MutableDoubles?) -> Int32 {
    IndicatorCall.run("roc", n, inputs: [(x, "in")], outputs: [(out, "out")], periods: [(period, "period")]) { i, o in
        K.roc(i[0], period: Int(period), into: o[0])
    }
}

@_cdecl("bt_stddev_lookback") public func bt_stddev_lookback(_ period: Int32) -> Int32 {
    IndicatorCall.lookback([period]) { L.stddev(period: $0[0]) }
}
@_cdecl("bt_stddev") public func bt_stddev(_ n: Int, _ x: Doubles?, _ period: Int32, _ out: MutableDoubles?) -> Int32 {
    IndicatorCall.run("stddev", n, inputs: [(x, "in")], outputs: [(out, "out")], periods: [(period, "period")]) { i, o in
        K.stddev(i[0], period: Int(period), into: o[0])
    }
}

@_cdecl("bt_macd_lookback") public func bt_macd_lookback(_ fast: Int32, _ slow: Int32, _ signal: Int32) -> Int32 {
    fast >= slow ? -1 : IndicatorCall.lookback([fast, slow, signal]) { L.macd(fast: $0[0], slow: $0[1], signal: $0[2]) }
}
@_cdecl("bt_macd") public func bt_macd(_ n: Int, _ x: Doubles?, _ fast: Int32, _ slow: Int32, _ signal: Int32,
                                       _ macd: MutableDoubles?, _ signalOut: MutableDoubles?, _ hist: MutableDoubles?) -> Int32 {
    if fast >= 1 && slow >= 1 && fast >= slow {
        return guarded { throw BridgeError.input("macd: fast period (\(fast)) must be shorter than slow period (\(slow))") }
    }
    return IndicatorCall.run("macd", n, inputs: [(x, "in")], outputs: [(macd, "out_macd"), (signalOut, "out_signal"), (hist, "out_hist")],
                             periods: [(fast, "fast period"), (slow, "slow period"), (signal, "signal period")],
                             checked: { i, o in
                                 Indicators.Checked.macd(i[0], fast: Int(fast), slow: Int(slow), signal: Int(signal),
                                                         macd: o[0], signal: o[1], histogram: o[2])
                             }) { i, o in
        K.macd(i[0], fast: Int(fast), slow: Int(slow), signal: Int(signal), macd: o[0], signal: o[1], histogram: o[2])
    }
}

@_cdecl("bt_bbands_lookback") public func bt_bbands_lookback(_ period: Int32) -> Int32 {
    IndicatorCall.lookback([period]) { L.bollinger(period: $0[0]) }
}
@_cdecl("bt_bbands") public func bt_bbands(_ n: Int, _ x: Doubles?, _ period: Int32, _ k: Double,
                                           _ upper: MutableDoubles?, _ middle: MutableDoubles?, _ lower: MutableDoubles?) -> Int32 {
    guard k.isFinite, k >= 0 else {
        return guarded { throw BridgeError.input("bbands: k must be a non-negative number (got \(k))") }
    }
    return IndicatorCall.run("bbands", n, inputs: [(x, "in")], outputs: [(upper, "out_upper"), (middle, "out_middle"), (lower, "out_lower")],
                             periods: [(period, "period")]) { i, o in
        K.bollinger(i[0], period: Int(period), k: k, upper: o[0], middle: o[1], lower: o[2])
    }
}

// MARK: - Candles

@_cdecl("bt_atr_lookback") public func bt_atr_lookback(_ period: Int32) -> Int32 { IndicatorCall.lookback([period]) { L.atr(period: $0[0]) } }
@_cdecl("bt_atr") public func bt_atr(_ n: Int, _ high: Doubles?, _ low: Doubles?, _ close: Doubles?, _ period: Int32, _ out: MutableDoubles?) -> Int32 {
    IndicatorCall.run("atr", n, inputs: [(high, "high"), (low, "low"), (close, "close")], outputs: [(out, "out")],
                      periods: [(period, "period")],
                      checked: { i, o in Indicators.Checked.atr(high: i[0], low: i[1], close: i[2], period: Int(period), into: o[0]) }) { i, o in
        K.atr(high: i[0], low: i[1], close: i[2], period: Int(period), into: o[0])
    }
}

@_cdecl("bt_willr_lookback") public func bt_willr_lookback(_ period: Int32) -> Int32 {
    IndicatorCall.lookback([period]) { L.williamsR(period: $0[0]) }
}
@_cdecl("bt_willr") public func bt_willr(_ n: Int, _ high: Doubles?, _ low: Doubles?, _ close: Doubles?, _ period: Int32, _ out: MutableDoubles?) -> Int32 {
    IndicatorCall.run("willr", n, inputs: [(high, "high"), (low, "low"), (close, "close")], outputs: [(out, "out")],
                      periods: [(period, "period")]) { i, o in
        K.williamsR(high: i[0], low: i[1], close: i[2], period: Int(period), into: o[0])
    }
}

@_cdecl("bt_cci_lookback") public func bt_cci_lookback(_ period: Int32) -> Int32 { IndicatorCall.lookback([period]) { L.cci(period: $0[0]) } }
@_cdecl("bt_cci") public func bt_cci(_ n: Int, _ high: Doubles?, _ low: Doubles?, _ close: Doubles?, _ period: Int32, _ out: MutableDoubles?) -> Int32 {
    IndicatorCall.run("cci", n, inputs: [(high, "high"), (low, "low"), (close, "close")], outputs: [(out, "out")],
                      periods: [(period, "period")]) { i, o in
        K.cci(high: i[0], low: i[1], close: i[2], period: Int(period), into: o[0])
    }
}

@_cdecl("bt_adx_lookback") public func bt_adx_lookback(_ period: Int32) -> Int32 { IndicatorCall.lookback([period]) { L.adx(period: $0[0]) } }
@_cdecl("bt_adx") public func bt_adx(_ n: Int, _ high: Doubles?, _ low: Doubles?, _ close: Doubles?, _ period: Int32, _ out: MutableDoubles?) -> Int32 {
    IndicatorCall.run("adx", n, inputs: [(high, "high"), (low, "low"), (close, "close")], outputs: [(out, "out")],
                      periods: [(period, "period")]) { i, o in
        K.adx(high: i[0], low: i[1], close: i[2], period: Int(period), into: o[0])
    }
}

@_cdecl("bt_stoch_lookback") public func bt_stoch_lookback(_ fastK: Int32, _ slowK: Int32, _ slowD: Int32) -> Int32 {
    IndicatorCall.lookback([fastK, slowK, slowD]) { L.stochastic(fastK: $0[0], slowK: $0[1], slowD: $0[2]) }
}
@_cdecl("bt_stoch") public func bt_stoch(_ n: Int, _ high: Doubles?, _ low: Doubles?, _ close: Doubles?, _ fastK: Int32, _ slowK: Int32, _ slowD: Int32,
                                         _ k: MutableDoubles?, _ d: MutableDoubles?) -> Int32 {
    IndicatorCall.run("stoch", n, inputs: [(high, "high"), (low, "low"), (close, "close")], outputs: [(k, "out_k"), (d, "out_d")],
                      periods: [(fastK, "fast %K period"), (slowK, "slow %K period"), (slowD, "slow %D period")]) { i, o in
        K.stochastic(high: i[0], low: i[1], close: i[2], fastK: Int(fastK), slowK: Int(slowK), slowD: Int(slowD), k: o[0], d: o[1])
    }
}

@_cdecl("bt_obv_lookback") public func bt_obv_lookback() -> Int32 { Int32(L.obv()) }
@_cdecl("bt_obv") public func bt_obv(_ n: Int, _ close: Doubles?, _ volume: Doubles?, _ out: MutableDoubles?) -> Int32 {
    IndicatorCall.run("obv", n, inputs: [(close, "close"), (volume, "volume")], outputs: [(out, "out")], periods: []) { i, o in
        K.obv(close: i[0], volume: i[1], into: o[0])
    }
}

@_cdecl("bt_donchian_lookback") public func bt_donchian_lookback(_ period: Int32) -> Int32 {
    IndicatorCall.lookback([period]) { L.donchian(period: $0[0]) }
}
@_cdecl("bt_donchian") public func bt_donchian(_ n: Int, _ high: Doubles?, _ low: Doubles?, _ period: Int32,
                                               _ upper: MutableDoubles?, _ middle: MutableDoubles?, _ lower: MutableDoubles?) -> Int32 {
    IndicatorCall.run("donchian", n, inputs: [(high, "high"), (low, "low")],
                      outputs: [(upper, "out_upper"), (middle, "out_middle"), (lower, "out_lower")], periods: [(period, "period")]) { i, o in
        K.donchian(high: i[0], low: i[1], period: Int(period), upper: o[0], middle: o[1], lower: o[2])
    }
}

@_cdecl("bt_vwap_lookback") public func bt_vwap_lookback(_ period: Int32) -> Int32 { IndicatorCall.lookback([period]) { L.vwap(period: $0[0]) } }
@_cdecl("bt_vwap") public func bt_vwap(_ n: Int, _ high: Doubles?, _ low: Doubles?, _ close: Doubles?, _ volume: Doubles?, _ period: Int32, _ out: MutableDoubles?) -> Int32 {
    IndicatorCall.run("vwap", n, inputs: [(high, "high"), (low, "low"), (close, "close"), (volume, "volume")], outputs: [(out, "out")],
                      periods: [(period, "period")]) { i, o in
        K.vwap(high: i[0], low: i[1], close: i[2], volume: i[3], period: Int(period), into: o[0])
    }
}
