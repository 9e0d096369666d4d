import Testing
@testable import BacktestCore

/// Every golden column (TA-Lib 0.8.2 / pandas references) against `IndicatorSpec.compute`.
///
/// Tolerance: 1e-9 relative, plus an absolute 1e-12 of the series' price scale (at least 100) for
/// values that cross zero (MACD, ROC, histogram), where relative error is unbounded for any
/// implementation that does not repeat TA-Lib's exact operation order.
@Suite("Indicator goldens")
struct GoldenTests {
    @Test("every golden column matches, NaN warm-up equals the lookback", arguments: Golden.Dataset.allCases)
    func goldens(_ dataset: Golden.Dataset) throws {
        let candles = try Golden.candles(dataset)
        let (rows, columns) = try Golden.goldens(dataset)
        let scale = max(100, candles.close.map(abs).max() ?? 0)
        var checked = Set<String>()
        for name in columns.keys.sorted() where !checked.contains(name) {
            let spec = try Self.spec(forColumn: name)
            let outputs = try spec.compute(on: candles)
            for (column, values) in zip(spec.columns, outputs) {
                checked.insert(column)
                guard let expected = columns[column] else { continue }
                #expect(values.count == candles.count)
                let warmUp = values.prefix { $0.isNaN }.count
                #expect(warmUp == spec.lookback, "\(dataset) \(column): warm-up \(warmUp), lookback \(spec.lookback)")
                var failures = 0
                for (k, i) in rows.enumerated() {
                    let a = values[i]
                    let ok: Bool
                    if let e = expected[k] {
                        ok = !a.isNaN && Golden.close(a, e, absolute: 1e-12 * scale)
                    } else {
                        ok = a.isNaN
                    }
                    if !ok {
                        failures += 1
                        if failures <= 3 { Issue.record("\(dataset) \(column)[\(i)]: got \(a), TA-Lib \(expected[k].map(String.init(describing:)) ?? "NaN")") }
                    }
                }
                #expect(failures == 0, "\(dataset) \(column): \(failures) mismatches")
            }
        }
        #expect(checked.count >= 23)  // every indicator, multi-output ones counted per column
    }

    /// The spec whose outputs include `column` (`macd_signal_12_26_9` -> `macd:12,26,9`).
    static func spec(forColumn column: String) throws -> IndicatorSpec {
        for kind in IndicatorSpec.Kind.allCases {
            for output in kind.outputs where column == output || column.hasPrefix(output + "_") {
                let rest = column.dropFirst(output.count).split(separator: "_").joined(separator: ",")
                let spec = try IndicatorSpec(parsing: rest.isEmpty ? kind.rawValue : "\(kind.rawValue):\(rest)")
                if spec.columns.contains(column) { return spec }
            }
        }
        throw InputError("no spec for golden column \(column)")
    }
}
