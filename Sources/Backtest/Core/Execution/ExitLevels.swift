/// The levels of the exits attached to one open position (docs/design/orders.md): stop-loss,
/// targets, trailing stop, break-even, time exit, and the peak and trough they follow.
///
/// Levels are prices rounded to the tick against the position (a long's down). NaN: no level.
struct ExitLevels {
    /// The expression distances' values on the symbol's candles (nil: a fraction, or none).
    struct Distances {
        var stopLoss: [Double]?
        var takeProfits: [[Double]?] = []
        var trail: [Double]?
        init(stopLoss: [Double]? = nil, takeProfits: [[Double]?] = [], trail: [Double]? = nil) {
            self.stopLoss = stopLoss; self.takeProfits = takeProfits; self.trail = trail
        }
    }

    let rules: ExitRules
    let distances: Distances
    /// Whether anything is watched inside bars (a level, or the time exit).
    let isActive: Bool
    /// Whether the peak and trough are kept (trailing stop, break-even, position-aware rules).
    var tracksPeak: Bool {
        didSet { armsLevels = isActive || tracksPeak }
    }
    /// Whether an entry sets anything here (else `arm` is skipped at the call).
    private(set) var armsLevels: Bool

    var long = true
    var stop = Double.nan
    var trail = Double.nan
    var peak = Double.nan
    var trough = Double.nan
    /// The first bar whose range is checked: the fill bar for a fill at its open, else the next
    /// (always the next when `rules.checksFillBar` is false).
    var firstCheckBar = Int.max
    /// The first entry's fill bar: a trail from the close follows the closes from it on.
    var trailStartBar = Int.max
    /// `rules.trailFrom == .close`, read once.
    let trailsCloses: Bool
    /// The bar at whose open the time exit is due.
    var timeExitBar = Int.max
    var breakevenDone = false
    /// Target levels in the order of `rules.takeProfits` (NaN: undefined at the entry).
    var targets: [Double]
    /// Whether each target has fired (each fires once per trade): set by `markFired`.
    private(set) var fired: [Bool]
    /// Indexes into `targets`, nearest first (sorted when armed).
    private(set) var targetOrder: [Int]
    /// Where `nearestTarget()` resumes in `targetOrder`: every target before it has fired or has
    /// no level, and stays so until the next `arm` (which sorts again and starts over). Targets
    /// fire nearest first, so a bar that fires thousands of them, or a long trade checking its
    /// remaining ones on every bar, looks at each once instead of from the start every time.
    private var cursor = 0
    /// Times each distance in price was read and was not a positive number, so its level was
    /// not set (or the trailing stop not moved): the run's `unsetExitLevels` warning.
    var unsetLevels = UnsetLevels()
    /// Entries not taken because an exit's distance in price was not yet defined at their
    /// signal bar, by the first such exit (`undefinedExit`): the run's `unprotectedEntries`.
    var unprotectedEntries = UnsetLevels()
    /// Whether any distance is an expression (else every level is defined at every bar).
    let readsPrices: Bool
    /// The rules' distances as the levels read them, without their expressions: reading a
    /// distance on every bar then copies no reference (a stop, each target, the trail).
    private let stopReach: Reach?, targetReaches: [Reach], trailReach: Reach?

    /// What a level needs of an `ExitDistance`: the fraction, or that its values are the price
    /// distances in `distances`.
    enum Reach {
        case fraction(Double)
        case price

        init(_ distance: ExitDistance) {
            switch distance {
            case .fraction(let f): self = .fraction(f)
            case .price: self = .price
            }
        }
    }

    init(_ rules: ExitRules, distances: Distances) {
        self.rules = rules
        self.distances = distances
        stopReach = rules.stopLoss.map(Reach.init)
        targetReaches = rules.takeProfits.map { Reach($0.distance) }
        trailReach = rules.trail.map(Reach.init)
        trailsCloses = rules.trailFrom == .close
        readsPrices = !rules.expressions.isEmpty
        isActive = !rules.isEmpty
        tracksPeak = rules.trail != nil || rules.breakeven != nil
        armsLevels = isActive || tracksPeak
        targets = [Double](repeating: .nan, count: rules.takeProfits.count)
        fired = [Bool](repeating: false, count: rules.takeProfits.count)
        targetOrder = Array(rules.takeProfits.indices)
    }

