import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis

@Suite("Stats against empyrical goldens")
struct EmpyricalGoldenTests {
    /// The committed goldens; a missing file fails the tests instead of running zero cases.
    static func goldens() throws -> [[String: String]] { try StatsFixtures.csv("empyrical/goldens.csv") }
    static let measures = ["sharpe", "sortino", "volatility_ann", "cagr", "max_drawdown", "calmar", "omega", "alpha", "beta"]

    @Test("goldens are present")
    func present() throws {
        #expect(try Self.goldens().count == 3)
    }

    @Test("every empyrical measure matches within 1e-9 relative", arguments: try goldens())
    func matches(golden: [String: String]) throws {
        let name = golden["name"]!
        let initial = Double(golden["initial"]!)!
        let ppy = Double(golden["periods_per_year"]!)!
        let stats = Stats(try StatsFixtures.result(curve: name, initial: initial), periodsPerYear: ppy,
                          bootstrap: .init(resamples: 10))
        for measure in Self.measures {
            let expected = Double(golden[measure]!)!
            #expect(close(stats[measure], expected), "\(name) \(measure): \(stats[measure]) vs empyrical \(expected)")
        }
        #expect(stats.periodsPerYear == ppy)
    }

    @Test("periods per year inferred from the curves' timestamps", arguments: [
        ("goog_buy_hold", 252.0), ("random_flats", 365.0), ("eurusd_half_invested", 252.0 * 24),
    ])
    func inferred(name: String, expected: Double) throws {
        let rows = try StatsFixtures.csv("empyrical/curve_\(name).csv")
        #expect(PeriodsPerYear.infer(from: rows.map { Int64($0["time"]!)! }) == expected)
    }
}
