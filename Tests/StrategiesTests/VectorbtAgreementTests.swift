import Foundation
import Testing
import Backtest
import Strategies
import TestSupport

/// bt's engine with `--depth none` against vectorbt's `Portfolio.from_signals` on the shipped
/// data, for every strategy at its defaults. Goldens: `Tests/Fixtures/vectorbt/goldens.json`,
/// written by `make_goldens.py` next to it.
@Suite("vectorbt agreement")
struct VectorbtAgreementTests {
    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        var data: String
        var strategy: String
        var bars: Int
        var entries: [Int]
        var exits: [Int]
        var final_value: Double
        var trades: Int
        var testDescription: String { "\(strategy) on \(data)" }
    }
    struct Goldens: Decodable { var cases: [Case] }

    /// The committed goldens; a missing or unreadable file fails every test that uses them.
    static func cases() throws -> [Case] {
        try JSONDecoder().decode(Goldens.self, from: Repository.data("Tests/Fixtures/vectorbt/goldens.json")).cases
    }

    @Test("the goldens exist and cover every strategy on both data files")
    func coverage() throws {
        let cases = try Self.cases()
        #expect(cases.count == 2 * Strategy.all.count)
        #expect(Set(cases.map(\.strategy)) == Set(Strategy.all.map(\.name)))
    }

    @Test("same signals, same trade count, final equity within 1e-9", arguments: try cases())
    func agrees(_ c: Case) throws {
        let candles = try ShippedData.candles(c.data)
        #expect(candles.count == c.bars)
        let signals = try Strategy.named(c.strategy).signals(candles)
        let entries = signals.entries.indices.filter { signals.entries[$0] }
        let exits = signals.exits.indices.filter { signals.exits[$0] }
        #expect(entries == c.entries)
        #expect(exits == c.exits)
        var config = ExecutionConfig()
        config.depth = .none
        config.maxParticipation = nil
        config.feeBps = 10
        config.initialCash = 10_000
        let r = try Engine.run(Engine.Request(candles, signals: signals, config: config))
        #expect(r.trades.count == c.trades)
        let rel = abs(r.finalEquity - c.final_value) / c.final_value
        #expect(rel <= 1e-9, "final equity \(r.finalEquity) vs vectorbt \(c.final_value)")
    }
}
