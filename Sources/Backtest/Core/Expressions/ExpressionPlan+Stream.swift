extension ExpressionPlan {
    /// The plan evaluated one bar at a time, for a live session: `next` takes a bar and gives
    /// the roots' values at it, equal to the bit to what `evaluate` gives at the last index of
    /// every bar so far (the whole-array passes apply the same scalar rules, `IndicatorStream`
    /// equals the batch indicators, and the rolling sums and extremes stream as they do).
    ///
    /// Each step keeps what its pass needs of the past: indicators their running state, `shift`
    /// its last `k + 1` inputs, windows their running sum or last `period` values (restarted
    /// after a NaN, as the batch's runs are), crossings the bar before, `bars_since` the bar it
    /// last held, a series read with `@` its bar forming and its own stream (`OtherSeriesStream`).
    /// O(1) per step and bar but for the rolling extremes (O(period)).
    struct Stream: Sendable {
        let plan: ExpressionPlan
        private var states: [StepState]
        /// Each step's value at the current bar, then at the bar before (`cross`).
        private var values: [Double]
        private var previous: [Double]
        /// One stream per distinct indicator, and the outputs it gave at the current bar.
        private var indicators: [IndicatorStream]
        private var outputs: [IndicatorValues?]
        private var bars = 0

        private enum StepState: Sendable {
            case none
            case indicator(Int)
            case shift(RecentValues)
            case sum(StreamingSum)
            case extreme(StreamingExtreme)
            case barsSince(last: Int)
            case other(OtherSeriesStream)
        }

        /// - Parameters:
        ///   - runTimeframe: the timeframe of the bars `next` takes, which a series read with `@`
        ///     needs; nil refuses such a series.
        ///   - runSymbol: their symbol: a series read with `@` must be its own (nil refuses one).
        /// - Throws: `InputError` when a root reads a position series (as `evaluate` does), a
        ///   series with `@` that cannot be followed bar by bar (`OtherSeriesStream`), or from an
        ///   indicator's parameters.
        init(_ plan: ExpressionPlan, runTimeframe: Timeframe? = nil, runSymbol: String? = nil) throws {
            try plan.refusePosition()
            self.plan = plan
            var keys: [IndicatorCache.Key] = []
            var indicators: [IndicatorStream] = []
            states = try plan.steps.map { step -> StepState in
                switch step {
                case .indicator(let key, _, _):
                    if let i = keys.firstIndex(of: key) { return .indicator(i) }
                    keys.append(key)
                    indicators.append(try IndicatorStream(key.spec))
                    return .indicator(indicators.count - 1)
                case .shift(_, let k): return .shift(RecentValues(capacity: k + 1))
                case .window(.sum, _, let period): return .sum(StreamingSum(period: period, scale: 1))
                case .window(let op, _, let period): return .extreme(StreamingExtreme(period: period, maximum: op == .highest))
                case .barsSince: return .barsSince(last: -1)
                case .column, .constant, .fill, .unary, .binary, .cross: return .none
                case .other(let series, let node):
                    guard let runTimeframe else {
                        throw InputError("a rule reading \(series.name) with '@' needs the timeframe of the bars it is run on")
                    }
                    return .other(try OtherSeriesStream(series, node, runTimeframe: runTimeframe, runSymbol: runSymbol))
                }
            }
            self.indicators = indicators
            outputs = Array(repeating: nil, count: indicators.count)
            values = Array(repeating: .nan, count: plan.steps.count)
            previous = values
        }

        /// The number of bars taken.
        var count: Int { bars }

        /// Takes the next bar; `root(k)` then reads the roots' values at it.
        mutating func next(_ bar: Candle) {
            swap(&values, &previous)
            for k in outputs.indices { outputs[k] = nil }
            let t = bars
            bars += 1
            for (i, step) in plan.steps.enumerated() {
                let v: Double
                switch step {
                case .column(let c): v = bar[c]
                case .other:
                    guard case .other(var s) = states[i] else { preconditionFailure("@ step without its stream") }
                    states[i] = .none  // the step's storage is then not shared, so `next` does not copy it
                    v = s.next(bar)
                    states[i] = .other(s)
                case .constant(let bits): v = Double(bitPattern: bits)
                case .fill(let c): v = c
                case .indicator(let key, let input, let output):
                    guard case .indicator(let s) = states[i] else { preconditionFailure("indicator step without its stream") }
                    if outputs[s] == nil {
                        if let input {
                            outputs[s] = indicators[s].next(values[input])
                        } else if case .column(let c) = key.input {
                            outputs[s] = indicators[s].next(bar[c])
                        } else {
                            outputs[s] = indicators[s].next(bar)
                        }
                    }
                    v = outputs[s]![output]
                case .unary(let op, let x): v = ExpressionKernels.unary(op, values[x])
                case .binary(let op, let a, let b): v = ExpressionKernels.binary(op, values[a], values[b])
                case .shift(let x, let k):
                    guard case .shift(var recent) = states[i] else { preconditionFailure("shift step without its values") }
                    recent.push(values[x])
                    states[i] = .shift(recent)
                    v = t >= k ? recent.back(k) : .nan
                case .window(_, let x, _):
                    let input = values[x]
                    switch states[i] {
                    case .sum(var s):
                        if input.isFinite { v = s.next(input) } else { s.reset(); v = .nan }
                        states[i] = .sum(s)
                    case .extreme(var e):
                        if input.isFinite { v = e.next(input) } else { e.reset(); v = .nan }
                        states[i] = .extreme(e)
                    default: preconditionFailure("window step without its state")
                    }
                case .cross(let above, let a, let b):
                    v = t == 0 ? .nan : ExpressionKernels.crossing(above: above, values[a], values[b], previous[a], previous[b])
                case .barsSince(let c):
                    guard case .barsSince(var last) = states[i] else { preconditionFailure("bars_since step without its state") }
                    if values[c] == 1 { last = t }
                    states[i] = .barsSince(last: last)
                    v = last < 0 ? .nan : Double(t - last)
                }
                values[i] = v
            }
        }

        /// Root `k`'s value at the last bar taken.
        func root(_ k: Int) -> Double { values[plan.roots[k]] }

        /// Whether a bar of `series` (read with `@`) had closed by the last bar taken; true when
        /// no step reads it.
        func hasClosedBar(_ series: OtherSeries) -> Bool {
            for case .other(let s) in states where s.series === series { return s.hasClosedBar }
            return true
        }
    }
}
