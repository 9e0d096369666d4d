import Testing
@testable import BacktestCore

@Suite("Broker ledger check (debug builds)")
struct LedgerInvariantTests {
    /// A broker that traded a random series under `config`, like `Engine.run` drives it.
    static func tradedBroker(_ config: ExecutionConfig) -> (Broker, CandleSeries) {
        let candles = EngineTest.random(bars: 400, seed: 5)
        let signals = EngineTest.randomSignals(bars: 400, seed: 6)
        var broker = Broker(config: config, candles: candles)
        for t in 1..<candles.count {
            let action = Engine.decide(position: broker.position, closing: broker.closing,
                                       entry: signals.entries[t - 1] && !signals.exits[t - 1],
                                       exit: signals.exits[t - 1] && !signals.entries[t - 1],
                                       shortEntry: false, shortExit: false)
            broker.execute(action, bar: t, reference: candles.open[t], timeMs: candles.time[t] * 1000)
        }
        broker.finishOpenTrade(lastBar: candles.count - 1)
        return (broker, candles)
    }

    @Test("a real run has no violations; a cash or position off the fills is reported", arguments: [false, true])
    func detects(synthetic: Bool) {
        #if DEBUG
        var config = ExecutionConfig()
        config.depth = synthetic ? .synthetic : .none
        var (broker, candles) = Self.tradedBroker(config)
        let last = candles.close[candles.count - 1]
        #expect(broker.fills.count > 10)
        #expect(broker.ledgerViolations(lastClose: last).isEmpty)
        broker.log.ledgerCash += 0.01
        #expect(broker.ledgerViolations(lastClose: last).contains { $0.hasPrefix("cash") })
        broker.log.ledgerCash -= 0.01
        broker.ledger.ledgerQuantity += 1
        #expect(broker.ledgerViolations(lastClose: last).contains { $0.hasPrefix("position") })
        broker.ledger.ledgerQuantity -= 1
        // Marked to another close, an open position's equity no longer equals the trades' PnL.
        #expect(broker.ledgerViolations(lastClose: last * 2).isEmpty == (broker.position == 0))
        #endif
    }
}
