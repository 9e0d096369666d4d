import Testing
@testable import BacktestCore
import TestSupport

/// Random candles, signals and order configurations for the property tests of the orders of
/// docs/design/orders.md, and two small oracles written from orders.md alone: the
/// working entry order (limit, stop, stop-limit) and the trailing stop's level.
enum OrdersTest {
    // MARK: - Random inputs

    /// A seeded hourly walk with gaps: about 4% of the bars open 2-5% away from the last close (so
    /// levels are jumped: stop-gap, target-gap, limit and stop entries at the open), 2% have no
    /// volume (the participation cap is off there).
    static func candles(bars n: Int, seed: UInt64) -> CandleSeries {
        var g = SplitMix64(seed: seed)
        var s = CandleSeries(symbol: "ORD", timeframe: .hour1)
        s.reserveCapacity(n)
        var price = 100.0
        for i in 0..<n {
            var gap = 0.003 * (g.unit() - 0.5)
            if g.unit() < 0.04 { gap += (g.unit() < 0.5 ? -1 : 1) * (0.02 + 0.03 * g.unit()) }
            let open = price * (1 + gap)
            let close = open * (1 + 0.03 * (g.unit() - 0.5))
            let high = max(open, close) * (1 + 0.01 * g.unit())
            let low = min(open, close) * (1 - 0.01 * g.unit())
            let volume = g.unit() < 0.02 ? 0 : 1_000 + 50_000 * g.unit()
            s.append(time: 1_600_000_000 + Int64(i) * 3600, open: open, high: high, low: low, close: close, volume: volume)
            price = close
        }
        return s
    }

    /// Random entry and exit signals (with shorts, exits are short entries and entries short exits).
    static func signals(bars n: Int, seed: UInt64) -> Signals {
        var g = SplitMix64(seed: seed ^ 0x5157_4E41_4C53)
        let pe = 0.03 + 0.06 * g.unit(), px = 0.03 + 0.05 * g.unit()
        var entries = [Bool](repeating: false, count: n), exits = entries
        for i in 0..<n {
            entries[i] = g.unit() < pe
            exits[i] = g.unit() < px
        }
        return Signals(entries: entries, exits: exits)
    }

    static func expression(_ text: String, _ setting: Setting) -> PriceExpression {
        try! PriceExpression(LocatedExpression(text, origin: .setting(setting)))
    }

    /// The kind of entry order a configuration places.
    enum EntryKind: String, CaseIterable, Sendable { case market, limit, stop, stopLimitAtStop, stopLimitWaits }

    /// One random configuration: its seed, the config and a line saying what it is.
    struct Setup: CustomTestStringConvertible, Sendable {
        var seed: UInt64
        var config: ExecutionConfig
        var entryKind: EntryKind
        var summary: String
        var testDescription: String { "seed \(seed): \(summary)" }
    }

    /// A random configuration over every entry kind, exit kind, fill timing, depth model,
    /// participation cap, lot, tick, sizing, shorts and pyramiding (`seed` picks it).
    static func setup(seed: UInt64) -> Setup {
        var g = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 17)
        func chance(_ p: Double) -> Bool { g.unit() < p }
        func pick<T>(_ xs: [T]) -> T { xs[Int(g.next() % UInt64(xs.count))] }
        func fraction(_ lo: Double, _ hi: Double) -> Double { ((lo + (hi - lo) * g.unit()) * 1e4).rounded() / 1e4 }
        var c = ExecutionConfig()
        var parts: [String] = []
        c.fill = chance(0.6) ? .nextOpen : .close
        parts.append(c.fill.rawValue)
        c.allowShort = chance(0.4)
        if c.allowShort { parts.append("short") }
        switch g.next() % 3 {
        case 0: c.depth = .none
        case 1: c.depth = .synthetic
        default: c.depth = .fixedSlippage(bps: 4)
        }
        parts.append("depth \(c.depth.name)")
        c.maxParticipation = chance(0.3) ? pick([0.002, 0.01]) : chance(0.5) ? nil : 0.1
        if let cap = c.maxParticipation { parts.append("cap \(cap)") }
        if chance(0.3) { c.lot = pick([1, 0.1]); parts.append("lot \(c.lot!)") }
        if chance(0.35) { c.tick = 0.01; parts.append("tick 0.01") }

