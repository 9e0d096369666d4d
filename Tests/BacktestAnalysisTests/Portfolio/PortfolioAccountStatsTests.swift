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

    @Test("an inverse perpetual's account (in the coin), long/short with limit entries: every statistic within 1e-9 of the run's")
    func inverseStatistics() throws {
        let candles = try ShippedData.goog()
        let entries = candles.close.indices.map { $0 % 40 == 5 }, exits40 = candles.close.indices.map { $0 % 40 == 25 }
        let signals = Signals(entries: entries, exits: exits40)
        var config = ExecutionConfig()
        config.synthetic.tick = candles.inferredTick
        (config.instrument, config.multiplier, config.leverage, config.sizing, config.initialCash) = (.inversePerp, 100, 3, .equityFraction(2), 5)
        config.allowShort = true
        config.entries = EntryRules(limit: try PriceExpression(LocatedExpression("close * 0.99", origin: .setting(.entryLimit))),
                                    shortLimit: try PriceExpression(LocatedExpression("close * 1.01", origin: .setting(.shortEntryLimit))),
                                    orderBars: 3)
        let run = try Engine.run(Engine.Request(candles, signals: signals, config: config))
        let p = try Portfolio.run([PortfolioSymbol(candles: candles, signals: signals)],
                                  rules: PortfolioRules(maxPositions: 1), config: config)
        #expect(run.fills.count > 4 && run.trades.contains { $0.side == .short } && run.account?.currency == "coin")
        #expect(p.account.account?.currency == run.account?.currency)
        let a = Stats(p.account), b = Stats(run)
        for (x, y) in zip(a.all, b.all) {
            #expect(Self.equal(x.value, y.value) || abs(x.value - y.value) <= 1e-9 * max(1, abs(y.value)), "\(x.stat): \(x.value) vs \(y.value)")
        }
        #expect(a.all.count == b.all.count)
    }
}
