/// How a portfolio chooses, sizes and restores its positions: the number of slots, the weights,
/// the rebalance calendar and rotation.
///
/// The rules (docs/design/portfolio-reference.md, section 4):
/// - **Slots.** At most K positions (`maxPositions`, default one per symbol). Exits free their
///   slot first; then flat symbols whose entry fills on the bar compete for the free slots,
///   highest rank first (the rank on the signal bar; NaN last; ties by symbol). Entries that find
///   no slot are dropped, not carried to later bars. A slot is booked only when the entry fills.
/// - **Weights** (`weighting`), for the i-th best (from 0) of the n <= K members of the book
///   (the positions held after the bar's exits and entries; under rotation, the chosen symbols):
///   `equal` 1/K; `rank` (K − i) / (K (K + 1) / 2); `inverse-vol`
///   (1/σᵢ) / Σ(1/σ) · n/K with σ the population standard deviation of the last 20 one-bar
///   rates of change (TA-Lib `STDDEV(ROC(close, 1), 20)`, `stddev(roc(close, 1), 20)`), so a
///   full book sums to 1 and a book of n members holds n/K of the value, as with `equal`.
/// - **Rebalance** (`rebalance`): on the first bar of each week (Monday-based, UTC), of each
///   month, or every N bars of the portfolio clock, every held symbol with a bar gets its target
///   weight again (decided at the previous bar's close, filled at that bar's open; with close
///   fills, decided and filled at that bar's close).
/// - **Rotation** (`rotate`): on each rebalance bar the portfolio holds the top K symbols by rank
///   (ranked at their last bar before it), whatever the entry signals; held symbols that drop out
///   are sold, the others restored to their weights.
/// - **Market-neutral** (`neutral`, a long/short book only): with n_L longs and n_S shorts in the
///   book after a row's exits and entries, each long's weight is m/(K·n_L) and each short's
///   −m/(K·n_S), m = min(n_L, n_S): both legs hold m/K of the portfolio's value (each at 1/K when
///   the legs are the same size, the larger leg scaled down). A book with one leg empty holds
///   nothing: its other leg is closed (exit kind `rebalance`) and entries wait for a partner.
///   Every held position with a bar gets its target again whenever n_L or n_S changes (an entry,
///   an exit, a stop) and on each rebalance date.
public struct PortfolioRules: Sendable, Equatable {
    /// How new positions (and rebalances) are sized.
    public enum Weighting: String, Sendable, CaseIterable {
        case equal
        case inverseVolatility = "inverse-vol"
        case rank

        /// Parses `equal`, `inverse-vol` or `rank`.
        /// - Throws: `InputError` listing the valid names.
        public static func parse(_ text: String) throws -> Weighting {
            if let w = Weighting(rawValue: text) { return w }
            throw InputError("not one of \(allCases.map(\.rawValue).joined(separator: ", "))", setting: .weight, value: text)
        }
    }

    /// When target weights are restored.
    public enum Rebalance: Sendable, Equatable, CustomStringConvertible {
        case never
        /// The first bar of each UTC week (weeks start on Monday).
        case weekly
        /// The first bar of each UTC calendar month.
        case monthly
        /// Every N bars of the portfolio clock (bars N, 2N, ...).
        case bars(Int)

        /// Parses `never`, `1w`, `1M` or a whole number of bars.
        /// - Throws: `InputError` naming the forms accepted.
        public static func parse(_ text: String) throws -> Rebalance {
            switch text {
            case "never": return .never
            case "1w": return .weekly
            case "1M": return .monthly
            default:
                if let n = Int(text), n >= 1 { return .bars(n) }
                throw InputError("not one of never, 1w, 1M or a number of bars >= 1", setting: .rebalance, value: text)
            }
        }

        /// `never`, `1w`, `1M` or the number of bars.
        public var description: String {
            switch self {
            case .never: "never"
            case .weekly: "1w"
            case .monthly: "1M"
            case .bars(let n): String(n)
            }
        }
    }

    /// Most positions held at once (K); nil holds up to one per symbol.
    public var maxPositions: Int?
    public var weighting: Weighting = .equal
    public var rebalance: Rebalance = .never
    /// Hold the top K by rank at each rebalance date instead of following entry signals.
    public var rotate = false
    /// Keep the long leg's notional equal to the short leg's (a long/short book only).
    public var neutral = false

    public init(maxPositions: Int? = nil, weighting: Weighting = .equal, rebalance: Rebalance = .never, rotate: Bool = false,
                neutral: Bool = false) {
        self.maxPositions = maxPositions; self.weighting = weighting; self.rebalance = rebalance; self.rotate = rotate
        self.neutral = neutral
    }

    /// The rules from their settings' text: `weight` (`Weighting.parse`, default equal) and
    /// `rebalance` (`Rebalance.parse`; default never, monthly under rotation).
    public init(maxPositions: Int?, weight: String?, rebalance: String?, rotate: Bool, neutral: Bool) throws {
        self.init(maxPositions: maxPositions, weighting: try weight.map(Weighting.parse) ?? .equal,
                  rebalance: try rebalance.map(Rebalance.parse) ?? (rotate ? .monthly : .never), rotate: rotate, neutral: neutral)
    }

    /// K for a universe of `symbols` symbols.
    public func slots(symbols: Int) -> Int { maxPositions ?? max(1, symbols) }

    /// The rules as report manifests record them: `max_positions`, `rank` (the expression text,
    /// or none), `weight`, `rebalance`, `rotate`, and `neutral` when set.
    public func parameters(symbols: Int, rank: String?) -> [RunParameter] {
        [RunParameter("max_positions", .int(slots(symbols: symbols))),
         RunParameter("rank", rank.map { .string($0) } ?? .none),
         RunParameter("weight", .string(weighting.rawValue)),
         RunParameter("rebalance", .string(rebalance.description)),
         RunParameter("rotate", .bool(rotate))] + (neutral ? [RunParameter("neutral", .bool(true))] : [])
    }

    /// Throws `InputError` for a K below 1 or a rotation that cannot run.
    /// - Parameter ranked: whether a rank is given.
    public func validate(ranked: Bool) throws {
        if let k = maxPositions, k < 1 {
            throw InputError("needs at least one position", setting: .maxPositions, value: String(k))
        }
        if rotate && !ranked {
            throw InputError(.needsSetting, "rotation holds the top K symbols by rank: it needs a rank", setting: .portfolioRank)
        }
        if rotate && rebalance == .never {
            throw InputError(.needsSetting, "rotation happens on rebalance dates: give a calendar (1w, 1M or N bars)",
                             setting: .rebalance)
        }
        if weighting == .rank && !ranked {
            throw InputError(.needsSetting, "rank weights need a rank", setting: .portfolioRank)
        }
    }

    /// The volatility of `inverse-vol` weights on `close`: the population standard deviation of
    /// the last 20 one-bar rates of change in percent (TA-Lib `STDDEV(ROC(close, 1), 20, 1)`,
    /// which starts after ROC's warm-up); NaN where undefined (all NaN for a series too short).
    public static func volatility(_ close: [Double]) -> [Double] {
        guard let roc = try? Indicators.roc(close, period: 1), let sd = try? Indicators.stddev(roc, period: 20) else {
            return [Double](repeating: .nan, count: close.count)
        }
        return sd
    }
}
