import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

/// A symbol's instrument settings in the store (`bt data instrument`) and as the defaults of its
/// runs (`ExecutionRequest.configuration` through `StoreExecutionResources`).
@Suite("Instrument settings: store and run defaults")
struct InstrumentSettingsTests {
    /// A checkpointed store holding GOOG (1d) and its path.
    func store() throws -> (CandleStore, String) {
        let (path, _) = try StoreSafetyTests.googStore()
        return (try CandleStore(writableAt: path), path)
    }

    @Test("settings round trip, merge over the stored ones, --clear replaces them; remove takes them with the symbol")
    func roundTrip() throws {
        let (store, _) = try store()
        #expect(try store.instrument(symbol: "GOOG").isEmpty)
        let first = try store.setInstrument(symbol: "GOOG", given: [.instrument: .text("perp"), .tick: .number(0.1), .mmr: .text("0.4%")])
        #expect(first == [.instrument: .text("perp"), .tick: .number(0.1), .mmr: .text("0.4%")])
        let merged = try store.setInstrument(symbol: "GOOG", given: [.feeBps: .number(2), .tick: .number(0.01)])
        #expect(merged == [.instrument: .text("perp"), .tick: .number(0.01), .mmr: .text("0.4%"), .feeBps: .number(2)])
        #expect(try CandleStore(existingAt: store.path).instrumentSettings(symbol: "GOOG") == merged)
        #expect(try store.instrumentList().map(\.symbol) == ["GOOG"])
        // Numbers round-trip exactly.
        let odd = 0.1 + 0.2
        #expect(try store.setInstrument(symbol: "GOOG", given: [.lot: .number(odd)], clear: true) == [.lot: .number(odd)])
        #expect(try store.setInstrument(symbol: "GOOG", given: [:], clear: true).isEmpty)
        #expect(try store.instrumentList().isEmpty)
        try store.setInstrument(symbol: "GOOG", given: [.instrument: .text("future")])
        // Removing one timeframe keeps them; removing the symbol removes them, and a symbol with
        // only its settings left is still removable.
        let one = try store.remove(symbol: "GOOG", timeframe: .day1)
        #expect(!one.instrument)
        #expect(try store.instrumentSettings(symbol: "GOOG") == [.instrument: .text("future")])
        let all = try store.remove(symbol: "GOOG")
        #expect(all.instrument && all.series.isEmpty)
        #expect(try store.instrumentList().isEmpty)
        #expect(throws: InputError.self) { try store.remove(symbol: "GOOG") }
    }

    @Test("a refused setting names it with the reason and range and leaves the store byte for byte", arguments: [
        ([Setting.instrument: ExecutionValue.text("perpetual")], Setting.instrument, "not one of spot, perp, future, inverse-perp"),
        ([.tick: .number(0)], .tick, "tick must be positive"),
        ([.lot: .number(-1)], .lot, "lot must be positive"),
        ([.mmr: .text("abc")], .mmr, "not a percentage like 5%"),
        ([.feeBps: .number(-3)], .feeBps, "fee must be in [0, 10000) basis points"),
        ([.makerBps: .number(-200)], .makerBps, "maker fee must be in [-100, 10000) basis points"),
        ([.leverage: .number(200)], .leverage, "leverage must be from 1 to 125"),
        // mmr 20% at leverage 10 is at or above 1 / leverage: every position would be liquidated as it opens.
        ([.leverage: .number(10), .mmr: .text("20%")], .mmr, "must be below 1 / leverage = 10%"),
    ])
    func refused(given: [Setting: ExecutionValue], setting: Setting, reason: String) throws {
        let (store, path) = try store()
        try store.setInstrument(symbol: "GOOG", given: [.instrument: .text("perp"), .feeBps: .number(2)])
        try store.checkpoint()
        let before = TestSupport.storeBytes(path)
        let e = try #require(throws: InputError.self) { try store.setInstrument(symbol: "GOOG", given: given) }
        #expect(e.setting == setting && e.reason.contains(reason), "\(e)")
        #expect(TestSupport.storeBytes(path) == before)
        #expect(try store.instrumentSettings(symbol: "GOOG") == [.instrument: .text("perp"), .feeBps: .number(2)])
    }

    @Test("a symbol with nothing stored is refused with the closest one; the store is unchanged")
    func unknownSymbol() throws {
        let (store, path) = try store()
        let before = TestSupport.storeBytes(path)
        let e = try #require(throws: InputError.self) { try store.setInstrument(symbol: "GOOGL", given: [.feeBps: .number(1)]) }
        #expect(e.kind == .missingSymbol && e.reason == "nothing stored for symbol 'GOOGL' (did you mean GOOG?)")
        #expect(throws: InputError.self) { try store.instrument(symbol: "GOOGL") }
        #expect(TestSupport.storeBytes(path) == before)
    }

    @Test("a row a write would refuse is a damaged store on reading, never a run's setting")
    func damagedRow() throws {
        for sql in ["UPDATE instrument_settings SET value = 'x'", "UPDATE instrument_settings SET value = '-5'",
                    "UPDATE instrument_settings SET setting = 'cash'"] {
            let (copy, _) = try self.store()
            try copy.setInstrument(symbol: "GOOG", given: [.feeBps: .number(2)])
            try copy.checkpoint()
            try RawDatabase.execute(sql, at: copy.path)
            let e = try #require(throws: StoreError.self) { try CandleStore(existingAt: copy.path).instrumentSettings(symbol: "GOOG") }
            #expect(e.kind == .damaged, "\(sql)")
        }
    }

    @Test("a run's configuration takes the stored settings where the request gives none, by the base symbol")
    func runDefaults() throws {
        let (store, path) = try store()
        try store.setInstrument(symbol: "GOOG", given: [.instrument: .text("perp"), .feeBps: .number(2), .tick: .number(0.05),
                                                        .lot: .number(0.5), .mmr: .text("0.4%"), .makerBps: .number(-1),
                                                        .leverage: .number(3)])
        let candles = try ShippedData.goog()
        let resources = StoreExecutionResources(store: { try CandleStore(existingAt: path) })
        for symbol in ["GOOG", "GOOG@1d"] {
            let c = try ExecutionRequest().configuration(for: candles, symbol: symbol, resources: resources).config
            #expect(c.instrument == .perp && c.feeBps == 2 && c.tick == 0.05 && c.lot == 0.5 && c.mmr == 0.004
                        && c.makerBps == -1 && c.leverage == 3, "\(symbol)")
        }
        var request = ExecutionRequest()
        try request.set(.feeBps, .number(5))
        try request.set(.instrument, .text("future"))
        let c = try request.configuration(for: candles, resources: resources).config
        #expect(c.feeBps == 5 && c.instrument == .future && c.tick == 0.05 && c.leverage == 3)
        // Another symbol, and no store at all, take the defaults.
        let other = try ExecutionRequest().configuration(for: candles, symbol: "EURUSD", resources: resources).config
        #expect(other.feeBps == ExecutionConfig().feeBps && other.instrument == .spot)
        let none = StoreExecutionResources(store: { try CandleStore(existingAt: path + ".missing") })
        #expect(try ExecutionRequest().configuration(for: candles, resources: none, depth: "none").config.instrument == .spot)
    }
}
