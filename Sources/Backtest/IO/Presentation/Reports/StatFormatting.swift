import BacktestAnalysis
import BacktestCore
import Foundation

extension Stat {
    /// For human tables: fractions as percentages with two decimals, ratios with three, times as
    /// ISO-8601 dates, NaN as "n/a", an infinity as what made it one (`infiniteText`): never
    /// `inf` or `nan`.
    public var formatted: String {
        guard !value.isNaN else { return "n/a" }
        if value.isInfinite { return infiniteText }
        switch unit {
        case .fraction: return String(format: "%.2f%%", value * 100)
        case .ratio: return String(format: "%.3f", value)
        case .bars, .count: return String(format: "%.0f", value)
        case .days: return String(format: "%.1f", value)
        case .cash: return String(format: "%.2f", value)
        case .bps: return String(format: "%.2f", value)
        case .perYear: return value == value.rounded() ? String(format: "%.0f", value) : String(format: "%.2f", value)
        case .time: return UTCTime.iso(Int64(value))
        }
    }

    /// An infinite value in words: a ratio over nothing where the statistic allows one (profit
    /// factor without a losing trade, Sortino without a return below zero), else "overflow" (a
    /// figure past the largest number, as equity compounded beyond 1e308).
    var infiniteText: String {
        switch (Metric(rawValue: name), value > 0) {
        case (.profitFactor?, true): return "no losses"
        case (.sortino?, true): return "no downside"
        default: return "overflow"
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

    /// The value as JSON: numbers in shortest round-trip form (fractions, not percentages),
    /// times as ISO-8601 strings, NaN and infinities as null.
    public var json: JSONValue {
        unit == .time && value.isFinite ? .string(UTCTime.iso(Int64(value))) : .number(value)
    }
}

extension Metric {
    /// `value` of this metric for a human table, as `Stat.formatted` formats it.
    public func formatted(_ value: Double) -> String {
        Stat(self, value).formatted
    }
}
