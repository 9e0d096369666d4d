import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
import TestSupport

/// The statistics of a one-symbol portfolio's account are those of `Engine.run` on that symbol,
/// bit for bit. The Core suite "Portfolio of one symbol = bt run" checks the ledgers under every
/// fill model; this checks that the statistics read nothing the two ledgers do not share.
@Suite("Portfolio of one symbol: the account's statistics equal bt run's")
struct PortfolioAccountStatsTests {
    static func equal(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }

    @Test("every statistic of the account equals the run's, with synthetic depth and with stops, targets and a cap",
          arguments: [false, true])
    func everyStatistic(_ exits: Bool) throws {
        let candles = try ShippedData.goog()
        let entries = candles.close.indices.map { $0 % 40 == 5 }, exits40 = candles.close.indices.map { $0 % 40 == 25 }
        let signals = Signals(entries: entries, exits: exits40)
        var config = ExecutionConfig()
        config.synthetic.tick = candles.inferredTick
        if exits {
            config.stopLoss = 0.03
            config.takeProfit = 0.06
            config.maxParticipation = 0.002
        }
        let run = try Engine.run(Engine.Request(candles, signals: signals, config: config))
        let p = try Portfolio.run([PortfolioSymbol(candles: candles, signals: signals)],
                                  rules: PortfolioRules(maxPositions: 1), config: config)
        #expect(run.fills.count > 4)
        let a = Stats(p.account), b = Stats(run)
        for (x, y) in zip(a.all, b.all) { #expect(Self.equal(x.value, y.value), "\(x.stat): \(x.value) vs \(y.value)") }
        #expect(a.all.count == b.all.count)
    }
}