    /// A level `distance` from `price`, below it (`below`) or above, rounded against a long
    /// (`long`) or a short: a fraction f gives price × (1 ∓ f), a price distance D gives price ∓ D
    /// with D read at `bar` (a D that is not a positive number gives no level).
    static func level(_ distance: Reach, values: [Double]?, from price: Double, below: Bool, bar: Int,
                      long: Bool, tick: Double?) -> Double {
        let raw: Double
        switch distance {
        case .fraction(let f): raw = below ? price * (1 - f) : price * (1 + f)
        case .price:
            let d = values.map { bar >= 0 && bar < $0.count ? $0[bar] : .nan } ?? .nan
            guard d > 0, d.isFinite else { return .nan }
            raw = below ? price - d : price + d
        }
        return rounded(raw, long: long, tick: tick)
    }

    /// `price` rounded to the tick against the position (down for longs, up for shorts).
    static func rounded(_ price: Double, long: Bool, tick: Double?) -> Double {
        guard let tick else { return price }
        return (price / tick).rounded(long ? .down : .up) * tick
    }

    /// Sets the levels from the (new) average entry price after an entry fill on `bar`. The first
    /// entry starts the peak, the checks and the time exit; an added entry moves the stop and the
    /// targets still to fire to the new average and keeps the rest.
    mutating func arm(entry: Double, long: Bool, first: Bool, bar: Int, atOpen: Bool, signalBar: Int, tick: Double?) {
        self.long = long
        if first {
            peak = entry
            trough = entry
            trail = .nan
            breakevenDone = false
            firstCheckBar = atOpen && rules.checksFillBar ? bar : bar + 1
            trailStartBar = bar
            timeExitBar = rules.exitAfterBars.map { bar.barsLater($0) } ?? .max
            for i in fired.indices { fired[i] = false }
        } else {
            peak = long ? Swift.max(peak, entry) : peak
            trough = long ? trough : Swift.min(trough, entry)
        }
        if let d = stopReach {
            stop = Self.level(d, values: distances.stopLoss, from: entry, below: long, bar: signalBar, long: long, tick: tick)
            unsetLevels.stopLoss += Self.unset(d, stop)
        } else {
            stop = .nan
        }
        if breakevenDone { stop = Self.tighter(stop, Self.rounded(entry, long: long, tick: tick), long: long) }
        for (i, reach) in targetReaches.enumerated() where !fired[i] {
            let values = i < distances.takeProfits.count ? distances.takeProfits[i] : nil
            targets[i] = Self.level(reach, values: values, from: entry, below: !long, bar: signalBar, long: long, tick: tick)
            unsetLevels.takeProfit += Self.unset(reach, targets[i])
        }
        sortTargets()
        if let d = trailReach, !trailsCloses || (first && !atOpen && signalBar == bar) {
            // From the close, a fill at a bar's close starts the level at its price: that close
            // has passed (`close(bar:)` ran before the fill); any other fill waits for its bar's close.
            let level = Self.level(d, values: distances.trail, from: long ? peak : trough, below: long, bar: signalBar, long: long, tick: tick)
            unsetLevels.trail += Self.unset(d, level)
            trail = Self.tighter(trail, level, long: long)
        }
    }

    /// The first attached exit (stop-loss, a target, the trail) whose distance in price is not
    /// a positive number at `bar`: an entry decided there would be taken without it. Nil when
    /// every exit would have a level.
    func undefinedExit(at bar: Int) -> Setting? {
        guard readsPrices else { return nil }
        func undefined(_ reach: Reach?, _ values: [Double]?) -> Bool {
            guard case .price? = reach else { return false }
            let d = values.map { bar >= 0 && bar < $0.count ? $0[bar] : .nan } ?? .nan
            return !(d > 0 && d.isFinite)
        }
        if undefined(stopReach, distances.stopLoss) { return .stopLoss }
        for (i, reach) in targetReaches.enumerated() where undefined(reach, i < distances.takeProfits.count ? distances.takeProfits[i] : nil) {
            return .takeProfit
        }
        return undefined(trailReach, distances.trail) ? .trail : nil
    }

    /// Counts an entry not taken for `exit` (`unprotectedEntries`).
    mutating func countUnprotected(_ exit: Setting) {
        switch exit {
        case .stopLoss: unprotectedEntries.stopLoss += 1
        case .takeProfit: unprotectedEntries.takeProfit += 1
        default: unprotectedEntries.trail += 1
        }
    }

    /// Whether a distance in price gave no level (`unsetLevels` counts these).
    @inline(__always)
    private static func unset(_ distance: Reach, _ level: Double) -> Int {
        if level.isNaN, case .price = distance { return 1 }
        return 0
    }

    /// Forgets the levels (the position is flat).
    mutating func disarm() {
        stop = .nan; trail = .nan; peak = .nan; trough = .nan
        firstCheckBar = .max; timeExitBar = .max; trailStartBar = .max
    }

