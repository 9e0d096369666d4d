import Foundation
import Testing
@testable import Backtest

@Suite("Overfitting: PBO by CSCV and the deflated Sharpe ratio")
struct OverfittingTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/overfitting")

    /// Reads a headerless numeric CSV as rows.
    static func matrix(_ name: String) throws -> [[Double]] {
        let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n").map { $0.split(separator: ",").map { Double($0)! } }
    }

    static func golden(_ name: String) throws -> (pbo: Double, blocks: Int, splits: Int, meanLogit: Double, logits: [Double]) {
        let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
        var pbo = 0.0, blocks = 0, splits = 0, mean = 0.0
        var logits: [Double] = []
        for line in text.split(separator: "\n") {
            let p = line.split(separator: ",")
            switch p[0] {
            case "pbo": pbo = Double(p[1])!
            case "blocks": blocks = Int(p[1])!
            case "splits": splits = Int(p[1])!
            case "mean_logit": mean = Double(p[1])!
            default: logits.append(Double(p[1])!)
            }
        }
        return (pbo, blocks, splits, mean, logits)
    }

    @Test("PBO matches an independent numpy implementation", arguments: ["noise", "skill", "overfit"])
    func pboGolden(name: String) throws {
        let rows = try Self.matrix("\(name)_returns.csv")
        let g = try Self.golden("\(name)_pbo.csv")
        var cscv = try CSCV(length: rows.count, blocks: g.blocks)
        for trial in 0..<rows[0].count { cscv.add(returns: rows.map { $0[trial] }) }
        let result = try cscv.evaluate()
        #expect(result.splits == g.splits)
        #expect(result.pbo == g.pbo)
        let mean = result.logits.reduce(0, +) / Double(result.splits)
        #expect(abs(mean - g.meanLogit) <= 1e-9 * max(1, abs(g.meanLogit)))
        for (a, b) in zip(result.logits, g.logits) { #expect(abs(a - b) <= 1e-9 * max(1, abs(b))) }
    }

    @Test("a truly skilled trial gives PBO 0; CSCV refuses bad shapes")
    func pboShapes() throws {
        #expect(throws: InputError.self) { try CSCV(length: 100, blocks: 7) }
        #expect(throws: InputError.self) { try CSCV(length: 10, blocks: 16) }
        var one = try CSCV(length: 64, blocks: 4)
        one.add(returns: (0..<64).map { Double($0 % 3) })
        #expect(throws: InputError.self) { try one.evaluate() }
        #expect(CSCV.halfSubsets(of: 16).count == 12870)
    }
}
