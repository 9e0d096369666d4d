import Foundation
import Testing
import TestSupport
@testable import BacktestData
import BacktestCore

/// The shapes real files come in, made here (not copied): each read and exported back to the
/// candles it holds.
@Suite("Real file shapes: gzip, date layouts, symbols, wide panels, bad rows, noise, sessions")
struct RealFileShapeTests {
    static func read(_ text: String, _ options: ImportOptions = ImportOptions(symbol: "X"), name: String = "f.csv") throws -> [ImportedFile] {
        try Importer.readAll(bytes: Array(text.utf8), name: name, options: options)
    }

    static func series(_ file: ImportedFile) -> CandleSeries {
        guard case .candles(let s) = file.content else { Issue.record("not candles"); return CandleSeries(symbol: "") }
        return s
    }

    static func gzip(_ text: String) throws -> [UInt8] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bt-gz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("a.csv")
        try text.write(to: plain, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-n", plain.path]
        try p.run()
        p.waitUntilExit()
        return [UInt8](try Data(contentsOf: dir.appendingPathComponent("a.csv.gz")))
    }

    static let daily = "date,open,high,low,close,volume\n2024-01-02,10,11,9,10.5,100\n2024-01-03,10.5,12,10,11,200\n"

    @Test("gzip is recognised by its bytes and reads like the plain file")
    func gzipped() throws {
        let plain = try Self.series(Self.read(Self.daily)[0])
        let gz = try Importer.read(bytes: try Self.gzip(Self.daily), name: "prices.bin", options: ImportOptions(symbol: "X"))
        #expect(Self.series(gz).csvText() == plain.csvText())
        var broken = try Self.gzip(Self.daily)
        broken.removeLast(12)
        let e = #expect(throws: InputError.self) { try Importer.read(bytes: broken, name: "t.gz", options: ImportOptions(symbol: "X")) }
        #expect(e?.reason.contains("gzip") == true && e?.description.unicodeScalars.allSatisfy { $0.value >= 32 && $0.value < 127 } == true)
    }

    @Test("M/D/YYYY is settled month-first by a day above 12 anywhere in the column")
    func monthFirst() throws {
        let s = try Self.series(Self.read("Date,Open,High,Low,Close\n1/12/1999,1,2,0.5,1.5\n1/13/1999,1.5,2,1,1.8\n")[0])
        #expect(s.time == [UTCTime.epoch(year: 1999, month: 1, day: 12), UTCTime.epoch(year: 1999, month: 1, day: 13)])
        #expect(s.timeframe == .day1)
        let ambiguous = #expect(throws: InputError.self) { try Self.read("Date,Open,High,Low,Close\n1/2/1999,1,2,0.5,1.5\n1/3/1999,1,2,0.5,1.5\n") }
        #expect(ambiguous?.setting == .dateFormat && ambiguous?.kind == .needsSetting)
        var o = ImportOptions(symbol: "X")
        o.dateFormat = "%d/%m/%Y"
        let dayFirst = try Self.series(Self.read("Date,Open,High,Low,Close\n1/2/1999,1,2,0.5,1.5\n1/3/1999,1,2,0.5,1.5\n", o)[0])
        #expect(dayFirst.time.first == UTCTime.epoch(year: 1999, month: 2, day: 1) && dayFirst.timeframe == .month1)
    }

