import Testing
@testable import BacktestCore

/// One output's reference values: warm-up length, first defined value, bar 1000, last bar.
struct ReferenceRow: Sendable, CustomTestStringConvertible {
    var output: Int
    var lookback: Int
    var first: Double
    var middle: Double
    var last: Double
    var testDescription: String { "output \(output)" }
}

enum Reference {
    nonisolated(unsafe) private static var cached: CandleSeries?

    /// data/GOOG.csv, 2,148 daily bars.
    static func goog() throws -> CandleSeries {
        if let cached { return cached }
        let s = try Golden.candles(.goog)
        cached = s
        return s
    }

    /// Checks `spec`'s output `row.output` on GOOG against the reference row (1e-9 relative).
    static func check(spec text: String, row: ReferenceRow) throws {
        let s = try goog()
        let spec = try IndicatorSpec(parsing: text)
        let out = try spec.compute(on: s)[row.output]
        #expect(out.count == s.count)
        #expect(out.prefix { $0.isNaN }.count == row.lookback)
        #expect(out[row.lookback...].allSatisfy { !$0.isNaN })
        #expect(Golden.close(out[row.lookback], row.first, absolute: 1e-12))
        #expect(Golden.close(out[1000], row.middle, absolute: 1e-12))
        #expect(Golden.close(out[s.count - 1], row.last, absolute: 1e-12))
    }
}
