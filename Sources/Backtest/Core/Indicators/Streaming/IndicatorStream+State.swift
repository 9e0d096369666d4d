extension IndicatorStream {
    /// Each indicator's running state; `next(_:index:spec:)` takes the bar at `index` of the
    /// current run and repeats its batch kernel's operations for that bar (see each kernel's file
    /// for the formulas and the TA-Lib alignment).
    enum State: Sendable {
        case sum(StreamingSum)
        case ema(EMAState)
        case wma(WMAState)
        case rsi(RSIState)
        case macd(MACDState)
        case bands(StreamingSum, StreamingDeviation, k: Double)
        case deviation(StreamingDeviation)
        case roc(RecentValues)
        case atr(ATRState)
        case stoch(StochasticState)
        case obv(total: Double, previous: Double)
        case willr(StreamingExtreme, StreamingExtreme)
        case cci(RecentValues)
        case adx(ADXState)
        case donchian(StreamingExtreme, StreamingExtreme)
        case vwap(VWAPState)

        init(_ spec: IndicatorSpec) {
            let p = spec.parameters.map(IndicatorSpec.whole)
            switch spec.kind {
            case .sma: self = .sum(StreamingSum(period: p[0], scale: 1 / Double(p[0])))
            case .ema: self = .ema(EMAState(period: p[0]))
            case .wma: self = .wma(WMAState(period: p[0]))
            case .rsi: self = .rsi(RSIState(period: p[0]))
            case .macd: self = .macd(MACDState(fast: p[0], slow: p[1], signal: p[2]))
            case .bb:
                self = .bands(StreamingSum(period: p[0], scale: 1 / Double(p[0])), StreamingDeviation(period: p[0]), k: spec.parameters[1])
            case .stddev: self = .deviation(StreamingDeviation(period: p[0]))
            case .roc: self = .roc(RecentValues(capacity: p[0] + 1))
            case .atr: self = .atr(ATRState(period: p[0]))
            case .stoch: self = .stoch(StochasticState(fastK: p[0], slowK: p[1], slowD: p[2]))
            case .obv: self = .obv(total: 0, previous: 0)
            case .willr: self = .willr(StreamingExtreme(period: p[0], maximum: true), StreamingExtreme(period: p[0], maximum: false))
            case .cci: self = .cci(RecentValues(capacity: p[0]))
            case .adx: self = .adx(ADXState(period: p[0]))
            case .donchian:
                self = .donchian(StreamingExtreme(period: p[0], maximum: true), StreamingExtreme(period: p[0], maximum: false))
            case .vwap: self = .vwap(VWAPState(period: p[0]))
            }
        }

        mutating func next(_ bar: Candle, index r: Int, spec: IndicatorSpec) -> IndicatorValues {
            let x = bar.close
            switch self {
            case .sum(var s):
                let v = s.next(x)
                self = .sum(s)
                return IndicatorValues(count: 1, v)
            case .ema(var s):
                let v = s.next(x, index: r)
                self = .ema(s)
                return IndicatorValues(count: 1, v)
            case .wma(var s):
                let v = s.next(x, index: r)
                self = .wma(s)
                return IndicatorValues(count: 1, v)
            case .rsi(var s):
                let v = s.next(x, index: r)
                self = .rsi(s)
                return IndicatorValues(count: 1, v)
            case .macd(var s):
                let v = s.next(x, index: r)
                self = .macd(s)
                return v
            case .bands(var middle, var deviation, let k):
                let m = middle.next(x), sd = deviation.next(x)
                self = .bands(middle, deviation, k: k)
                guard r >= middle.period - 1 else { return IndicatorValues(count: 3) }
                let w = k * sd
                return IndicatorValues(count: 3, m + w, m, m - w)
            case .deviation(var s):
                let v = s.next(x)
                self = .deviation(s)
                return IndicatorValues(count: 1, v)
            case .roc(var window):
                window.push(x)
                self = .roc(window)
                let p = window.capacity - 1
                guard r >= p else { return IndicatorValues(count: 1) }
                let old = window.back(p)
                return IndicatorValues(count: 1, old != 0 ? ((x / old) - 1) * 100 : 0)
            case .atr(var s):
                let v = s.next(bar, index: r)
                self = .atr(s)
                return IndicatorValues(count: 1, v)
            case .stoch(var s):
                let v = s.next(bar, index: r)
                self = .stoch(s)
                return v
            case .obv(var total, var previous):
                if r == 0 {
                    total = bar.volume
                } else if x > previous {
                    total += bar.volume
                } else if x < previous {
                    total -= bar.volume
                }
                previous = x
                self = .obv(total: total, previous: previous)
                return IndicatorValues(count: 1, total)
            case .willr(var highest, var lowest):
                let hh = highest.next(bar.high), ll = lowest.next(bar.low)
                self = .willr(highest, lowest)
                guard r >= highest.period - 1 else { return IndicatorValues(count: 1) }
                let diff = (hh - ll) / -100
                return IndicatorValues(count: 1, diff != 0 ? (hh - x) / diff : 0)
            case .cci(var ring):
                let v = Self.cci(&ring, bar, index: r)
                self = .cci(ring)
                return IndicatorValues(count: 1, v)
            case .adx(var s):
                let v = s.next(bar, index: r)
                self = .adx(s)
                return IndicatorValues(count: 1, v)
            case .donchian(var highest, var lowest):
                let u = highest.next(bar.high), l = lowest.next(bar.low)
                self = .donchian(highest, lowest)
                guard r >= highest.period - 1 else { return IndicatorValues(count: 3) }
                return IndicatorValues(count: 3, u, (u + l) / 2, l)
            case .vwap(var s):
                let v = s.next(bar, index: r)
                self = .vwap(s)
                return IndicatorValues(count: 1, v)
            }
        }

        /// `Kernel.cci`'s step: typical prices in a ring indexed by `index % period`, summed in
        /// ring order (not time order), as the batch does.
        static func cci(_ ring: inout RecentValues, _ bar: Candle, index r: Int) -> Double {
            let p = ring.capacity
            let tp = (bar.high + bar.low + bar.close) / 3
            ring.push(tp)
            guard r >= p - 1 else { return .nan }
            // The ring's oldest value sits at slot (r + 1) % p of the batch's ring.
            let divisor = Double(p)
            @inline(__always) func slot(_ j: Int) -> Double { ring[((j - (r + 1) % p) % p + p) % p] }
            var sum = 0.0
            for j in 0..<p { sum += slot(j) }
            let mean = sum / divisor
            var deviation = 0.0
            for j in 0..<p { deviation += abs(slot(j) - mean) }
            let distance = tp - mean
            return distance != 0 && deviation != 0 ? distance / (0.015 * (deviation / divisor)) : 0
        }
    }

    /// `Kernel.ema`: the mean of the first `period` values, then the four-bar recurrence.
    struct EMAState: Sendable {
        let period: Int
        private var seedSum = 0.0
        private var recurrence: StreamingRecurrence?

        init(period: Int) { self.period = period }

        mutating func next(_ x: Double, index r: Int) -> Double {
            if r < period {
                seedSum += x
                guard r == period - 1 else { return .nan }
                let seed = seedSum / Double(period)
                recurrence = StreamingRecurrence(a: 1 - 2 / Double(period + 1), previous: seed)
                return seed
            }
            return recurrence!.next(2 / Double(period + 1) * x)
        }
    }

    /// `Kernel.wma`: the weighted and plain window sums, re-summed at the batch's bars.
    struct WMAState: Sendable {
        let period: Int
        private var window: RecentValues
        private var s = 0.0, w = 0.0

        init(period: Int) {
            self.period = period
            window = RecentValues(capacity: period + 1)
        }

        mutating func next(_ x: Double, index r: Int) -> Double {
            window.push(x)
            let p = period
            guard r >= p - 1 else { return .nan }
            let divider = Double(p * (p + 1) / 2)
            if (r - (p - 1)) % (RollingSum.resumEvery(p) + 1) == 0 {
                s = 0; w = 0
                let first = window.count - p
                for j in 0..<p {
                    let v = window[first + j]
                    s += v
                    w += Double(j + 1) * v
                }
            } else {
                w += Double(p) * x - s
                s += x - window.back(p)
            }
            return w / divider
        }
    }

    /// `Kernel.rsi`: the first `period` changes averaged, then two Wilder recurrences.
    struct RSIState: Sendable {
        let period: Int
        private var previous = 0.0
        private var gain = 0.0, loss = 0.0
        private var gains: StreamingRecurrence?, losses: StreamingRecurrence?

        init(period: Int) { self.period = period }

        mutating func next(_ x: Double, index r: Int) -> Double {
            defer { previous = x }
            let p = period
            guard r > 0 else { return .nan }
            @inline(__always) func value(_ g: Double, _ l: Double) -> Double {
                let t = g + l
                return Indicators.isZero(t) ? 0 : 100 * (g / t)
            }
            if r <= p {
                let d = x - previous
                if d < 0 { loss -= d } else { gain += d }
                guard r == p else { return .nan }
                gain /= Double(p)
                loss /= Double(p)
                let a = Double(p - 1) / Double(p)
                gains = StreamingRecurrence(a: a, previous: gain)
                losses = StreamingRecurrence(a: a, previous: loss)
                return value(gain, loss)
            }
            let b = 1 / Double(p)
            let g = gains!.next(max(x - previous, 0) * b)
            let l = losses!.next(max(previous - x, 0) * b)
            return value(g, l)
        }
    }

    /// `Kernel.macd`: both EMAs seeded at bar `slow - 1`, the signal EMA on the MACD line.
    struct MACDState: Sendable {
        let fast: Int, slow: Int, signal: Int
        private var recent: RecentValues
        private var slowSum = 0.0, signalSum = 0.0
        private var fastEMA: StreamingRecurrence?, slowEMA: StreamingRecurrence?, signalEMA: StreamingRecurrence?

        init(fast: Int, slow: Int, signal: Int) {
            self.fast = fast; self.slow = slow; self.signal = signal
            recent = RecentValues(capacity: fast)
        }

        mutating func next(_ x: Double, index r: Int) -> IndicatorValues {
            let first = slow - 1
            let lookback = Indicators.Lookback.macd(fast: fast, slow: slow, signal: signal)
            let m: Double
            if r <= first {
                recent.push(x)
                slowSum += x
                guard r == first else { return IndicatorValues(count: 3) }
                var f = 0.0
                for i in 0..<fast { f += recent[i] }
                let fastSeed = f / Double(fast), slowSeed = slowSum / Double(slow)
                fastEMA = StreamingRecurrence(a: 1 - 2 / Double(fast + 1), previous: fastSeed)
                slowEMA = StreamingRecurrence(a: 1 - 2 / Double(slow + 1), previous: slowSeed)
                m = fastSeed - slowSeed
            } else {
                let f = fastEMA!.next(2 / Double(fast + 1) * x)
                let s = slowEMA!.next(2 / Double(slow + 1) * x)
                m = f - s
            }
            if r < lookback {
                signalSum += m
                return IndicatorValues(count: 3)
            }
            let s: Double
            if r == lookback {
                signalSum += m
                s = signalSum / Double(signal)
                signalEMA = StreamingRecurrence(a: 1 - 2 / Double(signal + 1), previous: s)
            } else {
                s = signalEMA!.next(2 / Double(signal + 1) * m)
            }
            return IndicatorValues(count: 3, m, s, m - s)
        }
    }

    /// `Kernel.atr`: the mean of the first `period` true ranges, then the eight-bar recurrence.
    struct ATRState: Sendable {
        let period: Int
        private var previousClose = 0.0
        private var sum = 0.0
        private var smoothed: StreamingRecurrence?

        init(period: Int) { self.period = period }

        mutating func next(_ bar: Candle, index r: Int) -> Double {
            defer { previousClose = bar.close }
            let p = period
            guard r > 0 else { return .nan }
            let tr = Indicators.trueRange(bar.high, bar.low, previousClose)
            if r <= p {
                sum += tr
                guard r == p else { return .nan }
                let atr = sum / Double(p)
                smoothed = StreamingRecurrence(a: Double(p - 1) / Double(p), previous: atr, blockSize: 8)
                return atr
            }
            return smoothed!.next(tr * (1 / Double(p)))
        }
    }

    /// `Kernel.stochastic`: fast %K from the rolling extremes, then two SMAs started where the
    /// batch starts them.
    struct StochasticState: Sendable {
        let fastK: Int, slowK: Int, slowD: Int
        private var highest: StreamingExtreme, lowest: StreamingExtreme
        private var k: StreamingSum, d: StreamingSum

        init(fastK: Int, slowK: Int, slowD: Int) {
            self.fastK = fastK; self.slowK = slowK; self.slowD = slowD
            highest = StreamingExtreme(period: fastK, maximum: true)
            lowest = StreamingExtreme(period: fastK, maximum: false)
            k = StreamingSum(period: slowK, scale: 1 / Double(slowK))
            d = StreamingSum(period: slowD, scale: 1 / Double(slowD))
        }

        mutating func next(_ bar: Candle, index r: Int) -> IndicatorValues {
            let hh = highest.next(bar.high), ll = lowest.next(bar.low)
            let f0 = fastK - 1
            guard r >= f0 else { return IndicatorValues(count: 2) }
            let diff = (hh - ll) / 100
            let fast = diff != 0 ? (bar.close - ll) / diff : 0
            let slow = k.next(fast)
            guard r >= f0 + slowK - 1 else { return IndicatorValues(count: 2) }
            let signal = d.next(slow)
            guard r >= Indicators.Lookback.stochastic(fastK: fastK, slowK: slowK, slowD: slowD) else { return IndicatorValues(count: 2) }
            return IndicatorValues(count: 2, slow, signal)
        }
    }

    /// `Kernel.adx`: Wilder sums of the directional movements and true range, then DX averaged.
    struct ADXState: Sendable {
        let period: Int
        private var plusDM = 0.0, minusDM = 0.0, tr = 0.0
        private var previousHigh = 0.0, previousLow = 0.0, previousClose = 0.0
        private var sumDX = 0.0, adx = 0.0

        init(period: Int) { self.period = period }

        mutating func next(_ bar: Candle, index r: Int) -> Double {
            let p = period
            let lookback = Indicators.Lookback.adx(period: p)
            guard r > 0 else {
                previousHigh = bar.high; previousLow = bar.low; previousClose = bar.close
                return .nan
            }
            let h = bar.high, l = bar.low
            let (plus, minus) = Indicators.directionalMovement(high: h, low: l, previousHigh: previousHigh, previousLow: previousLow)
            previousHigh = h
            previousLow = l
            let range = Indicators.trueRange(h, l, previousClose)
            previousClose = bar.close
            if r < p {
                plusDM += plus; minusDM += minus; tr += range
                return .nan
            }
            let n = Double(p)
            plusDM = plusDM - plusDM / n + plus
            minusDM = minusDM - minusDM / n + minus
            tr = tr - tr / n + range
            let dx = Indicators.directionalIndex(plusDM: plusDM, minusDM: minusDM, trueRange: tr)
            if r <= lookback {
                if let dx { sumDX += dx }
                guard r == lookback else { return .nan }
                adx = sumDX / n
                return adx
            }
            if let dx { adx = (adx * (n - 1) + dx) / n }
            return adx
        }

    }

    /// `Kernel.vwap`: price-volume and volume window sums, re-summed at the batch's bars.
    struct VWAPState: Sendable {
        let period: Int
        private var weighted: RecentValues, volumes: RecentValues
        private var pv = 0.0, v = 0.0

        init(period: Int) {
            self.period = period
            weighted = RecentValues(capacity: period + 1)
            volumes = RecentValues(capacity: period + 1)
        }

        mutating func next(_ bar: Candle, index r: Int) -> Double {
            let w = (bar.high + bar.low + bar.close) / 3 * bar.volume
            weighted.push(w)
            volumes.push(bar.volume)
            let p = period
            guard r >= p - 1 else { return .nan }
            if (r - (p - 1)) % (RollingSum.resumEvery(p) + 1) == 0 {
                pv = 0; v = 0
                let first = weighted.count - p
                for j in 0..<p { pv += weighted[first + j]; v += volumes[first + j] }
            } else {
                pv += w - weighted.back(p)
                v += bar.volume - volumes.back(p)
            }
            return v != 0 ? pv / v : .nan
        }
    }
}
