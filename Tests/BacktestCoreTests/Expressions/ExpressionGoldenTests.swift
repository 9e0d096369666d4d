import Foundation
import Testing
import TestSupport
@testable import BacktestCore

/// Expressions covering every function and operator, against values computed independently
/// with TA-Lib, pandas and numpy (`Tests/Fixtures/expressions/make_goldens.py`).
@Suite("Expression goldens")
struct ExpressionGoldenTests {
    static let fixtures = Repository.root.appendingPathComponent("Tests/Fixtures/expressions")

    struct Case: Sendable {
        var id: String
        var text: String
        var parameters: [String: ExpressionValue]
    }

    static func cases() throws -> [Case] {
        try Repository.text("Tests/Fixtures/expressions/expressions.txt").split(separator: "\n").map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            var parameters: [String: ExpressionValue] = [:]
            for assignment in f[2].split(separator: ",") {
                let kv = assignment.split(separator: "=")
                parameters[String(kv[0])] = .number(Double(kv[1])!)
            }
            return Case(id: f[0], text: f[1], parameters: parameters)
        }
    }

    @Test("the golden expressions use every function, series and operator of the language")
    func coverage() throws {
        let text = try Self.cases().map(\.text).joined(separator: " ")
        for f in ExpressionFunction.allCases { #expect(text.contains(f.rawValue + "("), "\(f.rawValue) not covered") }
        for s in ExpressionSeries.allCases { #expect(text.contains(s.rawValue), "\(s.rawValue) not covered") }
        for op in ExpressionSyntax.BinaryOperator.allCases {
            #expect(text.contains(" \(op.rawValue) "), "operator \(op.rawValue) not covered")
        }
        for piece in ["not ", "-abs(", "[1]", "[2]", ".signal", ".hist", ".upper", ".middle", ".lower", ".k", ".d", "$n", "$r"] {
            #expect(text.contains(piece), "\(piece) not covered")
        }
    }

    @Test("every golden expression matches the reference on every bar", arguments: [Golden.Dataset.goog, .eurusd])
    func goldens(dataset: Golden.Dataset) throws {
        let candles = try Golden.candles(dataset)
        let (rows, columns) = try Golden.goldens(at: ExpressionGoldenTests.fixtureDataset(dataset))
        #expect(rows == Array(0..<candles.count))
        let scale = max(100, candles.close.map(abs).max() ?? 0)
        let cases = try Self.cases()
        #expect(cases.count >= 12)
        for c in cases {
            let expected = try #require(columns[c.id], "no golden column \(c.id)")
            let e = try LocatedExpression(c.text, origin: .setting(.entry))
            let actual = try e.values(on: candles, parameters: c.parameters)
            let isCondition = try e.check(parameters: c.parameters.map { ExpressionParameter($0.key, .number) }) == .condition
            var mismatches = 0
            for i in 0..<candles.count {
                let a = actual[i]
                guard let b = expected[i] else {
                    if !a.isNaN { mismatches += 1; if mismatches < 4 { Issue.record("\(c.id) bar \(i): \(a), expected NaN") } }
                    continue
                }
                let ok = isCondition ? a == b : Golden.close(a, b, absolute: 1e-12 * scale)
                if !ok { mismatches += 1; if mismatches < 4 { Issue.record("\(c.id) bar \(i): \(a), expected \(b)") } }
            }
            #expect(mismatches == 0, "\(c.id) on \(dataset): \(mismatches) bars differ")
        }
    }

    /// The golden files are named like the indicator datasets but live in this fixture folder.
    static func fixtureDataset(_ d: Golden.Dataset) -> URL {
        fixtures.appendingPathComponent("\(d.rawValue)_goldens.csv")
    }
}
