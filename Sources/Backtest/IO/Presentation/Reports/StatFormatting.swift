import BacktestAnalysis
import BacktestCore
import Foundation

extension Stat.Unit {
    /// `value` for human tables: fractions as percentages with two decimals, ratios with three,
    /// times as ISO-8601 dates, NaN as "n/a", an infinity as "overflow" (a figure past the
    /// largest number, as equity compounded beyond 1e308): never `inf` or `nan`. Cash with two
    /// decimals, or eight when it is a `coin` (an inverse contract's account), as exchanges show coins.
    public func formatted(_ value: Double, coin: Bool = false) -> String {
        guard !value.isNaN else { return "n/a" }
        if value.isInfinite { return "overflow" }
        switch self {
        case .fraction: return String(format: "%.2f%%", value * 100)
        case .ratio: return String(format: "%.3f", value)
        case .bars, .count: return String(format: "%.0f", value)
        case .days: return String(format: "%.1f", value)
        case .cash: return String(format: coin ? "%.8f" : "%.2f", value)
        case .bps: return String(format: "%.2f", value)
        case .perYear: return value == value.rounded() ? String(format: "%.0f", value) : String(format: "%.2f", value)
        case .time: return UTCTime.iso(Int64(value))
        }
    }
}

extension Stat {
    /// `value` of this statistic for a human table, as its unit formats it, except an infinity
    /// that is a ratio over nothing where the statistic allows one: "no losses" for a profit
    /// factor without a losing trade, "no downside" for a Sortino ratio without a return below
    /// zero. Cash in a `coin` with eight decimals (`Stat.Unit.formatted`).
    public func formatted(_ value: Double, coin: Bool = false) -> String {
        switch (self, value) {
        case (.profitFactor, .infinity): return "no losses"
        case (.sortino, .infinity): return "no downside"
        default: return unit.formatted(value, coin: coin)
        }
    }

    /// Label for a human table: the machine name with its unit.
    public var label: String {
        switch unit {
        case .fraction: return name + " [%]"
        case .bars: return name + " [bars]"
        case .days: return name + " [days]"
        case .bps: return name + " [bps]"
        default: return name
        }
    }

    /// `value` as JSON: numbers in shortest round-trip form (fractions, not percentages), times
    /// as ISO-8601 strings, NaN and infinities as null.
    public func json(_ value: Double) -> JSONValue {
        unit == .time && value.isFinite ? .string(UTCTime.iso(Int64(value))) : .number(value)
    }
}
