/// How the simulated broker executes a strategy's signals: timing, sizing, costs, stops,
/// instrument rules and the liquidity model.
public struct ExecutionConfig: Sendable {
    /// When a signal decided at bar t's close is executed.
    public enum FillTiming: String, Sendable, CaseIterable {
        /// At bar t+1's open (the default; no look-ahead).
        case nextOpen = "next-open"
        /// At bar t's own close (the classic vectorized shortcut).
        case close
    }

    /// How large an opening order is (docs/design/orders.md, "Sizing").
    public enum Sizing: Sendable, Equatable {
        /// A share of equity in (0, leverage]; 1 means all in (more: a margin account's
        /// leverage). The budget includes the fee.
        case equityFraction(Double)
        /// A fixed number of units.
        case units(Double)
        /// A fixed notional in cash (the fee comes on top).
        case cash(Double)
        /// Risk this share of equity between the entry and the initial stop (needs a stop-loss):
        /// units = share × equity / stop distance, capped by the cash.
        case risk(Double)
        /// Target this annualised volatility: min(1, target / (σ × √periods per year)) of equity,
        /// σ the standard deviation of the last 20 one-bar returns at the signal bar.
        case volatility(Double)

        /// Parses `100%`, `25%`, `10u`, `5000$`, `risk:1%`, `vol:15%`.
        public static func parse(_ text: String) throws -> Sizing {
            for (prefix, make, bound) in [("risk:", Sizing.risk, 100.0), ("vol:", Sizing.volatility, 1_000.0)] where text.hasPrefix(prefix) {
                let rest = String(text.dropFirst(prefix.count))
                guard rest.hasSuffix("%"), let v = Double(rest.dropLast()), v > 0, v <= bound else {
                    throw InputError("\(prefix) takes a percentage above 0% and at most \(NumberText.shortest(bound))%, e.g. \(prefix)\(prefix == "risk:" ? "1" : "15")%",
                                     setting: .size, value: text)
                }
                return make(v / 100)
            }
            let body = String(text.dropLast())
            let value = Double(body)
            switch (text.last, value) {
            case ("%", let v?) where v > 0 && v <= 100 * ExecutionConfig.largestLeverage: return .equityFraction(v / 100)
            case ("u", let v?) where v > 0 && v.isFinite: return .units(v)
            case ("$", let v?) where v > 0 && v.isFinite: return .cash(v)
            default:
                // A bare number has no unit: backtesting.py reads 0.5 as half the equity and 10
                // as ten units; bt asks which is meant.
                if let v = Double(text), v > 0, v.isFinite {
                    let share = v <= 1 ? "\(NumberText.shortest(v * 100))% (that share of the equity), " : ""
                    throw InputError("a size needs a unit: write \(share)\(text)u (units) or \(text)$ (cash)",
                                     setting: .size, value: text)
                }
                throw InputError("not one of N% (0 < N <= 100, or 100 × the leverage), Nu (units), N$ (cash), risk:N% or vol:N%",
                                 setting: .size, value: text)
            }
        }

        /// As the command line writes it: `100%`, `10u`, `5000$`, `risk:1%`, `vol:15%`.
        public var text: String {
            func number(_ v: Double) -> String { RunParameter("", .double(v)).text }
            switch self {
            case .equityFraction(let f): return number(f * 100) + "%"
            case .units(let u): return number(u) + "u"
            case .cash(let c): return number(c) + "$"
            case .risk(let r): return "risk:" + number(r * 100) + "%"
            case .volatility(let v): return "vol:" + number(v * 100) + "%"
            }
        }
    }

    /// Where fills get their liquidity.
    public enum Depth: Sendable {
        /// Every order fills completely at the reference price (plus fees), subject only to the
        /// participation cap.
        case none
        /// Every order fills completely at the reference price moved against it by a fixed number
        /// of basis points (backtesting.py's and vectorbt's `slippage`), subject only to the
        /// participation cap.
        case fixedSlippage(bps: Double)
        /// A model book for each fill from the bars before it (or a calibrated profile); see
        /// `SyntheticDepth`.
        case synthetic
        /// Recorded L2 events sorted by time; a fill uses the book after every event at or before
        /// its millisecond (`BookReplay`).
        case book([BookEvent])

