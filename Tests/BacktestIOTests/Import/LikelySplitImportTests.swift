import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestData
@testable import BacktestPresentation

/// A split left in raw prices is warned about at import and carried to runs by the store's
/// window; a series imported with `--adjusted` is not.
@Suite("Likely splits at import and in the store")
struct LikelySplitImportTests {
    /// A Yahoo-style file of 40 days at 100, halved from 2005-03-03 on (a 2:1 split), volume flat;
    /// the adjusted close is the close after the split throughout.
    static let file: [UInt8] = {
        var text = "Date,Open,High,Low,Close,Adj Close,Volume\n"
        let day0 = UTCTime.epoch(year: 2005, month: 2, day: 1)
        for i in 0..<40 {
            let c = i < 30 ? 100.0 : 50.0
            text += "\(UTCTime.isoDate(day0 + Int64(i) * 86_400)),\(c),\(c),\(c),\(c),50,1000\n"
        }
        return Array(text.utf8)
    }()

    @Test("raw prices: the import's notice and warning line, and a run's window, name the split; adjusted: neither")
    func importAndWindow() throws {
        let raw = try Importer.read(bytes: Self.file, name: "SPLT.csv")
        let splits = try #require(raw.notices.compactMap { n -> [LikelySplit]? in
            if case .likelySplits(let s) = n { return s } else { return nil }
        }.first)
        #expect(splits.map(\.index) == [30])
        let adjusted = try Importer.read(bytes: Self.file, name: "SPLT.csv", options: ImportOptions(symbol: "SPLTA", adjusted: true))
        #expect(adjusted.notices.isEmpty && adjusted.adjusted)
        let dir = TestSupport.scratchDirectory()
        let store = try CandleStore(path: dir.appendingPathComponent("store.sqlite").path)
        let reports = try store.write([raw, adjusted])
        let lines = ImportSummaryText.warnings(reports, naming: { "--\($0.name)" })
        #expect(lines == ["warning: SPLT 2005-03-03: close fell 50.0% in one bar, like a 2:1 split; import adjusted prices or use "
                              + "--adjusted (SPLT.csv)"])
        #expect(try store.loadWindow(symbol: "SPLT").likelySplits.map(\.index) == [30])
        #expect(try store.loadWindow(symbol: "splt", from: UTCTime.epoch(year: 2005, month: 3, day: 10)).likelySplits.count == 1)
        // Adjusted prices have no jump; a raw series stored under the adjusted symbol is not looked at either.
        #expect(try store.loadWindow(symbol: "SPLTA").likelySplits.isEmpty)
        _ = try store.write([try Importer.read(bytes: Self.file, name: "SPLT.csv", options: ImportOptions(symbol: "SPLTA"))], updates: true)
        #expect(try store.loadWindow(symbol: "SPLTA").likelySplits.isEmpty)
        #expect(try CandleStore(existingAt: dir.appendingPathComponent("store.sqlite").path).holdsAdjustedPrices(symbol: "SPLTA"))
        // Removing the series forgets it: raw prices imported under the symbol again are looked at.
        try store.remove(symbol: "SPLTA")
        #expect(try !store.holdsAdjustedPrices(symbol: "SPLTA"))
        _ = try store.write([try Importer.read(bytes: Self.file, name: "SPLT.csv", options: ImportOptions(symbol: "SPLTA"))])
        #expect(try store.loadWindow(symbol: "SPLTA").likelySplits.map(\.index) == [30])
    }

    @Test("a run on the window warns likely_split, once, with the dates")
    func runWarning() throws {
        let series = try Importer.read(bytes: Self.file, name: "SPLT.csv")
        guard case .candles(let candles) = series.content else { Issue.record("expected candles"); return }
        var window = CandleWindow(candles)
        window.likelySplits = LikelySplit.find(candles)
        let signals = Signals(entries: (0..<40).map { $0 == 5 }, exits: (0..<40).map { _ in false })
        let r = try Engine.run(Engine.Request(window, signals: signals, config: ExecutionConfig()))
        #expect(r.warnings.filter { $0.kind == .likelySplit }.map(\.message)
                == ["SPLT 2005-03-03: close fell 50.0% in one bar, like a 2:1 split; import adjusted prices or use --adjusted"])
        let plain = try Engine.run(Engine.Request(candles, signals: signals, config: ExecutionConfig()))
        #expect(!plain.warnings.contains { $0.kind == .likelySplit })
    }
}
