import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis

@Suite("Overfitting: PBO by CSCV and the deflated Sharpe ratio")
struct OverfittingTests {
    static let fixtures = Repository.url("Tests/Fixtures/overfitting")

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

    @Test("DSR reproduces the paper's numerical example (0.9004)")
    func deflatedSharpePaperExample() {
        // Bailey & Lopez de Prado (2014): N = 100 trials, annualised best SR 2.5, variance of the
        // annualised SRs 1/2, T = 1250 daily returns, skew -3, kurtosis 10, 250 days a year.
        let sr = 2.5 / 250.0.squareRoot()
        let variance = 0.5 / 250
        let sr0 = DeflatedSharpe.expectedMaximum(trials: 100, variance: variance)
        #expect(abs(sr0 - 0.1132) < 5e-5)
        let dsr = DeflatedSharpe.ratio(
            sharpe: sr, trials: 100, sharpeVariance: variance, observations: 1250, skew: -3, kurtosis: 10)
        #expect(abs(dsr - 0.9004) < 1e-3)
        // One trial: no deflation, the PSR against zero.
        #expect(DeflatedSharpe.expectedMaximum(trials: 1, variance: variance) == 0)
        // More trials deflate more.
        let dsr1000 = DeflatedSharpe.ratio(
            sharpe: sr, trials: 1000, sharpeVariance: variance, observations: 1250, skew: -3, kurtosis: 10)
        #expect(dsr1000 < dsr)
    }
}