    @Test("D.M.YYYY HH:MM:SS.fff (a tick-data export) reads to the minute")
    func dottedWithMilliseconds() throws {
        let text = "Gmt time,Open,High,Low,Close,Volume\n02.01.2024 00:00:00.000,1.1,1.2,1.0,1.15,5.5\n"
            + "02.01.2024 00:01:00.000,1.15,1.2,1.1,1.12,3\n"
        let s = try Self.series(Self.read(text)[0])
        #expect(s.time == [UTCTime.epoch(year: 2024, month: 1, day: 2), UTCTime.epoch(year: 2024, month: 1, day: 2, minute: 1)])
        #expect(s.timeframe == .minute1)
        #expect(s.csvText() == "time,open,high,low,close,volume\n2024-01-02T00:00:00Z,1.1,1.2,1.0,1.15,5.5\n"
                    + "2024-01-02T00:01:00Z,1.15,1.2,1.1,1.12,3.0\n")
    }

    @Test("epoch nanoseconds are a unit of their own")
    func nanoseconds() throws {
        let s = try Self.series(Self.read("time,open,high,low,close\n1704153600000000000,1,2,0.5,1\n1704153660000000000,1,2,0.5,1\n")[0])
        #expect(s.time.first == 1_704_153_600 && s.timeframe == .minute1)
    }

    @Test("a Ticker column splits one file into three series")
    func tickerColumn() throws {
        var o = ImportOptions()
        o.symbolColumn = "Ticker"
        var text = "Date,Ticker,Open,High,Low,Close,Volume\n"
        for day in 2...4 { for t in ["AAA", "bbb", "CCC"] { text += "2024-01-0\(day),\(t),\(day),\(day + 1),\(day - 1),\(day),10\n" } }
        let files = try Self.read(text, o)
        #expect(files.map(\.symbol) == ["AAA", "BBB", "CCC"])
        for f in files {
            let s = Self.series(f)
            #expect(s.count == 3 && s.close == [2, 3, 4] && s.timeframe == .day1)
        }
    }

    @Test("a wide panel is close-only: O = H = L = C, volume missing, exported empty and read back")
    func widePanel() throws {
        var o = ImportOptions()
        o.layout = .wide
        let files = try Self.read("Date,AAA,BBB\n2024-01-02,10,\n2024-01-03,11,20\n2024-01-04,12,21\n", o)
        #expect(files.map(\.symbol) == ["AAA", "BBB"])
        let a = Self.series(files[0])
        #expect(a.close == [10, 11, 12] && a.open == a.close && a.high == a.close && a.low == a.close)
        #expect(a.volume.allSatisfy(\.isNaN) && !a.hasRange)
        #expect(Self.series(files[1]).count == 2)
        #expect(a.csvText().hasSuffix("2024-01-04T00:00:00Z,12.0,12.0,12.0,12.0,\n"))
        let back = try Self.series(Self.read(a.csvText())[0])
        #expect(back.close == a.close && back.volume.allSatisfy(\.isNaN))
        #expect(throws: InputError.self) { try a.require(range: true, volume: false, for: "atr") }
        #expect(throws: InputError.self) { try IndicatorSpec(parsing: "obv").compute(on: a) }
    }

    @Test("Yahoo null rows: refused with their line, or skipped and counted")
    func nullRows() throws {
        let text = "Date,Open,High,Low,Close,Adj Close,Volume\n2024-01-02,10,11,9,10.5,10.5,100\n"
            + "2024-01-03,null,null,null,null,null,null\n2024-01-04,10.5,12,10,11,11,200\n2024-01-05,11,12,10,11,11,200\n"
            + "2024-01-08,11,12,10,11,11,200\n2024-01-09,11,12,10,11,11,200\n2024-01-10,11,12,10,11,11,200\n"
        let e = #expect(throws: InputError.self) { try Self.read(text) }
        #expect(e?.line == 3)
        var o = ImportOptions(symbol: "X")
        o.skipBadRows = true
        let f = try Self.read(text, o)[0]
        #expect(Self.series(f).count == 6 && f.skipped.count == 1 && f.skipped.first.map(\.line) == [3])
    }

    @Test("OHLC noise of 1e-17 relative is clamped, a real violation refused; Adj Close scaling passes")
    func noiseAndAdjusted() throws {
        let noisy = try Self.series(Self.read("date,open,high,low,close\n2024-01-02,100,100,99,100.00000000000001\n")[0])
        #expect(noisy.high[0] == 100.00000000000001)
        #expect(throws: InputError.self) { try Self.read("date,open,high,low,close\n2024-01-02,100,99.9,99,100\n") }
        // high == close, scaled by adj/close: the product can land a hair below the adjusted close.
        var text = "Date,Open,High,Low,Close,Adj Close,Volume\n"
        for k in 0..<300 {
            let c = 100 + Double(k) * 0.37, adj = c * 0.9731 + 0.0017 * Double(k % 7)
            text += "\(UTCTime.isoDate(UTCTime.epoch(year: 2020, month: 1, day: 1) + Int64(k) * 86_400)),\(c - 1),\(c),\(c - 2),\(c),\(adj),1000\n"
        }
        var o = ImportOptions(symbol: "X", adjusted: true)
        o.skipBadRows = false
        let s = try Self.series(Self.read(text, o)[0])
        #expect(s.count == 300)
        for i in 0..<s.count { #expect(s.high[i] >= Swift.max(s.open[i], s.close[i]) && s.low[i] <= Swift.min(s.open[i], s.close[i])) }
    }

    @Test("--tz reads local times across a daylight-saving change and stores UTC")
    func timeZone() throws {
        var o = ImportOptions(symbol: "X", timeframe: .minute30)
        o.timeZone = "America/New_York"
        let s = try Self.series(Self.read("time,open,high,low,close\n2024-03-08 09:30,1,2,0.5,1\n2024-03-11 09:30,1,2,0.5,1\n", o)[0])
        #expect(s.time == [UTCTime.epoch(year: 2024, month: 3, day: 8, hour: 14, minute: 30),
                           UTCTime.epoch(year: 2024, month: 3, day: 11, hour: 13, minute: 30)])
        #expect(throws: InputError.self) { try Self.read("time,open,high,low,close\n2024-03-10 02:30,1,2,0.5,1\n", o) }
    }

    @Test("session resampling: 09:30-anchored hours and one bar per session, across the March DST change")
    func sessionResampling() throws {
        let session = try TradingSession("09:30-16:00", zone: "America/New_York")
        var s = CandleSeries(symbol: "X", timeframe: .minute30)
        for (day, utcOpen) in [(8, 14), (11, 13)] {  // EST then EDT
            let open = UTCTime.epoch(year: 2024, month: 3, day: day, hour: utcOpen, minute: 30)
            for k in -2..<15 {  // two pre-market bars, 13 session bars, two after the close
                let t = open + Int64(k) * 1800, v = Double(k + 10)
                s.append(time: t, open: v, high: v + 1, low: v - 1, close: v + 0.5, volume: 1)
            }
        }
        let hours = try s.resampled(to: .hour1, session: session)
        let first = UTCTime.epoch(year: 2024, month: 3, day: 8, hour: 14, minute: 30)
        let afterDST = UTCTime.epoch(year: 2024, month: 3, day: 11, hour: 13, minute: 30)
        #expect(hours.count == 14)
        #expect(hours.time[0] == first && hours.time[6] == first + 6 * 3600 && hours.time[7] == afterDST)
        #expect(hours.volume[0] == 2 && hours.volume[6] == 1)  // 15:30-16:00 holds one 30m bar
        let days = try s.resampled(to: .day1, session: session)
        #expect(days.time == [UTCTime.epoch(year: 2024, month: 3, day: 8), UTCTime.epoch(year: 2024, month: 3, day: 11)])
        #expect(days.open[0] == 10 && days.close[0] == 22.5 && days.volume == [13, 13])
    }
}
