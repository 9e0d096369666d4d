import BacktestCore

/// One named statistic with its unit, as `bt run --json`, `stats.csv` and the stats table show it.
public struct Stat: Sendable, Equatable {
    /// How a value is measured; decides formatting (fractions become percentages in human tables).
    /// A metric's unit is in the metric table (`Metric.unit`).
    public enum Unit: String, Sendable {
        /// A fraction of 1 (0.12 = 12%).
        case fraction
        /// A dimensionless ratio (Sharpe, profit factor).
        case ratio
        case bars
        case days
        case count
        /// Account currency.
        case cash
        case bps
        /// UTC seconds since the epoch; ISO-8601 in machine output.
        case time
        /// Bars per year used to annualise.
        case perYear = "per_year"
    }

    /// snake_case machine name (`sharpe`, `max_drawdown`).
    public var name: String
    /// NaN when undefined (e.g. Sharpe of a flat curve); JSON writes null, CSV an empty cell.
    public var value: Double
    public var unit: Unit

    public init(_ name: String, _ value: Double, _ unit: Unit) {
        self.name = name; self.value = value; self.unit = unit
    }

    /// `metric`'s value, named and measured as the metric table says.
    public init(_ metric: Metric, _ value: Double) {
        self.init(metric.name, value, metric.unit)
    }
}