        // Entries.
        let kind = pick(EntryKind.allCases + [.market, .limit])
        parts.append(kind.rawValue)
        var entries = EntryRules(orderBars: 1 + Int(g.next() % 4), pyramid: chance(0.25) ? 2 + Int(g.next() % 2) : 1)
        func prices(_ long: String, _ short: String, _ setting: Setting) -> (PriceExpression, PriceExpression) {
            (expression(long, setting), expression(short, setting))
        }
        switch kind {
        case .market: break
        case .limit:
            let (l, s) = pick([("close * 0.99", "close * 1.01"), ("close * 0.995", "close * 1.005"), ("low", "high")])
            (entries.limit, entries.shortLimit) = prices(l, s, .entryLimit)
        case .stop:
            let (l, s) = pick([("high", "low"), ("close * 1.01", "close * 0.99")])
            (entries.stop, entries.shortStop) = prices(l, s, .entryStop)
        case .stopLimitAtStop:
            (entries.stop, entries.shortStop) = prices("high", "low", .entryStop)
            (entries.limit, entries.shortLimit) = prices("high * 1.005", "low * 0.995", .entryLimit)
        case .stopLimitWaits:
            (entries.stop, entries.shortStop) = prices("high", "low", .entryStop)
            (entries.limit, entries.shortLimit) = prices("close", "close", .entryLimit)
        }
        if !c.allowShort { entries.shortLimit = nil; entries.shortStop = nil }
        if kind != .market { parts.append("\(entries.orderBars) bars") }
        if entries.pyramid > 1 { parts.append("pyramid \(entries.pyramid)") }
        c.entries = entries

        // Exits.
        var exits = ExitRules()
        if chance(0.6) {
            exits.stopLoss = chance(0.7) ? .fraction(fraction(0.01, 0.04)) : .price(expression("2 * atr(14)", .stopLoss))
            parts.append("sl")
        }
        if chance(0.55) {
            switch g.next() % 4 {
            case 0: exits.takeProfits = [TakeProfit(.fraction(fraction(0.015, 0.06)))]
            case 1: exits.takeProfits = [TakeProfit(.fraction(0.02), share: 0.5), TakeProfit(.fraction(0.05))]
            case 2: exits.takeProfits = [TakeProfit(.price(expression("3 * atr(14)", .takeProfit)))]
            default:
                exits.takeProfits = [TakeProfit(.fraction(0.015), share: 0.3), TakeProfit(.fraction(0.03), share: 0.3),
                                     TakeProfit(.fraction(0.06))]
            }
            parts.append("tp x\(exits.takeProfits.count)")
        }
        if chance(0.5) {
            exits.trail = chance(0.7) ? .fraction(fraction(0.015, 0.05)) : .price(expression("3 * atr(10)", .trail))
            parts.append("trail")
        }
        if chance(0.3) { exits.breakeven = fraction(0.008, 0.03); parts.append("breakeven") }
        if chance(0.3) { exits.exitAfterBars = 3 + Int(g.next() % 13); parts.append("exit after \(exits.exitAfterBars!)") }
        c.exits = exits

