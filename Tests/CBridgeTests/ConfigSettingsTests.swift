import Backtest
import CBTABI
import Foundation
import Testing
@testable import CBridge

/// `bt_config` is read by setting name: each execution setting's field is found in the struct
/// itself, so a new setting needs its entry in `ExecutionSetting.all` and its field in bt.h, and
/// nothing else in the bridge; btcore builds its struct and keywords from `bt_execution_settings`.
@Suite("bt_config read by setting name")
struct ConfigSettingsTests {
    @Test("every execution setting has its bt_config field, and every field but struct_size, db and the window carries one")
    func fieldsAndSettings() throws {
        let names = Config.layout.map(\.name)
        let carried = Set(ExecutionSetting.all.map(\.fieldName))
        #expect(carried.isSubset(of: Set(names)), "settings without a field: \(carried.subtracting(names))")
        #expect(Set(names).subtracting(carried) == ["struct_size", "db", "start", "end"])
        #expect(Config.layout.first { $0.name == "end" }?.offset == MemoryLayout<bt_config>.offset(of: \.end))
        #expect(Config.layoutIsChecked)
        // The offsets as read equal the compiler's.
        #expect(Config.layout.first { $0.name == "cash" }?.offset == MemoryLayout<bt_config>.offset(of: \.cash))
        #expect(Config.layout.first { $0.name == "spread_window" }?.offset == MemoryLayout<bt_config>.offset(of: \.spread_window))
        #expect(Config.layout.first { $0.name == "db" }?.offset == MemoryLayout<bt_config>.offset(of: \.db))
    }

