import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

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
        Case(name: "unparsable time", file: "a.csv", text: header + "2024-01-02,10,11,9,10.5,100\n02/01/2024,10,11,9,10.5,100\n",
             location: ":3", reason: "time '02/01/2024' is not a date"),
        Case(name: "ambiguous day and month", file: "a.csv", text: header + "02/01/2024,10,11,9,10.5,100\n", location: "",
             reason: "cannot tell how the dates are written: the dates read as both D/M/YYYY and M/D/YYYY"),
        Case(name: "empty file", file: "a.csv", text: "", location: "", reason: "file is empty"),
        Case(name: "blank file", file: "a.csv", text: "\n  \n\r\n", location: "", reason: "file is empty"),
        Case(name: "header only", file: "a.csv", text: header, location: "", reason: "no data rows after the header"),
        Case(name: "unknown format", file: "a.txt", text: "hello\n", location: ":1", reason: "unknown format"),
        Case(name: "binance too few fields", file: "b.csv", text: "1704067200000,1,2,0.5,1.5,3,1704067259999,4,5,6,7,0\n1704067260000,1,2\n", location: ":2", reason: "too few fields: expected at least 6, found 3"),
        Case(name: "alpha vantage bad number", file: "av.json", text: #"{"Time Series (Daily)": {"2024-01-02": {"1. open": "1", "2. high": "x", "3. low": "1", "4. close": "1", "5. volume": "1"}}}"#, location: #": key "Time Series (Daily)" > "2024-01-02" > "2. high""#, reason: "high is not a number"),
        Case(name: "alpha vantage missing field", file: "av.json", text: #"{"Time Series (Daily)": {"2024-01-02": {"1. open": "1", "2. high": "2", "3. low": "1", "5. volume": "1"}}}"#, location: #": key "Time Series (Daily)" > "2024-01-02""#, reason: #"missing "close""#),
        Case(name: "alpha vantage error message", file: "av.json", text: #"{"Error Message": "Invalid API call."}"#, location: #": key "Error Message""#, reason: "Alpha Vantage answered with an error instead of data: 'Invalid API call.'"),
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
        // Lenient CSV that used to change data silently.
        Case(name: "more fields than the header (a decimal comma)", file: "a.csv", text: header + good + "2024-01-03,10,11,9,10,5,100\n", location: ":3", reason: "too many fields: 7, but the header names 6"),
        Case(name: "binance row with 13 fields", file: "b.csv", text: "1704067200000,1,2,0.5,1.5,3,1704067259999,4,5,6,7,0,9\n", location: ":1", reason: "too many fields: 13", format: .binance),
        Case(name: "a doubled quote is a quote, not the end of the field", file: "a.csv", text: header + "2024-01-03,\"1\"\"5\",11,9,10,100\n", location: ":2", reason: "open '1\"5' is not a number"),
        Case(name: "a quoted decimal comma is one field", file: "a.csv", text: header + "2024-01-03,\"10,5\",11,9,10,100\n", location: ":2", reason: "open '10,5' is not a number"),
        Case(name: "unterminated quote", file: "a.csv", text: header + good + "2024-01-03,\"10,11,9,10,100\n", location: ":3", reason: "field 2 opens a quote that is not closed on this line"),
        Case(name: "text after a closing quote", file: "a.csv", text: header + "2024-01-03,\"1\"5,11,9,10,100\n", location: ":2", reason: "field 2 has text after its closing quote"),
        Case(name: "a quote inside an unquoted field", file: "a.csv", text: header + "2024-01-03,1\"5,11,9,10,100\n", location: ":2", reason: "field 2 has a quote inside an unquoted value"),
        Case(name: "duplicate header column", file: "a.csv", text: "date,open,high,low,close,close,volume\n" + "2024-01-03,10,11,9,10,10,100\n", location: ":1", reason: "the header has 2 close columns (field 5 'close', field 6 'close')"),
        Case(name: "two names for one column", file: "a.csv", text: "date,open,high,low,close,c\n" + "2024-01-03,10,11,9,10,10\n", location: ":1", reason: "the header has 2 close columns"),
        Case(name: "date and time columns", file: "a.csv", text: "date,time,open,high,low,close\n" + "2024-01-03,00:00,10,11,9,10\n", location: ":1", reason: "the header has 2 time columns"),
        Case(name: "junk after a header name", file: "a.csv", text: "date,open,high,low,close,volume;x\n" + good, location: ":1", reason: "header field 6 'volume;x' is 'volume' with ';' after it"),
        Case(name: "control character in a header name", file: "a.csv", text: "date,open,high,low,close,vol\u{1B}ume\n" + good, location: ":1", reason: "holds control characters"),
        Case(name: "time zone offset +99:99", file: "a.csv", text: header + "2024-01-03T00:00:00+99:99,10,11,9,10,100\n", location: ":2", reason: "time '2024-01-03T00:00:00+99:99' is not a date"),
        Case(name: "time zone minutes 60", file: "a.csv", text: header + "2024-01-03T00:00:00-01:60,10,11,9,10,100\n", location: ":2", reason: "is not a date"),
        Case(name: "two bars in one day of a daily series", file: "a.csv",
             text: header + (1...9).map { "2024-01-0\($0),10,11,9,10,100\n" }.joined() + "2024-01-09T12:00:00Z,10,11,9,10,100\n", location: ":11",
             reason: "the bars at 2024-01-09T00:00:00Z (FILE:10) and 2024-01-09T12:00:00Z fall in the same 1d bar"),
        Case(name: "a time before 1970", file: "a.csv", text: header + "1969-12-31,10,11,9,10,100\n" + good, location: ":2", reason: "time 1969-12-31T00:00:00Z is outside the supported range 1970-01-01 to 9999-12-31"),
        Case(name: "a time after 9999", file: "a.csv", text: header + "9999-12-31T23:00:00-05:00,10,11,9,10,100\n", location: ":2", reason: "is outside the supported range"),
        Case(name: "epochs in two units", file: "a.csv", text: header + "1704067200,10,11,9,10,100\n1704153600000,10,11,9,10,100\n", location: ":3", reason: "is an epoch in milliseconds but line 2 has one in seconds"),
        Case(name: "epoch milliseconds below 1e11", file: "a.csv", text: header + "86400000,10,11,9,10,100\n172800000,10,11,9,10,100\n259200000,10,11,9,10,100\n", location: "", reason: "the times look like epoch milliseconds before 1973"),
        Case(name: "a volume that would overflow when summed", file: "a.csv", text: header + "2024-01-03,10,11,9,10,1e300\n", location: ":2", reason: "volume 1e+300 is beyond ±1e250"),
        Case(name: "a price that would overflow when summed", file: "a.csv", text: header + "2024-01-03,-1e260,11,-1e260,10,1\n", location: ":2", reason: "open -1e+260 is not a price bt supports: prices are positive, from 1e-12 to 1e12"),
        // The supported price range: positive, 1e-12 to 1e12.
        Case(name: "a close of 0 (a delisted stock's last bar)", file: "a.csv", text: header + good + "2024-01-03,0,0,0,0,100\n", location: ":3", reason: "open 0 is not a price bt supports: prices are positive, from 1e-12 to 1e12 (a delisted symbol's series ends at its last traded bar)"),
        Case(name: "a negative close", file: "a.csv", text: header + "2024-01-03,10,11,-37.63,-37.63,100\n", location: ":2", reason: "low -37.63 is not a price bt supports"),
        Case(name: "a price below 1e-12", file: "a.csv", text: header + "2024-01-03,1e-300,1e-300,1e-300,1e-300,100\n", location: ":2", reason: "open 1e-300 is outside the supported price range, 1e-12 to 1e12"),
        Case(name: "a spike past 1e12", file: "a.csv", text: header + good + "2024-01-03,10,1e200,9,10,100\n", location: ":3", reason: "high 1e+200 is outside the supported price range, 1e-12 to 1e12"),
        Case(name: "trade quantities that would overflow", file: "t.jsonl", text: "{\"time\": 1704067200, \"price\": 1, \"qty\": 1.7e308}\n", location: ":1", reason: "qty 1.7e+308 is beyond 1e250", format: .trades),
        Case(name: "trade times in two units", file: "t.jsonl", text: "{\"time\": 1704067200, \"price\": 1, \"qty\": 1}\n{\"time\": 1704067260000, \"price\": 1, \"qty\": 1}\n", location: ":2", reason: "a file must use one unit", format: .trades),
        Case(name: "a trade before 1970", file: "t.jsonl", text: "{\"time\": \"1969-07-20T20:17:00Z\", \"price\": 1, \"qty\": 1}\n", location: ":1", reason: "outside the supported range", format: .trades),
        Case(name: "alpha vantage note", file: "av.json", text: #"{"Note": "Thank you for using Alpha Vantage! Our standard API call frequency is 5 calls per minute."}"#, location: #": key "Note""#, reason: "Alpha Vantage answered with a note instead of data (usually the limit on calls per minute or day): 'Thank you"),
        Case(name: "alpha vantage information, pretty-printed", file: "av.json", text: "{\n    \"Information\": \"This is a premium endpoint.\"\n}\n", location: #": key "Information""#, reason: "Alpha Vantage answered with an information message instead of data"),
        Case(name: "alpha vantage date before 1970", file: "av.json", text: #"{"Time Series (Daily)": {"1969-01-02": {"1. open": "1", "2. high": "2", "3. low": "1", "4. close": "1"}}}"#, location: #": key "Time Series (Daily)" > "1969-01-02""#, reason: "outside the supported range"),
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

    @Test("a huge rejected field is quoted in at most 80 characters")
    func hugeField() throws {
        let field = String(repeating: "9x", count: 500_000)
        let text = Self.header + "2024-01-02,\(field),11,9,10,100\n"
        do {
            _ = try Importer.read(bytes: Array(text.utf8), name: "a.csv")
            Issue.record("accepted")
        } catch let e as InputError {
            #expect(e.description.count < 200, "\(e.description.prefix(300))")
            #expect(e.reason.contains("'9x9x9x") && e.reason.contains("…' (1000000 characters) is not a number"), "\(e)")
        }
    }

    @Test("a symbol from a file name or --symbol outside the alphabet is refused", arguments: ["\u{1}goog.csv", "a|b.csv", "x y.csv", ".csv"])
    func badSymbolFromFileName(name: String) throws {
        let text = Array((Self.header + Self.good).utf8)
        let e = try #require(throws: InputError.self) { _ = try Importer.read(bytes: text, name: name) }
        #expect(e.setting == .symbol && e.kind == .needsSetting, "\(e)")
        #expect(e.reason.contains("cannot derive a symbol from the file name"), "\(e)")
        let forced = try #require(throws: InputError.self) {
            _ = try Importer.read(bytes: text, name: "ok.csv", options: ImportOptions(symbol: "\u{1}GOOG"))
        }
        #expect(forced.setting == .symbol && forced.reason.contains("U+0001"), "\(forced)")
    }

    @Test("a missing file is an input error naming it")
    func missingFile() {
        #expect(throws: InputError("no such file", at: "nope/x.csv")) { try Importer.read(paths: ["nope/x.csv"]) }
    }
}