        public var name: String {
            switch self {
            case .none: "none"
            case .fixedSlippage: "fixed"
            case .synthetic: "synthetic"
            case .book: "book"
            }
        }
    }

    public var initialCash: Double = 10_000
    public var fill: FillTiming = .nextOpen
    /// When true, exits reverse into a short and entries reverse out of one.
    public var allowShort = false
    /// When true, an entry is taken even while an attached exit's expression distance is not
    /// yet defined at its signal bar (it then has no such exit); else it is not taken.
    public var allowUnprotected = false
    /// The tool whose defaults and rules this configuration reproduces (`Conventions`); nil: bt's own.
    public var conventions: Conventions?
    public var sizing: Sizing = .equityFraction(1)
    /// Fee in basis points of each fill's notional.
    public var feeBps: Double = 10
    /// Minimum fee per fill, in cash (a floor on charges, not on maker rebates; `FeeSchedule`).
    public var feeMin: Double = 0
    /// Fee per unit filled (per share, contract or coin), in cash, on top of the rate.
    public var feePerUnit: Double = 0
    /// Fee in basis points of notional for maker fills (orders that rested: `FeeSchedule`);
    /// negative for a rebate; nil: `feeBps`.
    public var makerBps: Double?
    /// The most a fill pays, as a fraction of its notional (0.01 = 1%); nil: no cap. The cap
    /// wins over `feeMin`.
    public var feeMax: Double?
    /// Annual borrow fee on a short's notional, in basis points a year: at each close a short
    /// is held, cash pays borrowBps / 10 000 × |quantity| × close × the bar's duration in days / 365
    /// (ACT/365; `PositionLedger.chargeBorrow`). 0: shorts cost nothing to hold.
    public var borrowBps: Double = 0
    /// The account's leverage, 1 to 125 (docs/design/orders.md, "Margin"): `N%` sizes up to
    /// N = 100 × leverage, and a position's initial margin is its notional / leverage. 1 on spot
    /// is the cash account (no margin, no liquidation).
    public var leverage: Double = 1
    /// What backs a margin account's position: the account's equity, or the position's margin.
    public var margin: MarginMode = .cross
    /// What is traded: spot, a perpetual (which pays `funding`) or a dated future.
    public var instrument: Instrument = .spot
    /// The maintenance margin rate as a fraction, below 1 / leverage; nil: the instrument's
    /// default (`Instrument.defaultMaintenanceRate`).
    public var mmr: Double?
    /// The fee of a liquidation in basis points of its notional (instead of the trading fee).
    public var liqFeeBps: Double = 0
    /// Units of the underlying in one contract (perpetuals and futures): a quantity counts
    /// contracts and its notional is quantity × multiplier × price (docs/design/orders.md,
    /// "Margin", Contracts). 1: a unit is a unit of the underlying.
    public var multiplier: Double = 1
    /// Annual interest on cash below 0 (a leveraged spot long's borrowed cash), as a fraction a
    /// year, charged at each close like borrow (ACT/365). 0: none.
    public var marginRate: Double = 0
    /// A perpetual's funding rows in time order (the symbol's stored ones); see "Funding".
    public var funding: [FundingRate] = []
    /// How entry signals become orders: market (the default), limit, stop or stop-limit, how long
    /// they work, and how many entries a position takes.
    public var entries = EntryRules()
    /// The exits attached to every position: stop-loss, take-profits, trailing stop, break-even,
    /// time exit.
    public var exits = ExitRules()
    /// Bars per year, for `--size vol:` (nil: that sizing cannot be used).
    public var periodsPerYear: Double?

    /// The stop-loss distance as a fraction of the entry price (0.05 = 5%), when it is one.
    public var stopLoss: Double? {
        get { if case .fraction(let f)? = exits.stopLoss { return f } else { return nil } }
        set { exits.stopLoss = newValue.map { .fraction($0) } }
    }

