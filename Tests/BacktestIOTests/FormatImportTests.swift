import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

@Suite("Binance, Alpha Vantage, trades and book import")
struct FormatImportTests {
    func candles(_ path: String, _ options: ImportOptions = ImportOptions()) throws -> (ImportFormat?, CandleSeries) {
        let file = try Importer.read(paths: [path], options: options)[0]
        guard case .candles(let s) = file.content else { throw InputError("expected candles") }
        return (file.format, s)
    }

    static let march1 = UTCTime.epoch(year: 2024, month: 3, day: 1)

    @Test("Binance klines: detected, ms open times, 1m")
    func binance() throws {
        let (format, s) = try candles(TestSupport.fixture("binance_1m.csv"))
        #expect(format == .binance)
        #expect(s.timeframe == .minute1)
        #expect(s.time == (0..<5).map { Self.march1 + 60 * Int64($0) })
        #expect(s.open[0] == 42000.10 && s.high[0] == 42010.50 && s.low[0] == 41990.00 && s.close[0] == 42005.25)
        #expect(s.volume == [1.5, 2.5, 3.5, 4.5, 5.5])
    }

    @Test("Alpha Vantage daily: detected, unordered dates sorted, string numbers")
    func alphaVantage() throws {
        let (format, s) = try candles(TestSupport.fixture("ibm_daily.json"))
        #expect(format == .alphavantage)
        #expect(s.timeframe == .day1)
        #expect(s.time.map(UTCTime.isoDate) == ["2024-01-03", "2024-01-04", "2024-01-05"])
        #expect(s.open == [161.0, 160.22, 160.1])
        #expect(s.close == [160.1, 160.9, 160.86])
        #expect(s.volume == [4_086_133, 3_935_520, 4_049_425])
    }

    @Test("trades: aggregated into 1m candles by default, out-of-order prints sorted, Binance names and ISO times")
    func trades() throws {
        let (format, s) = try candles(TestSupport.fixture("trades.jsonl"))
        #expect(format == .trades)
        #expect(s.timeframe == .minute1)
        #expect(s.time == [Self.march1, Self.march1 + 60, Self.march1 + 120])
        #expect(s.open == [100.0, 100.5, 100.75])
        #expect(s.high == [101.5, 100.5, 100.75])
        #expect(s.low == [99.5, 100.5, 100.75])
        #expect(s.close == [100.25, 100.5, 100.75])
        #expect(s.volume == [4.75, 3.0, 0.25])
    }

    @Test("trades with --timeframe 5m: one candle")
    func tradesFiveMinutes() throws {
        let (_, s) = try candles(TestSupport.fixture("trades.jsonl"), ImportOptions(timeframe: .minute5))
        #expect(s.timeframe == .minute5)
        #expect(s.count == 1)
        #expect(s.open == [100.0] && s.high == [101.5] && s.low == [99.5] && s.close == [100.75] && s.volume == [8.0])
    }

    static func check(_ file: ImportedFile) -> BookStreamCheck? {
        if case .book(let events) = file.content { return BookStreamCheck(events) }
        return nil
    }

    @Test("book: detected, stored in its own table and returned in order")
    func book() throws {
        let files = try Importer.read(paths: [TestSupport.fixture("book.jsonl")], options: ImportOptions(symbol: "BTCUSDT"))
        #expect(files[0].format == .book)
        let store = try CandleStore(path: TestSupport.scratchDirectory().appendingPathComponent("s.sqlite").path)
        let reports = try store.write(files)
        #expect(reports == [ImportReport(file: files[0].file, symbol: "BTCUSDT", timeframe: "book", added: 3, updated: 0, unchanged: 0,
                                         bookCheck: Self.check(files[0]))])
        let events = try store.bookEvents(symbol: "BTCUSDT")
        #expect(events.count == 3)
        #expect(events[0] == BookEvent(
            timeMs: Self.march1 * 1000, kind: .snapshot,
            bids: [BookLevel(price: 99.9, quantity: 2), BookLevel(price: 99.8, quantity: 5)],
            asks: [BookLevel(price: 100.1, quantity: 1.5), BookLevel(price: 100.2, quantity: 4)]))
        #expect(events[1] == BookEvent(timeMs: (Self.march1 + 30) * 1000, kind: .update, bids: [BookLevel(price: 99.9, quantity: 0)], asks: [BookLevel(price: 100.15, quantity: 0.5)]))
        #expect(events[2].asks.isEmpty && events[2].bids == [BookLevel(price: 99.95, quantity: 1)])
        #expect(try store.list().isEmpty)
        #expect(try store.bookList() == [CandleStore.BookInfo(symbol: "BTCUSDT", firstMs: Self.march1 * 1000, lastMs: (Self.march1 + 60) * 1000, events: 3)])
        // Re-import: unchanged.
        #expect(try store.write(files)[0].unchanged == 3)
        #expect(throws: InputError.self) { try store.bookEvents(symbol: "ETHUSDT") }
        let removed = try store.remove(symbol: "BTCUSDT")
        #expect(removed.book && removed.series.isEmpty)
        #expect(try store.bookList().isEmpty)
    }
}
