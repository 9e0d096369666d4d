import BacktestCore
import Foundation

/// Where a run's spread came from and how sure it is (`BacktestResult.spreadEstimate`), as the
/// text output's line and `bt run --json`'s `spread_estimate`.
extension Report {
    /// One line for the terminal; nil when the result does not say.
    public var spreadLine: String? { result.spreadEstimate.map(SpreadSummaryText.line) }

    /// `{"method", "fills", "spread_bps", "standard_error_bps", "source", "fills_by_source",
    /// "bars_bps", "bars_standard_error_bps", "relation_bps", "bars_weight"}` (null where unknown;
    /// the last six only for `method` `estimated`), or null when the result does not say.
    public var spreadJSON: JSONValue { result.spreadEstimate.map(SpreadSummaryText.json) ?? .null }
}

/// The renderings of a `SpreadSummary`.
enum SpreadSummaryText {
    static func line(_ s: SpreadSummary) -> String {
        func bps(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "n/a" }
        switch s.method {
        case .none: return "spread: none (no depth)"
        case .fixed: return "spread: fixed slippage of \(bps(s.spreadBps.map { $0 / 2 })) bps a fill, counted as spread"
        case .recorded: return "spread: the recorded book's"
        case .given: return "spread: \(bps(s.spreadBps)) bps, as given"
        case .profile: return "spread: \(bps(s.spreadBps)) bps, the calibrated profile's"
        case .estimated:
            guard s.fills > 0 else { return "spread estimate: no fills" }
            let bySource = s.bySource
            let counts = [(SpreadEstimate.Source.relation, "volume relation"), (.bars, "bars"), (.tick, "tick floor")]
                .map { "\($0.1) \(bySource[$0.0] ?? 0)" }.joined(separator: ", ")
            var out = "spread estimate: \(bps(s.spreadBps)) bps ± \(bps(s.standardErrorBps)) (median of \(s.fills) fill"
                + (s.fills == 1 ? "" : "s") + "); decided by " + counts
            if let bars = s.barsBps {
                out += "; Corwin-Schultz \(bps(bars)) ± \(bps(s.barsStandardErrorBps)) bps"
                if let w = s.barsWeight { out += " (weight \(NumberText.percent(w)))" }
            }
            if let r = s.relationBps { out += ", volume relation \(bps(r)) bps" }
            return out
        }
    }

    static func json(_ s: SpreadSummary) -> JSONValue {
        func number(_ v: Double?) -> JSONValue { v.map { $0.isFinite ? .number($0) : .null } ?? .null }
        let estimated = s.method == .estimated
        let bySource = s.bySource
        let counts: JSONValue = estimated
            ? .object(SpreadEstimate.Source.allCases.map { (key: $0.rawValue, value: .int(bySource[$0] ?? 0)) }) : .null
        return .object([
            (key: "method", value: .string(s.method.rawValue)),
            (key: "fills", value: .int(s.fills)),
            (key: "spread_bps", value: number(s.spreadBps)),
            (key: "standard_error_bps", value: number(s.standardErrorBps)),
            (key: "source", value: s.mainSource.map { .string($0.rawValue) } ?? .null),
            (key: "fills_by_source", value: counts),
            (key: "bars_bps", value: number(s.barsBps)),
            (key: "bars_standard_error_bps", value: number(s.barsStandardErrorBps)),
            (key: "relation_bps", value: number(s.relationBps)),
            (key: "bars_weight", value: number(s.barsWeight)),
        ])
    }
}