    /// The take-profit distance as a fraction of the entry price, when there is exactly one
    /// target, selling everything, at a fraction.
    public var takeProfit: Double? {
        get {
            guard exits.takeProfits.count == 1, exits.takeProfits[0].share == nil,
                  case .fraction(let f) = exits.takeProfits[0].distance else { return nil }
            return f
        }
        set { exits.takeProfits = newValue.map { [TakeProfit(.fraction($0))] } ?? [] }
    }
    /// Price increment; spaces synthetic levels and rounds stop prices.
    public var tick: Double?
    /// Quantity increment: opening quantities round down to a multiple.
    public var lot: Double?
    /// Opening orders with a smaller notional (quantity x reference price) are rejected.
    public var minNotional: Double?
    /// Cap on an order's quantity as a share of the fill bar's volume; nil or 0 turns it off.
    public var maxParticipation: Double? = 0.1
    public var depth: Depth = .synthetic
    /// Parameters of the synthetic book (used when `depth` is `.synthetic`).
    public var synthetic = SyntheticDepth()
    /// With `depth` `.book`: what earlier runs over the same growing recording found, shared
    /// with the runs after this one (`bt live`); the result is the same without it.
    package var bookCheckpoints: BookCheckpoints?

    public init() {}

    /// Fee rate as a fraction of notional.
    public var feeRate: Double { feeBps / 10_000 }

    /// The fee rules of every fill: the rates, per-unit fee, minimum and cap.
    public var fees: FeeSchedule {
        FeeSchedule(takerRate: feeRate, makerRate: makerBps.map { $0 / 10_000 }, perUnit: feePerUnit, minimum: feeMin, cap: feeMax)
    }

    /// True for a margin account: leverage above 1 or an instrument other than spot. A cash
    /// account (spot at leverage 1) never borrows cash and is never liquidated.
    public var isMarginAccount: Bool { leverage > 1 || instrument != .spot }

    /// The maintenance margin rate in force: `mmr`, else the instrument's default.
    public var maintenanceRate: Double { mmr ?? instrument.defaultMaintenanceRate }

    /// The largest leverage accepted (Binance's highest on its perpetuals).
    public static let largestLeverage = 125.0

    /// The annual borrow rate as a fraction (`borrowBps` / 10 000).
    public var borrowRate: Double { borrowBps / 10_000 }

    /// The largest `borrowBps` accepted: 1000% a year, above the fees of the hardest-to-borrow
    /// stocks (a few hundred percent a year at their peaks).
    public static let largestBorrowBps = 100_000.0

    /// The most negative `makerBps` accepted: a rebate of 1% of notional, far beyond any
    /// exchange's (the largest published maker rebates are a few basis points).
    public static let largestRebateBps = 100.0

    /// True when fills meet the candle-only model book with its spread estimated from the bars
    /// (the Corwin-Schultz pairs are read), not given.
    var estimatesSpreadFromBars: Bool {
        if case .synthetic = depth { return synthetic.spreadBps == nil }
        return false
    }

    /// The largest cash amount or quantity accepted (a quadrillion): far above any account, far
    /// enough below overflow that equity, fees and notionals stay finite.
    public static let largestAmount = 1e15

