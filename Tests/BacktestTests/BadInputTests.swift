import Foundation
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Every bad-input case: the error names the file and line (or JSON key) and the reason, and a
/// store holding GOOG is byte-for-byte unchanged afterwards.
@Suite("Bad input is refused")
struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var file: String
        var text: String
        /// Expected `location` suffix after the file path (":3" or ": key ...") or nil for none.
        var location: String
        var reason: String
        var format: ImportFormat? = nil
        var testDescription: String { name }
    }

    static let header = "date,open,high,low,close,volume\n"
    static let good = "2024-01-02,10,11,9,10.5,100\n"

    static let cases: [Case] = [
        Case(name: "unparsable number", file: "a.csv", text: header + good + "2024-01-03,10,11,9,abc,100\n", location: ":3", reason: "close 'abc' is not a number"),
        Case(name: "missing number", file: "a.csv", text: header + good + "2024-01-03,10,,9,10,100\n", location: ":3", reason: "missing high"),
        Case(name: "NaN", file: "a.csv", text: header + good + good.replacingOccurrences(of: "01-02", with: "01-03") + "2024-01-04,NaN,11,9,10,100\n", location: ":4", reason: "open 'NaN' is not finite"),
        Case(name: "Inf", file: "a.csv", text: header + "2024-01-03,10,inf,9,10,100\n", location: ":2", reason: "high 'inf' is not finite"),
        Case(name: "high below max(open, close)", file: "a.csv", text: header + good + "2024-01-03,10,10.4,9,10.5,100\n", location: ":3", reason: "high 10.4 is below max(open, close) 10.5"),
        Case(name: "low above min(open, close)", file: "a.csv", text: header + "2024-01-03,10,11,10.2,10.5,100\n" + good, location: ":2", reason: "low 10.2 is above min(open, close) 10.0"),
        Case(name: "negative volume", file: "a.csv", text: header + good + "\n2024-01-03,10,11,9,10.5,-1\n", location: ":4", reason: "negative volume -1.0"),
        Case(name: "too few fields", file: "a.csv", text: header + good + "2024-01-03,10,11,9\n", location: ":3", reason: "too few fields: expected at least 6, found 4"),
        Case(name: "duplicate time with different values", file: "a.csv", text: header + good + "2024-01-03,10,11,9,10.5,100\n2024-01-02,10,11,9,10.5,101\n", location: ":4", reason: "duplicate time 2024-01-02T00:00:00Z with values different from FILE:2"),
        Case(name: "missing required column", file: "a.csv", text: "date,open,high,close,volume\n" + good, location: ":1", reason: "missing required column 'low'"),
        Case(name: "missing time column", file: "a.csv", text: "day,open,high,low,close\n2024-01-02,1,2,0.5,1\n", location: ":1", reason: "missing required column 'date'"),
        Case(name: "unparsable time", file: "a.csv", text: header + "02/01/2024,10,11,9,10.5,100\n", location: ":2", reason: "time '02/01/2024' is not a date"),
        Case(name: "empty file", file: "a.csv", text: "", location: "", reason: "file is empty"),
        Case(name: "blank file", file: "a.csv", text: "\n  \n\r\n", location: "", reason: "file is empty"),
        Case(name: "header only", file: "a.csv", text: header, location: "", reason: "no data rows after the header"),
        Case(name: "unknown format", file: "a.txt", text: "hello\n", location: ":1", reason: "unknown format"),
        Case(name: "binance too few fields", file: "b.csv", text: "1704067200000,1,2,0.5,1.5,3,1704067259999,4,5,6,7,0\n1704067260000,1,2\n", location: ":2", reason: "too few fields: expected at least 6, found 3"),
        Case(name: "alpha vantage bad number", file: "av.json", text: #"{"Time Series (Daily)": {"2024-01-02": {"1. open": "1", "2. high": "x", "3. low": "1", "4. close": "1", "5. volume": "1"}}}"#, location: #": key "Time Series (Daily)" > "2024-01-02" > "2. high""#, reason: "high is not a number"),
        Case(name: "alpha vantage missing field", file: "av.json", text: #"{"Time Series (Daily)": {"2024-01-02": {"1. open": "1", "2. high": "2", "3. low": "1", "5. volume": "1"}}}"#, location: #": key "Time Series (Daily)" > "2024-01-02""#, reason: #"missing "close""#),
        Case(name: "alpha vantage error message", file: "av.json", text: #"{"Error Message": "Invalid API call."}"#, location: #": key "Error Message""#, reason: "Alpha Vantage response holds no data: Invalid API call."),
        Case(name: "alpha vantage invalid JSON", file: "av.json", text: "{\"Time Series (Daily)\": {\n\"2024-01-02\": {\"1. open\": 1,}\n}}", location: ":2", reason: "invalid JSON", format: .alphavantage),
        Case(name: "trade without price", file: "t.jsonl", text: "{\"time\": 1704067200, \"price\": 1, \"qty\": 1}\n{\"time\": 1704067201, \"qty\": 1}\n", location: ":2", reason: "missing \"price\"", format: .trades),
        Case(name: "trade with negative qty", file: "t.jsonl", text: "{\"time\": 1704067200, \"price\": 1, \"qty\": -1}\n", location: ":1", reason: "qty -1.0 is negative"),
        Case(name: "trade with bad JSON", file: "t.jsonl", text: "{\"time\": 1704067200, \"price\": 1, \"qty\": 1}\n{\"time\": 1704067201, \"price\": 1 \"qty\": 1}\n", location: ":2", reason: "invalid JSON", format: .trades),
        Case(name: "book starts with an update", file: "k.jsonl", text: "{\"time\": 1, \"type\": \"update\", \"bids\": [[1, 1]], \"asks\": []}\n", location: ":1", reason: "the first book event must be a snapshot", format: .book),
        Case(name: "book without time", file: "k.jsonl", text: "{\"type\": \"snapshot\", \"bids\": [[1, 1]], \"asks\": [[2, 1]]}\n", location: ":1", reason: "missing \"time\"", format: .book),
        Case(name: "book negative qty", file: "k.jsonl", text: "{\"time\": 1, \"type\": \"snapshot\", \"bids\": [[1, 1]], \"asks\": [[2, 1]]}\n{\"time\": 2, \"type\": \"update\", \"bids\": [[1, -3]]}\n", location: ":2", reason: "bids[0] qty -3.0 is negative"),
        Case(name: "book non-finite price", file: "k.jsonl", text: "{\"time\": 1, \"type\": \"snapshot\", \"bids\": [[\"NaN\", 1]], \"asks\": [[2, 1]]}\n", location: ":1", reason: "bids[0] price is not finite"),
        Case(name: "book level not a pair", file: "k.jsonl", text: "{\"time\": 1, \"type\": \"snapshot\", \"bids\": [[1, 1, 1]], \"asks\": [[2, 1]]}\n", location: ":1", reason: "bids[0] must be a [price, qty] pair"),
        Case(name: "book sides not arrays", file: "k.jsonl", text: "{\"time\": 1, \"type\": \"snapshot\", \"bids\": 5, \"asks\": [[2, 1]]}\n", location: ":1", reason: "bids must be an array of [price, qty] pairs"),
        Case(name: "book time goes backwards", file: "k.jsonl", text: "{\"time\": 5, \"type\": \"snapshot\", \"bids\": [[1, 1]], \"asks\": [[2, 1]]}\n{\"time\": 4, \"type\": \"update\", \"asks\": [[2, 0]]}\n", location: ":2", reason: "is earlier than the previous event's"),
        Case(name: "book crossed snapshot", file: "k.jsonl", text: "{\"time\": 5, \"type\": \"snapshot\", \"bids\": [[2, 1]], \"asks\": [[2, 1]]}\n", location: ":1", reason: "crossed snapshot"),
    ]

    @Test("refused with file, line or key, and reason; store unchanged", arguments: cases)
    func refused(_ c: Case) throws {
        let dir = TestSupport.scratchDirectory()
        let db = dir.appendingPathComponent("store.sqlite").path
        let store = try CandleStore(path: db)
        try TestSupport.importFiles([TestSupport.repoFile("data/GOOG.csv")], into: store)
        try store.checkpoint()
        let before = TestSupport.storeBytes(db)
        let path = TestSupport.write(c.text, named: c.file, in: dir)
        do {
            // A good file first (when the format is detected), so a partial write would show.
            let paths = c.format == nil ? [TestSupport.repoFile("data/EURUSD.csv"), path] : [path]
            try TestSupport.importFiles(paths, into: store, options: ImportOptions(format: c.format))
            Issue.record("\(c.name): accepted")
        } catch let e as InputError {
            #expect(e.location == path + c.location || (c.location.isEmpty && e.location == path), "\(e)")
            #expect(e.reason.contains(c.reason.replacingOccurrences(of: "FILE", with: path)), "\(e)")
        }
        try store.checkpoint()
        #expect(TestSupport.storeBytes(db) == before)
        #expect(try store.list().map(\.symbol) == ["GOOG"])
    }

    @Test("a single bar of a new symbol without --timeframe is refused at write time; store unchanged")
    func singleBarNewSymbol() throws {
        let dir = TestSupport.scratchDirectory()
        let db = dir.appendingPathComponent("store.sqlite").path
        let store = try CandleStore(path: db)
        try TestSupport.importFiles([TestSupport.repoFile("data/GOOG.csv")], into: store)
        try store.checkpoint()
        let before = TestSupport.storeBytes(db)
        let one = TestSupport.write(Self.header + Self.good, named: "new.csv", in: dir)
        #expect(throws: InputError.self) { try TestSupport.importFiles([TestSupport.repoFile("data/EURUSD.csv"), one], into: store) }
        try store.checkpoint()
        #expect(TestSupport.storeBytes(db) == before)
        // With a stored symbol, the single bar takes the stored timeframe.
        let append = TestSupport.write(Self.header + "2013-03-04,800,810,790,805,1000\n", named: "goog.csv", in: dir)
        let report = try TestSupport.importFiles([append], into: store)
        #expect(report == [ImportReport(file: append, symbol: "GOOG", timeframe: "1d", added: 1, updated: 0, unchanged: 0)])
    }

    @Test("a missing file is an input error naming it")
    func missingFile() {
        #expect(throws: InputError("no such file", at: "nope/x.csv")) { try Importer.read(paths: ["nope/x.csv"]) }
    }
}
