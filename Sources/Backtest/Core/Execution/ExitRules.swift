/// How far from a price an exit level lies.
public enum ExitDistance: Sendable, Hashable {
    /// A fraction of the price (0.05 = 5%): a long's stop at entry × (1 − 0.05).
    case fraction(Double)
    /// A distance in price, the expression's value (`2 * atr(14)`): a long's stop at entry − D.
    case price(PriceExpression)
}

/// A take-profit level and how much of the trade it sells.
public struct TakeProfit: Sendable, Hashable {
    public var distance: ExitDistance
    /// The share of the quantity bought in the trade this target sells (0 < share <= 1); nil:
    /// what is left.
    public var share: Double?

    public init(_ distance: ExitDistance, share: Double? = nil) {
        self.distance = distance
        self.share = share
    }
}

/// What a trailing stop follows (`--trail-from`).
public enum TrailAnchor: String, Sendable, Hashable, CaseIterable {
    /// The peak of the fill price and the highs of the position's completed bars (a short's
    /// trough of the lows): the level is peak − D, and it only tightens.
    case high
    /// Each close of the position's bars, from the entry bar's on: the level is close − D at
    /// that close (a short's close + D), and it only tightens; none before the first such close
    /// (a fill at a bar's close starts it at that fill's price). backtesting.py's
    /// `TrailingStrategy` (`backtesting/lib.py`): `trade.sl = max(trade.sl, close − n × ATR)`
    /// after every bar.
    case close
}

/// The exits attached to every position (docs/design/orders.md, "Exits attached to the
/// position"): levels measured from the entry fill price, checked on every bar of the position.
public struct ExitRules: Sendable, Hashable {
    /// `--sl`: the stop-loss distance below a long's entry (above a short's).
    public var stopLoss: ExitDistance?
    /// `--tp`: targets, each selling its share once; at most one without a share (the rest).
    public var takeProfits: [TakeProfit] = []
    /// `--trail`: the trailing stop's distance below the peak since entry.
    public var trail: ExitDistance?
    /// `--trail-from`: what the trailing stop follows.
    public var trailFrom: TrailAnchor = .high
    /// Whether a fill at a bar's open has that bar's range checked and its high (low) in the
    /// peak (trough). False: levels are checked from the bar after the fill bar and the peak
    /// leaves the fill bar out, as vectorbt's `from_signals` (`Conventions.vectorbt`).
    public var checksFillBar = true
    /// Whether a signal exit due at a bar's open waits for the attached exits to be checked on
    /// that whole bar (stop, trail and targets as on any bar, gaps at the open included): one
    /// the bar reaches fills, and the signal exit fills at the open only if the position is
    /// still open. backtesting.py processes its contingent stop-loss and take-profit orders before
    /// a `position.close()` order, vectorbt checks stops before signals (`Conventions`); bt's own
    /// rule (false) fills the signal exit at the open first.
    public var levelsBeforeSignalExit = false
    /// `--breakeven`: once the peak is this fraction above the entry, the stop moves to the entry.
    public var breakeven: Double?
    /// `--exit-after`: leave at the open this many bars after the entry bar.
    public var exitAfterBars: Int?

    public init(stopLoss: ExitDistance? = nil, takeProfits: [TakeProfit] = [], trail: ExitDistance? = nil,
                breakeven: Double? = nil, exitAfterBars: Int? = nil) {
        self.stopLoss = stopLoss
        self.takeProfits = takeProfits
        self.trail = trail
        self.breakeven = breakeven
        self.exitAfterBars = exitAfterBars
    }

    /// No attached exit at all.
    public var isEmpty: Bool {
        stopLoss == nil && takeProfits.isEmpty && trail == nil && breakeven == nil && exitAfterBars == nil
    }

    /// Levels to watch inside bars (stop, targets, trail, break-even).
    var hasLevels: Bool { stopLoss != nil || !takeProfits.isEmpty || trail != nil || breakeven != nil }

    /// The expressions the distances read, in a fixed order (stop, targets, trail).
    var expressions: [PriceExpression] {
        var out: [PriceExpression] = [], seen: Set<PriceExpression> = []
        func add(_ d: ExitDistance?) { if case .price(let e)? = d, seen.insert(e).inserted { out.append(e) } }
        add(stopLoss)
        for t in takeProfits { add(t.distance) }
        add(trail)
        return out
    }

    /// Throws `InputError` naming the setting for a distance, share or count out of range.
    func validate() throws {
        func check(_ d: ExitDistance?, _ what: String, _ setting: Setting, belowOne: Bool) throws {
            guard case .fraction(let f)? = d else { return }
            guard f > 0, f.isFinite, !belowOne || f < 1 else {
                throw InputError("\(what) must be \(belowOne ? "between 0% and 100%" : "above 0%")", setting: setting)
            }
        }
        try check(stopLoss, "stop-loss", .stopLoss, belowOne: true)
        for t in takeProfits { try check(t.distance, "take-profit", .takeProfit, belowOne: false) }
        try check(trail, "a trailing stop", .trail, belowOne: true)
        var shares = 0.0
        for t in takeProfits {
            guard let s = t.share else { continue }
            guard s > 0, s <= 1 else {
                throw InputError("a target's share must be above 0% and at most 100%", setting: .takeProfit)
            }
            shares += s
        }
        if shares > 1 + 1e-12 {
            throw InputError("the targets' shares add up to \(NumberText.shortest(shares * 100))%: at most 100%", setting: .takeProfit)
        }
        if takeProfits.filter({ $0.share == nil }).count > 1 {
            throw InputError("only one target may sell the rest (a \(Setting.takeProfit.mention) without @SHARE)", setting: .takeProfit)
        }
        if let b = breakeven, !(b > 0 && b.isFinite) {
            throw InputError("the break-even move needs a gain above 0%", setting: .breakeven)
        }
        if let n = exitAfterBars, n < 1 {
            throw InputError("a time exit needs at least 1 bar", setting: .exitAfter, value: String(n))
        }
        if trailFrom != .high && trail == nil {
            throw InputError(.needsSetting, "\(Setting.trailFrom.mention) \(trailFrom.rawValue) says what a trailing stop follows: it needs one",
                             setting: .trail)
        }
    }
}