        // Sizing.
        var sizes: [ExecutionConfig.Sizing] = [.equityFraction(1), .equityFraction(0.5), .units(30), .cash(4_000), .volatility(0.2)]
        if exits.stopLoss != nil { sizes.append(.risk(0.01)) }
        c.sizing = pick(sizes)
        c.periodsPerYear = 24 * 252
        parts.append("size \(c.sizing.text)")
        return Setup(seed: seed, config: c, entryKind: kind, summary: parts.joined(separator: ", "))
    }

    /// The seeds of the random configurations.
    static let seeds: [UInt64] = Array(1...64)
    static let bars = 500

    /// The random configurations (one per seed).
    static let setups: [Setup] = seeds.map { setup(seed: $0) }

    /// Runs a setup on its own candles and signals.
    static func run(_ s: Setup, candles: CandleSeries? = nil, signals: Signals? = nil,
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> (CandleSeries, Signals, BacktestResult) {
        let candles = candles ?? Self.candles(bars: bars, seed: s.seed)
        let signals = signals ?? Self.signals(bars: candles.count, seed: s.seed)
        let r = try EngineTest.run(candles, signals, s.config, sourceLocation: sourceLocation)
        return (candles, signals, r)
    }

    // MARK: - Round trips from the fills

    /// A round trip rebuilt from the fills alone: from flat to flat.
    struct Segment {
        var long: Bool
        var entries: [Fill] = []
        var exits: [Fill] = []
    }

    /// The fills split into round trips, in the order of `BacktestResult.trades`.
    static func segments(_ fills: [Fill]) -> [Segment] {
        var out: [Segment] = []
        var position = 0.0, scale = 0.0
        for f in fills {
            let signed = f.side == .buy ? f.quantityFilled : -f.quantityFilled
            if abs(position) <= 1e-9 * max(scale, 1e-300) {
                out.append(Segment(long: f.side == .buy))
                position = 0
                scale = 0
            }
            if (signed > 0) == out[out.count - 1].long { out[out.count - 1].entries.append(f) } else { out[out.count - 1].exits.append(f) }
            position += signed
            scale = max(scale, abs(position))
        }
        return out
    }

    // MARK: - The trailing stop (orders.md, "Trailing stop")

    /// A price rounded to the tick against the position (a long's down).
    static func rounded(_ x: Double, long: Bool, tick: Double?) -> Double {
        guard let tick else { return x }
        return (x / tick).rounded(long ? .down : .up) * tick
    }

    /// The trailing level `distance` from `extreme` (a long's peak, a short's trough), read at
    /// `bar` for a price distance; NaN when the distance is not a positive number.
    static func trailLevel(_ distance: ExitDistance, values: [Double]?, from extreme: Double, bar: Int, long: Bool,
                           tick: Double?) -> Double {
        let raw: Double
        switch distance {
        case .fraction(let f): raw = long ? extreme * (1 - f) : extreme * (1 + f)
        case .price:
            let d = values![bar]
            guard d > 0, d.isFinite else { return .nan }
            raw = long ? extreme - d : extreme + d
        }
        return rounded(raw, long: long, tick: tick)
    }

    /// The tighter of two levels for the position (NaN: none).
    static func tighter(_ a: Double, _ b: Double, long: Bool) -> Double {
        if a.isNaN { return b }
        if b.isNaN { return a }
        return long ? max(a, b) : min(a, b)
    }

    /// Checks each trail exit of `r` whose trade had one entry fill and one exit fill: inside
    /// the bar it fills at the level in force at that bar's open, the ratchet max over the
    /// position's completed bars of peak − D (peak: the entry fill price, then the highs of those
    /// bars; before any, entry − D at the signal bar); at the open it is a gap through that
    /// level. Expression distances are checked with market entries only (a limit or stop
    /// order's signal bar is not in the result). Returns how many exits were checked.
    static func checkTrailExits(_ candles: CandleSeries, _ config: ExecutionConfig, _ r: BacktestResult,
                                sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        guard let trail = config.exits.trail else { return 0 }
        var values: [Double]?
        if case .price(let e) = trail { values = try [e].values(on: candles, cache: IndicatorCache())[0] }
        let segments = segments(r.fills)
        #expect(segments.count == r.trades.count, sourceLocation: sourceLocation)
        var checked = 0
        for (trade, seg) in zip(r.trades, segments) where trade.exitKind == .trail {
            guard seg.entries.count == 1, seg.exits.count == 1, let entryFill = seg.entries.first, let exitFill = seg.exits.first
            else { continue }
            let f = entryFill.index, x = exitFill.index, long = seg.long
            let market = config.entries.isMarket
            if values != nil && !market { continue }
            let atOpen = market ? config.fill == .nextOpen : entryFill.referencePrice == candles.open[f]
            let signalBar = config.fill == .nextOpen ? f - 1 : f
            let entry = trade.entryPrice
            var extreme = entry
            var level = trailLevel(trail, values: values, from: entry, bar: signalBar, long: long, tick: config.tick)
            for k in (atOpen ? f : f + 1)..<max(x, atOpen ? f : f + 1) {
                extreme = long ? max(extreme, candles.high[k]) : min(extreme, candles.low[k])
                level = tighter(level, trailLevel(trail, values: values, from: extreme, bar: k, long: long, tick: config.tick), long: long)
            }
            let o = candles.open[x], price = exitFill.referencePrice
            if !(price == o && x > f && (long ? o <= level : o >= level)) {
                // Not a gap through the level: inside the bar, at the level.
                #expect(price == level, "trade \(f)->\(x): trail exit at \(price), level in force \(level) (open \(o))",
                        sourceLocation: sourceLocation)
                #expect(long ? candles.low[x] <= level : candles.high[x] >= level, sourceLocation: sourceLocation)
            }
            checked += 1
        }
        return checked
    }

    // MARK: - The working entry order (orders.md, "Entries")

    /// A limit, stop or stop-limit entry as orders.md describes it, written apart from the engine.
    struct Order {
        var long: Bool
        var limit: Double   // NaN: none
        var stop: Double    // NaN: none
        var signal: Int
        var last: Int
        var triggered = false
        var triggerBar = -1

        /// Where the order fills on bar `t`, and how (an event name); nil when it does not.
        mutating func fill(_ t: Int, open o: Double, high h: Double, low l: Double) -> (price: Double, event: String)? {
            // A buy reaches its limit at or below it and its stop at or above it; a sell the other way.
            func atOrBetter(_ p: Double) -> Bool { long ? p <= limit : p >= limit }
            func atOrThrough(_ p: Double) -> Bool { long ? p >= stop : p <= stop }
            let hasLimit = !limit.isNaN, hasStop = !stop.isNaN
            let favourable = long ? l : h, adverse = long ? h : l
            if hasStop && !triggered {
                if atOrThrough(o) {
                    triggered = true; triggerBar = t
                    if !hasLimit { return (o, "stop at the open") }
                    if atOrBetter(o) { return (o, "stop-limit at the open") }
                    return atOrBetter(favourable) ? (limit, "stop-limit at the limit on the trigger bar") : nil
                }
                guard atOrThrough(adverse) else { return nil }
                triggered = true; triggerBar = t
                if !hasLimit { return (stop, "stop at the stop") }
                // Triggered inside the bar: at the stop when the limit is at or beyond it, else not on this bar.
                return atOrBetter(stop) ? (stop, "stop-limit at the stop") : nil
            }
            let waited = hasStop && triggerBar < t
            if atOrBetter(o) { return (o, waited ? "stop-limit waited, at the open" : "limit at the open") }
            if atOrBetter(favourable) { return (limit, waited ? "stop-limit waited, at the limit" : "limit at the limit") }
            return nil
        }
    }

    /// Checks every entry fill from flat of a run with limit or stop entries against `Order`,
    /// driven by the signals as orders.md places, replaces, cancels and expires orders, and
    /// returns the events seen (fills by kind, "expired", "replaced", "cancelled by an exit").
    ///
    /// Applies to next-open runs with one entry per position, no partial fill, no rejection and
    /// a sizing that always sizes (not risk or volatility): there every order the signals place
    /// is decided on the position at the signal bar's close (`r.position`) and fills whenever
    /// it reaches its price. Returns nil for other runs.
    static func checkEntryOrders(_ candles: CandleSeries, _ signals: Signals, _ config: ExecutionConfig, _ r: BacktestResult,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Int]? {
        guard !config.entries.isMarket, config.fill == .nextOpen, config.entries.pyramid == 1,
              r.rejected.isEmpty, !r.fills.contains(where: \.isPartial) else { return nil }
        switch config.sizing {
        case .risk, .volatility: return nil
        default: break
        }
        let n = candles.count
        let e = config.entries
        let exprs = [e.limit, e.stop, e.shortLimit, e.shortStop]
        let values = try exprs.map { try $0.map { try [$0].values(on: candles, cache: IndicatorCache())[0] } }
        // An entry whose exit distance expression is not yet defined places no order (orders.md).
        let distances = try config.exits.expressions.map { try [$0].values(on: candles, cache: IndicatorCache())[0] }
        func unprotected(_ t: Int) -> Bool { !config.allowUnprotected && distances.contains { !($0[t] > 0 && $0[t].isFinite) } }
        // Entry fills from flat, by bar.
        var entryFills: [Int: Fill] = [:]
        for s in segments(r.fills) { if let f = s.entries.first { entryFills[f.index] = f } }
        var matched = Set<Int>()
        var events: [String: Int] = [:]
        var order: Order?
        let allowShort = config.allowShort
        let shortEntries = signals.shortEntries ?? signals.exits, shortExits = signals.shortExits ?? signals.entries
        for t in 0..<n {
            if var w = order {
                if let (price, event) = w.fill(t, open: candles.open[t], high: candles.high[t], low: candles.low[t]) {
                    order = nil
                    events[event, default: 0] += 1
                    let f = entryFills[t]
                    #expect(f != nil && f!.side == (w.long ? .buy : .sell) && f!.referencePrice == price,
                            "bar \(t): the order of bar \(w.signal) fills \(event) at \(price); bt: \(f.map { "\($0.side) at \($0.referencePrice)" } ?? "no fill")",
                            sourceLocation: sourceLocation)
                    matched.insert(t)
                } else {
                    order = w
                    if t >= w.last { order = nil; events["expired", default: 0] += 1 }
                }
            }
            // The close: the signals decide on the position after the bar's fills.
            let p = r.position[t]
            let x = signals.exits[t], en = signals.entries[t]
            let entry = en && !x, exit = x && !en
            let se = allowShort && shortEntries[t], sx = allowShort && shortExits[t]
            let shortEntry = se && !sx
            var place: Bool? = nil   // the side of a new order: true long
            if p == 0 {
                if entry && !shortEntry { place = true } else if shortEntry && !entry { place = false }
            } else if p > 0 {
                if shortEntry { place = false }
            } else if entry {
                place = true
            }
            if let long = place {
                if order != nil { events["replaced", default: 0] += 1 }
                let limit = (long ? values[0] : values[2])?[t] ?? .nan
                let stop = (long ? values[1] : values[3])?[t] ?? .nan
                let hasLimit = (long ? e.limit : e.shortLimit) != nil, hasStop = (long ? e.stop : e.shortStop) != nil
                if (hasLimit && !(limit > 0 && limit.isFinite)) || (hasStop && !(stop > 0 && stop.isFinite)) || unprotected(t) {
                    order = nil
                } else {
                    order = Order(long: long, limit: limit, stop: stop, signal: t, last: t + e.orderBars)
                }
            } else if p == 0, let w = order, w.long ? exit : (sx && !se) {
                order = nil
                events["cancelled by an exit", default: 0] += 1
            }
        }
        let unexpected = Set(entryFills.keys).subtracting(matched).sorted()
        #expect(unexpected.isEmpty, "entry fills no working order explains, at bars \(unexpected.prefix(5))", sourceLocation: sourceLocation)
        return events
    }
}