    /// The tighter of two stop levels for the position (a long's higher); NaN counts as none.
    /// Static, so a call copies no levels (the struct is hundreds of bytes).
    @inline(__always)
    static func tighter(_ a: Double, _ b: Double, long: Bool) -> Double {
        if a.isNaN { return b }
        if b.isNaN { return a }
        return long ? Swift.max(a, b) : Swift.min(a, b)
    }

    /// The stop in force: the tighter of the stop-loss and the trailing stop.
    @inline(__always)
    var effectiveStop: Double { Self.tighter(stop, trail, long: long) }

    /// Whether the trailing stop is the one in force (strictly tighter than the stop-loss).
    @inline(__always)
    var trailBinds: Bool {
        guard !trail.isNaN else { return false }
        return stop.isNaN || (long ? trail > stop : trail < stop)
    }

    /// The nearest target still to fire (an index into `targets`), or nil: the first in
    /// `targetOrder` that has not fired and has a level.
    /// - Complexity: amortized O(1) over a trade's calls (see `cursor`).
    mutating func nearestTarget() -> Int? {
        while cursor < targetOrder.count, fired[targetOrder[cursor]] || targets[targetOrder[cursor]].isNaN { cursor += 1 }
        return cursor < targetOrder.count ? targetOrder[cursor] : nil
    }

    /// Target `i` has fired: it is not checked again in this trade (until an entry starts a new
    /// one). A target that sells what is left is not marked: it stays armed for a remainder.
    mutating func markFired(_ i: Int) {
        fired[i] = true
    }

    /// Orders `targetOrder` nearest first, NaN levels last; targets at the same level keep their
    /// order (a stable sort of the current order). A few targets (the usual case, sorted on every
    /// entry) are sorted in place by insertion; thousands, whose insertion sort is O(n²), by
    /// their keys in O(n log n).
    private mutating func sortTargets() {
        cursor = 0
        guard targetOrder.count > 1 else { return }
        let levels = targets, long = self.long
        func key(_ i: Int) -> Double {
            let v = levels[i]
            if v.isNaN { return .infinity }
            return long ? v : -v
        }
        guard targetOrder.count <= 32 else {
            let keys = targetOrder.map(key)
            targetOrder = targetOrder.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }.map { targetOrder[$0] }
            return
        }
        for i in 1..<targetOrder.count {
            let x = targetOrder[i]
            var k = i
            while k > 0 && key(x) < key(targetOrder[k - 1]) { targetOrder[k] = targetOrder[k - 1]; k -= 1 }
            targetOrder[k] = x
        }
    }

    /// The bar `bar` is complete: when it is one of the position's bars, the peak and trough take
    /// its high and low, then the trailing stop (an expression distance read at this bar) and the
    /// break-even move follow them. A fill bar whose range is not the position's (a fill at the
    /// close or inside the bar) moves nothing: the level stays the entry's until the next bar.
    ///
    /// A trail from the close (`TrailAnchor.close`) follows every close of the position's bars
    /// from the fill bar's on, `close` − D read at this bar, whatever the fill point.
    mutating func close(bar: Int, high: Double, low: Double, close: Double, entry: Double, tick: Double?) {
        guard tracksPeak, !peak.isNaN else { return }
        if trailsCloses, bar >= trailStartBar, let d = trailReach {
            let level = Self.level(d, values: distances.trail, from: close, below: long, bar: bar, long: long, tick: tick)
            unsetLevels.trail += Self.unset(d, level)
            trail = Self.tighter(trail, level, long: long)
        }
        guard bar >= firstCheckBar else { return }
        peak = Swift.max(peak, high)
        trough = Swift.min(trough, low)
        if !trailsCloses, let d = trailReach {
            let level = Self.level(d, values: distances.trail, from: long ? peak : trough, below: long, bar: bar, long: long, tick: tick)
            unsetLevels.trail += Self.unset(d, level)
            trail = Self.tighter(trail, level, long: long)
        }
        if let b = rules.breakeven, !breakevenDone, long ? peak >= entry * (1 + b) : trough <= entry * (1 - b) {
            breakevenDone = true
            stop = Self.tighter(stop, Self.rounded(entry, long: long, tick: tick), long: long)
        }
    }
}

/// How many times each exit's distance in price was not a positive number where it was read.
struct UnsetLevels {
    var stopLoss = 0, takeProfit = 0, trail = 0

    var total: Int { stopLoss + takeProfit + trail }

    static func + (a: UnsetLevels, b: UnsetLevels) -> UnsetLevels {
        UnsetLevels(stopLoss: a.stopLoss + b.stopLoss, takeProfit: a.takeProfit + b.takeProfit, trail: a.trail + b.trail)
    }
}
