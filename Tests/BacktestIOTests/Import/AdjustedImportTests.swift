import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestData

/// `--adjusted` scales volume by the inverse of the price ratio (`PriceAdjustment`), so the
/// notional per bar, and with it what a participation cap allows, is the raw bar's.
@Suite("Adjusted import")
struct AdjustedImportTests {
    static func candles(_ file: ImportedFile) throws -> CandleSeries {
        guard case .candles(let s) = file.content else { throw InputError("expected candles") }
        return s
    }

    /// GOOG as a Yahoo file whose adjusted close is `ratio(i)` x close at bar i.
    static func googCSV(ratio: (Int) -> Double) throws -> [UInt8] {
        let goog = try ShippedData.goog()
        var text = "Date,Open,High,Low,Close,Adj Close,Volume\n"
        for i in 0..<goog.count {
            text += "\(UTCTime.iso(goog.time[i]).prefix(10)),\(goog.open[i]),\(goog.high[i]),\(goog.low[i]),\(goog.close[i]),"
                + "\(goog.close[i] * ratio(i)),\(goog.volume[i])\n"
        }
        return Array(text.utf8)
    }

    @Test("adjusted volume x adjusted close is raw volume x raw close on every bar (the fixture and a dividend-and-split GOOG)")
    func notionalKept() throws {
        let path = TestSupport.fixture("generic.csv")
        let raw = try Self.candles(try Importer.read(paths: [path])[0])
        let adjusted = try Self.candles(try Importer.read(paths: [path], options: ImportOptions(adjusted: true))[0])
        #expect(raw.volume == [1000, 1200, 1100, 900])
        #expect(adjusted.volume == [2000, 2400, 2200, 1800])  // adj close is half the close: twice the volume
        // A 2:1 split at bar 1000 and a 1% dividend every 60 bars, back-adjusted.
        let ratio = { (i: Int) in (i < 1000 ? 0.5 : 1) * pow(0.99, Double((2147 - i) / 60)) }
        let bytes = try Self.googCSV(ratio: ratio)
        let r = try Self.candles(try Importer.read(bytes: bytes, name: "g.csv"))
        let a = try Self.candles(try Importer.read(bytes: bytes, name: "g.csv", options: ImportOptions(adjusted: true)))
        #expect(a.count == r.count && a.count == 2148)
        let off = (0..<a.count).filter { (i: Int) -> Bool in
            let rawNotional: Double = r.volume[i] * r.close[i]
            let adjustedNotional: Double = a.volume[i] * a.close[i]
            return abs(adjustedNotional - rawNotional) > 1e-9 * rawNotional
        }
        #expect(off.isEmpty, "bars whose notional changed: \(off.prefix(5)) of \(off.count)")
    }

    @Test("an adjusted close that is not a positive number is refused with its line")
    func nonPositiveAdjusted() throws {
        let text = "Date,Open,High,Low,Close,Adj Close,Volume\n2024-01-02,10,11,9,10,0,100\n2024-01-03,10,11,9,10,5,100\n"
        #expect { try Importer.read(bytes: Array(text.utf8), name: "z.csv", options: ImportOptions(adjusted: true)) } throws: { error in
            guard let e = error as? InputError else { return false }
            return e.line == 2 && e.reason.contains("adj close must be a positive number")
        }
    }

    /// A series adjusted by one ratio on every bar (a split after its last bar) is the raw series
    /// in other units: a run sizing by equity, capped at 1% of each bar's volume, meets the cap on
    /// the same orders. With raw volume on adjusted prices it met it twice as hard.
    @Test("a run on adjusted prices meets the participation cap on the same fills as on raw prices, and fills the same notional")
    func sameCapOnAdjusted() throws {
        let bytes = try Self.googCSV(ratio: { _ in 0.5 })
        let raw = try Self.candles(try Importer.read(bytes: bytes, name: "g.csv"))
        let adjusted = try Self.candles(try Importer.read(bytes: bytes, name: "g.csv", options: ImportOptions(adjusted: true)))
        var config = ExecutionConfig()
        config.depth = .none
        config.maxParticipation = 0.01
        config.feeBps = 0
        config.initialCash = 2e9
        let n = raw.count
        let signals = Signals(entries: (0..<n).map { $0 % 40 == 0 }, exits: (0..<n).map { $0 % 40 == 20 })
        let r = try Engine.run(Engine.Request(raw, signals: signals, config: config))
        let a = try Engine.run(Engine.Request(adjusted, signals: signals, config: config))
        let partial = { (x: BacktestResult) in x.fills.filter(\.isPartial).count }
        #expect(partial(r) > 10)
        #expect(partial(a) == partial(r))
        #expect(a.fills.count == r.fills.count)
        let differing = zip(r.fills, a.fills).filter { (x: Fill, y: Fill) -> Bool in
            let rawNotional: Double = x.quantityFilled * x.vwap
            let adjustedNotional: Double = y.quantityFilled * y.vwap
            return x.index != y.index || abs(adjustedNotional - rawNotional) > 1e-6 * rawNotional
        }
        #expect(differing.isEmpty, "\(differing.count) fills differ in bar or notional")
    }
}