    @Test("each field read at its layout offset equals the field as reflection reads it, for every field of bt_config")
    func fieldsReadAtOffsetsEqualReflection() throws {
        var c = Config.defaults()
        // A distinct value in every byte, so a wrong offset or type reads something else.
        withUnsafeMutableBytes(of: &c) { bytes in
            for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 37 &+ 11) }
        }
        for (name, reflected) in Config.fields(c) {
            let read = try #require(Config.value(of: name, in: c), "no value read for \(name)")
            switch (reflected, read) {
            case (let a as Double, let b as Double): #expect(a.bitPattern == b.bitPattern, "\(name)")
            case (let a as Int32, let b as Int32): #expect(a == b, "\(name)")
            case (let a as Int, let b as Int): #expect(a == b, "\(name)")
            case (let a as UnsafePointer<CChar>?, let b as UnsafePointer<CChar>?): #expect(a == b, "\(name)")
            default: Issue.record("\(name): reflection gives \(type(of: reflected)), the layout \(type(of: read))")
            }
        }
        #expect(Config.value(of: "no_such_field", in: c) == nil)
    }

    @Test("bt_config_init gives the table's defaults: its request holds the literal numbers only (not the instrument settings, whose default is the symbol's stored one)")
    func defaults() throws {
        let c = Config.defaults()
        #expect(c.cash == 10_000 && c.fee_bps.isNaN && c.fee_min == 0 && c.max_participation == 0.1)
        #expect(c.impact == 0.3 && c.touch_seconds == 60 && c.tick.isNaN && c.periods_per_year.isNaN && c.spread_window == 0)
        #expect(c.struct_size == MemoryLayout<bt_config>.size && c.sl == nil && c.allow_short == 0)
        let request = try Config.request(c)
        #expect(c.fee_per_unit == 0 && c.maker_bps.isNaN && c.fee_max == nil && c.borrow_bps == 0)
        #expect(c.leverage.isNaN && c.multiplier.isNaN && c.liq_fee_bps == 0 && c.margin == nil && c.instrument == nil && c.mmr == nil && c.margin_rate == nil)
        #expect(Set(request.values.keys) == [.cash, .feeMin, .feePerUnit, .borrowBps, .liqFeeBps, .maxParticipation, .impact, .touchSeconds])
    }

    @Test("a bt_config from an older bt.h (ending at db, or at a later field) is read with the defaults for the rest; other sizes are refused")
    func olderCallers() throws {
        let full = MemoryLayout<bt_config>.size, first = MemoryLayout<bt_config>.offset(of: \.db)! + 8
        #expect(Config.firstSize == first && first < full)
        #expect(Config.acceptedSizes.contains(full) && Config.acceptedSizes.min() == first)
        // An ABI 1 caller's struct: only its own bytes exist (the allocation ends at db), and
        // they hold values other than the defaults; the fields after are never read from it.
        let raw = UnsafeMutableRawPointer.allocate(byteCount: first, alignment: 8)
        defer { raw.deallocate() }
        var old = Config.defaults()
        old.struct_size = first
        old.cash = 500
        old.fee_per_unit = 7
        old.borrow_bps = 300
        withUnsafeBytes(of: &old) { raw.copyMemory(from: $0.baseAddress!, byteCount: first) }
        let read = try Config.read(raw.assumingMemoryBound(to: bt_config.self))
        #expect(read.cash == 500 && read.struct_size == full)
        #expect(read.fee_per_unit == 0 && read.maker_bps.isNaN && read.fee_max == nil && read.borrow_bps == 0,
                "the fields the caller does not know take their defaults")
        // A caller built against the bt.h that ended at fee_max (before borrow_bps): its size is accepted.
        #expect(Config.acceptedSizes.contains(MemoryLayout<bt_config>.offset(of: \.borrow_bps)!))
        for size in [0, 8, first - 8, first + 4, full + 8] where !Config.acceptedSizes.contains(size) {
            var c = Config.defaults()
            c.struct_size = size
            #expect(throws: BridgeError.self) { try withUnsafePointer(to: &c) { try Config.read($0) } }
        }
    }

    @Test("a setting added to the table is read from its field by name, and described to bindings")
    func aDummySettingReachesTheBridge() throws {
        // Without its field in bt.h the bridge names what is missing.
        let unfielded = ExecutionSetting(.holdout, .number, valueName: "SHARE", help: "A knob no run has yet", default: .value("1.5"))
        #expect(throws: BridgeError.self) { try Config.request(Config.defaults(), settings: ExecutionSetting.all + [unfielded]) }
        do {
            _ = try Config.request(Config.defaults(), settings: ExecutionSetting.all + [unfielded])
        } catch let e as BridgeError {
            #expect(e.message == "bt_config has no field holdout for setting holdout")
        }
        // With a field (here impact's, standing for the new one) it is read, and described.
        let fielded = ExecutionSetting(.holdout, .number, valueName: "SHARE", help: "A knob no run has yet", default: .value("1.5"),
                                       field: "touch_seconds")
        var c = Config.defaults()
        c.touch_seconds = 42
        let settings = ExecutionSetting.all.filter { $0.setting != .touchSeconds } + [fielded]
        #expect(try Config.request(c, settings: settings).number(.holdout) == 42)
        let json = Config.describe(settings)
        #expect(json.contains(#"{"name":"touch_seconds","type":"double","setting":"holdout","kind":"number","default":"1.5","help":"A knob no run has yet (default 1.5)"}"#),
                "\(json)")
    }

    @Test("the bridge's messages name settings as bt_config and btcore do")
    func wording() throws {
        #expect(Config.name(.short) == "allow_short" && Config.name(.store) == "db" && Config.name(.feeBps) == "fee_bps")
        #expect(Config.name(.from) == "start" && Config.name(.to) == "end")
        #expect(Config.name(.portfolioRank) == "rank" && Config.name(.output) == "out")
        var c = Config.defaults()
        c.fee_bps = -3
        let e = try #require(throws: InputError.self) {
            _ = try Config.execution(c, candles: CandleSeries(symbol: "X", timeframe: .day1), inferredTick: { nil })
        }
        #expect(e.text(naming: Config.name).hasPrefix("fee_bps '-3': "))
    }

    @Test("bt_config.instrument \"inverse-perp\" is the coin-margined perpetual; with a per-unit fee it is refused naming fee_per_unit")
    func inverseInstrument() throws {
        var c = Config.defaults()
        let candles = CandleSeries(symbol: "BTCUSD_PERP", timeframe: .day1)
        try "inverse-perp".withCString { kind in
            c.instrument = kind
            c.multiplier = 100
            let plan = try Config.execution(c, candles: candles, inferredTick: { nil })
            #expect(plan.config.instrument == .inversePerp && plan.config.multiplier == 100 && plan.config.isMarginAccount)
            c.fee_per_unit = 0.5
            let e = try #require(throws: InputError.self) { _ = try Config.execution(c, candles: candles, inferredTick: { nil }) }
            #expect(e.setting == .feePerUnit && e.text(naming: Config.name).hasPrefix("fee_per_unit '0.5': an inverse-perp's fees are in the coin"),
                    "\(e.text(naming: Config.name))")
        }
    }

    @Test("a config's store gives the symbol's stored instrument settings as the defaults; a field given overrides its setting")
    func storedInstrument() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bt-cbridge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let files = try Importer.read(paths: [root.appendingPathComponent("data/GOOG.csv").path])
        let db = dir.appendingPathComponent("store.sqlite").path
        let store = try CandleStore(path: db)
        try store.write(files)
        try store.setInstrument(symbol: "GOOG", given: [.instrument: .text("future"), .feeBps: .number(2), .leverage: .number(3)])
        guard case .candles(let candles) = files[0].content else { Issue.record("GOOG.csv is not candles"); return }
        try db.withCString { path in
            var c = Config.defaults()
            c.db = path
            let plan = try Config.execution(c, candles: candles, inferredTick: { nil })
            #expect(plan.config.instrument == .future && plan.config.feeBps == 2 && plan.config.leverage == 3)
            c.fee_bps = 5
            #expect(try Config.execution(c, candles: candles, inferredTick: { nil }).config.feeBps == 5)
            c.db = nil
            #expect(try Config.execution(c, candles: candles, inferredTick: { nil }).config.instrument == .spot)
        }
    }
}
