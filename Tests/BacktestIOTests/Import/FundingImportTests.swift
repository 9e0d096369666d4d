import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

@Suite("Funding-rate import and store")
struct FundingImportTests {
    static let jan1 = UTCTime.epoch(year: 2024, month: 1, day: 1) * 1000
    static let hour8: Int64 = 8 * 3_600_000

    func read(_ text: String) throws -> [FundingRate] {
        let file = try Importer.read(bytes: Array(text.utf8), name: "f.csv", options: ImportOptions(symbol: "BTCUSDT", format: .funding))
        guard case .funding(let rows) = file.content else { throw InputError("not funding") }
        return rows
    }

    func scratchStore() throws -> (CandleStore, String) {
        let db = TestSupport.scratchDirectory().appendingPathComponent("store.sqlite").path
        return (try CandleStore(path: db), db)
    }

    func write(_ text: String, to store: CandleStore, updates: Bool = true) throws -> ImportReport {
        let file = try Importer.read(bytes: Array(text.utf8), name: "f.csv", options: ImportOptions(symbol: "BTCUSDT", format: .funding))
        return try store.write([file], updates: updates)[0]
    }

    @Test("a good file: any time format the candle importer reads, rows sorted, empty mark prices missing")
    func good() throws {
        let rows = try read("""
            time,rate,mark_price
            2024-01-01T08:00:00Z,0.0001,42000.5
            \(Self.jan1),-0.0002,
            2024-01-01 16:00:00,0.05,42100
            """)
        #expect(rows == [
            FundingRate(timeMs: Self.jan1, rate: -0.0002, markPrice: nil),
            FundingRate(timeMs: Self.jan1 + Self.hour8, rate: 0.0001, markPrice: 42000.5),
            FundingRate(timeMs: Self.jan1 + 2 * Self.hour8, rate: 0.05, markPrice: 42100),
        ])
        // Rates alone; epoch seconds; milliseconds kept.
        #expect(try read("timestamp,funding_rate\n1704067200.003,-0.05\n") == [FundingRate(timeMs: Self.jan1 + 3, rate: -0.05)])
    }

    @Test("bad input names the file, line and reason and the valid range", arguments: [
        ("time,rate\n2024-01-01T00:00:00Z,0.0001\n2024-01-01T00:00:00Z,0.0002\n", 3,
         "time 2024-01-01T00:00:00Z (1704067200000 ms) repeats line 2; a funding file has one rate per settlement"),
        ("time,rate\n2024-01-01T00:00:00Z,nan\n", 2, "rate 'nan' is not finite"),
        ("time,rate\n2024-01-01T00:00:00Z,inf\n", 2, "rate 'inf' is not finite"),
        ("time,rate\n2024-01-01T00:00:00Z,0.0500001\n", 2,
         "rate 0.0500001 is outside -0.05...0.05 (a fraction per funding period, at most 5%; a percentage?)"),
        ("time,rate\n2024-01-01T00:00:00Z,-1\n", 2,
         "rate -1.0 is outside -0.05...0.05 (a fraction per funding period, at most 5%; a percentage?)"),
        ("time,rate\n2024-01-01T00:00:00Z,x\n", 2, "rate 'x' is not a number"),
        ("time,rate,mark_price\n2024-01-01T00:00:00Z,0.0001,0\n", 2, "mark_price 0.0 is not a positive finite price"),
        ("time,rate,mark_price\n2024-01-01T00:00:00Z,0.0001,-5\n", 2, "mark_price -5.0 is not a positive finite price"),
        ("time,rate,mark_price\n2024-01-01T00:00:00Z,0.0001,inf\n", 2, "mark_price 'inf' is not finite"),
        ("time,rate\nsoon,0.0001\n", 2, "time 'soon' is not a date, date-time or epoch number"),
        ("time,fee\n2024-01-01T00:00:00Z,0.0001\n", 1,
         "missing required column 'rate' (a funding file has time, rate and optionally mark_price; header has: time, fee)"),
        ("rate,mark_price\n0.0001,1\n", 1,
         "missing required column 'time' (a funding file has time, rate and optionally mark_price; header has: rate, mark_price)"),
        ("time,rate\n", nil, "no data rows after the header"),
    ] as [(String, Int?, String)])
    func bad(text: String, line: Int?, reason: String) throws {
        let (store, db) = try scratchStore()
        _ = try write("time,rate,mark_price\n2024-01-01T00:00:00Z,0.0003,41000\n", to: store)
        try store.checkpoint()
        let before = TestSupport.storeBytes(db)
        let e = try #require(throws: InputError.self) { try write(text, to: store) }
        #expect(e.reason == reason)
        #expect(e.file == "f.csv" && e.line == line)
        #expect(try store.funding(symbol: "BTCUSDT") == [FundingRate(timeMs: Self.jan1, rate: 0.0003, markPrice: 41000)])
        try store.checkpoint()
        #expect(TestSupport.storeBytes(db) == before)
    }

    @Test("candle-only settings are refused for a funding file, naming the setting (--adjusted as the format's)",
          arguments: [Setting.timeframe, .skipBadRows, .format, .stamp, .dateFormat])
    func refusedOptions(setting: Setting) throws {
        var options = ImportOptions(symbol: "BTCUSDT", format: .funding)
        switch setting {
        case .timeframe: options.timeframe = .hour1
        case .skipBadRows: options.skipBadRows = true
        case .stamp: options.stamp = .end
        case .dateFormat: options.dateFormat = "%Y"
        default: options.adjusted = true
        }
        let e = try #require(throws: InputError.self) {
            try Importer.read(bytes: Array("time,rate\n0,0\n".utf8), name: "f.csv", options: options)
        }
        #expect(e.setting == setting)
        // The fixture reads without them.
        #expect(try Importer.read(paths: [TestSupport.fixture("funding.csv")], options: ImportOptions(format: .funding))[0].symbol == "FUNDING")
    }

    @Test("a funding file imported without its format is refused with the format that reads it")
    func suggested() throws {
        let e = try #require(throws: InputError.self) {
            try Importer.read(paths: [TestSupport.fixture("funding.csv")], options: ImportOptions(symbol: "BTCUSDT"))
        }
        #expect(e.reason.hasSuffix("missing required column 'close' (header has: time, rate, mark_price); the header names a funding "
                                       + "rate: a file of funding rates"), "\(e.reason)")
        #expect(e.fixes.map(\.setting) == [.format] && e.fixes.first?.value == "funding")
    }

    @Test("merging as candles merge: re-import unchanged byte for byte, new times added, changes refused without updates")
    func merge() throws {
        let (store, db) = try scratchStore()
        let first = try write("time,rate,mark_price\n\(Self.jan1),0.0001,42000\n\(Self.jan1 + Self.hour8),0.0002,42100\n", to: store)
        #expect(first.timeframe == "funding" && first.added == 2 && first.updated == 0)
        try store.checkpoint()
        let before = TestSupport.storeBytes(db)
        let again = try write("time,rate,mark_price\n\(Self.jan1),0.0001,42000\n\(Self.jan1 + Self.hour8),0.0002,42100\n", to: store)
        #expect(again.added == 0 && again.unchanged == 2)
        try store.checkpoint()
        #expect(TestSupport.storeBytes(db) == before)

        // A changed rate is refused without updates, naming the change; nothing is written.
        let e = try #require(throws: InputError.self) {
            try write("time,rate\n\(Self.jan1 + Self.hour8),0.0003\n\(Self.jan1 + 2 * Self.hour8),0.0001\n", to: store, updates: false)
        }
        #expect(e.setting == .update && e.kind == .needsSetting)
        #expect(e.reason.hasPrefix("BTCUSDT funding: the file changes 1 stored rate; the largest change is rate at 2024-01-01T08:00:00Z "
                                       + "from 0.0002 to 0.0003 (50%); nothing was written"), "\(e.reason)")
        try store.checkpoint()
        #expect(TestSupport.storeBytes(db) == before)

        // With updates: the file's rate wins, its missing mark price keeps the stored one, a new time is added,
        // stored times absent from the file are kept.
        let updated = try write("time,rate\n\(Self.jan1 + Self.hour8),0.0003\n\(Self.jan1 + 2 * Self.hour8),0.0001\n", to: store)
        #expect(updated.added == 1 && updated.updated == 1 && updated.unchanged == 0)
        #expect(try store.funding(symbol: "BTCUSDT") == [
            FundingRate(timeMs: Self.jan1, rate: 0.0001, markPrice: 42000),
            FundingRate(timeMs: Self.jan1 + Self.hour8, rate: 0.0003, markPrice: 42100),
            FundingRate(timeMs: Self.jan1 + 2 * Self.hour8, rate: 0.0001),
        ])
        // A time range, both ends inclusive.
        #expect(try store.funding(symbol: "BTCUSDT", in: (Self.jan1 + 1)...(Self.jan1 + Self.hour8)).map(\.rate) == [0.0003])
        #expect(try store.loadFunding(symbol: "BTCUSDT", from: Self.jan1 / 1000, to: Self.jan1 / 1000).count == 1)
        #expect(throws: InputError.self) { try store.loadFunding(symbol: "ETHUSDT") }
        #expect(try store.fundingList() == [FundingInfo(symbol: "BTCUSDT", firstMs: Self.jan1, lastMs: Self.jan1 + 2 * Self.hour8, count: 3)])
    }

    @Test("export reads back to the same rows; remove takes the funding rates with the symbol")
    func exportAndRemove() throws {
        let (store, _) = try scratchStore()
        _ = try write("time,rate,mark_price\n\(Self.jan1 + 7),0.000123456789,42000.25\n\(Self.jan1 + Self.hour8),-0.0002,\n", to: store)
        let rows = try store.funding(symbol: "BTCUSDT")
        let csv = rows.csvText()
        #expect(csv == "time,rate,mark_price\n2024-01-01T00:00:00.007Z,0.000123456789,42000.25\n2024-01-01T08:00:00Z,-0.0002,\n")
        #expect(try read(csv) == rows)
        let removed = try store.remove(symbol: "BTCUSDT")
        #expect(removed.funding == 2 && removed.series.isEmpty && !removed.book)
        #expect(try store.fundingList().isEmpty)
        #expect(throws: InputError.self) { try store.remove(symbol: "BTCUSDT") }
    }

    @Test("a stored row an import would refuse is reported as damage, not returned")
    func damaged() throws {
        let (store, _) = try scratchStore()
        _ = try write("time,rate\n\(Self.jan1),0.0001\n", to: store)
        try store.transaction { try store.db.execute("UPDATE funding SET rate = 0.5") }
        let e = try #require(throws: StoreError.self) { try store.funding(symbol: "BTCUSDT") }
        #expect(e.kind == .damaged)
    }
}