    /// Throws `InputError` naming the setting and its value when a value is out of range.
    public func validate() throws {
        /// `showsValue` is false for fractions, which the caller gave as percentages.
        func check(_ value: Double?, _ ok: (Double) -> Bool, _ setting: Setting, _ why: String,
                   showsValue: Bool = true) throws {
            guard let value, !ok(value) else { return }
            throw InputError(why, setting: setting, value: showsValue ? NumberText.shortest(value) : nil)
        }
        try check(initialCash, { $0 > 0 && $0 <= Self.largestAmount }, .cash, "initial cash must be a positive number up to 1e15")
        try validateAccount()
        try check(feeMin, { $0 <= Self.largestAmount }, .feeMin, "minimum fee must be at most 1e15")
        try check(minNotional, { $0 <= Self.largestAmount }, .minNotional, "minimum notional must be at most 1e15")
        switch sizing {
        case .units(let v), .cash(let v):
            guard v <= Self.largestAmount else {
                throw InputError("an order size must be at most 1e15", setting: .size, value: NumberText.shortest(v))
            }
        case .equityFraction(let share):
            guard share <= leverage * (1 + 1e-12) else {
                let most = NumberText.shortest(leverage * 100)
                throw InputError("is more than the leverage allows: at most \(most)% of equity at leverage \(NumberText.shortest(leverage))"
                                 + (leverage == 1 ? " (a margin account with \(Setting.leverage.mention) N sizes up to N × 100%)" : ""),
                                 setting: .size, value: sizing.text)
            }
        case .risk:
            guard exits.stopLoss != nil else {
                throw InputError(.needsSetting, "sizing by risk needs a stop-loss: the risk is the distance to it", setting: .stopLoss)
            }
        case .volatility:
            guard let p = periodsPerYear, p > 0, p.isFinite else {
                throw InputError(.needsSetting, "sizing by volatility needs the bars per year", setting: .periodsPerYear)
            }
        }
        try check(feeBps, { $0 >= 0 && $0 < 10_000 }, .feeBps, "fee must be in [0, 10000) basis points")
        try check(feeMin, { $0 >= 0 }, .feeMin, "minimum fee must be >= 0")
        try check(feePerUnit, { $0 >= 0 && $0 <= Self.largestAmount }, .feePerUnit, "fee per unit must be in [0, 1e15]")
        try check(makerBps, { $0 >= -Self.largestRebateBps && $0 < 10_000 }, .makerBps,
                  "maker fee must be in [-100, 10000) basis points (negative: a rebate of at most 1%)")
        try check(feeMax, { $0 > 0 && $0 <= 1 }, .feeMax, "fee cap must be above 0% and at most 100% of the notional",
                  showsValue: false)
        try check(borrowBps, { $0 >= 0 && $0 <= Self.largestBorrowBps }, .borrowBps,
                  "borrow fee must be in [0, 100000] basis points a year (at most 1000% a year)")
        try exits.validate()
        try entries.validate(allowShort: allowShort)
        try check(tick, { $0 > 0 }, .tick, "tick must be positive")
        try check(lot, { $0 > 0 }, .lot, "lot must be positive")
        try check(minNotional, { $0 >= 0 }, .minNotional, "minimum notional must be >= 0")
        try check(maxParticipation, { $0 >= 0 && $0 <= 1 }, .maxParticipation, "participation must be between 0 and 1")
        if case .fixedSlippage(let bps) = depth {
            try check(bps, { $0 >= 0 && $0 < 10_000 }, .slippageBps, "slippage must be in [0, 10000) basis points")
        }
        try synthetic.validate()
    }

    /// Parses `5%` or `0.05` into a fraction; a bad text is an `InputError` naming `setting`.
    /// A stop or target distance: `5%`, or a fraction of the entry price below 1 (`0.05`). A
    /// bare number of 1 or more is refused with the percentage it would be (`5` is 500%), the
    /// mistake of a user who means five percent.
    /// `whole` names what the fraction is of (a fee cap's: the notional).
    public static func parseDistance(_ text: String, setting: Setting, of whole: String = "the entry price") throws -> Double {
        let v = try parseFraction(text, setting: setting)
        if !text.hasSuffix("%"), v >= 1 {
            throw InputError("a bare number is a fraction of \(whole) (\(text) is \(NumberText.shortest(v * 100))%): "
                             + "write \(text)% for \(text) percent", setting: setting, value: text)
        }
        return v
    }

    public static func parseFraction(_ text: String, setting: Setting) throws -> Double {
        let percent = text.hasSuffix("%")
        guard let v = Double(percent ? String(text.dropLast()) : text), v.isFinite else {
            throw InputError("not a percentage like 5%", setting: setting, value: text)
        }
        return percent ? v / 100 : v
    }
}
