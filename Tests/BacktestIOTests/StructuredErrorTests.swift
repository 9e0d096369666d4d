import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData
@testable import BacktestPresentation

/// Library errors say what went wrong in fields (setting, value, file, line, kind) and in neutral
/// words; only the command line knows flag names.
@Suite("Structured input errors")
struct StructuredErrorTests {
    /// The error `body` throws, which must be an `InputError`.
    static func error(_ body: () throws -> Void) throws -> InputError {
        do { try body() } catch let e as InputError { return e }
        Issue.record("no InputError thrown")
        return InputError("none")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let setting: Setting
        let value: String?
        /// The library's wording; nil to skip the check.
        let description: String?
        let body: @Sendable () throws -> Void
        var testDescription: String { description ?? setting.name }

        init(_ setting: Setting, _ value: String?, _ description: String?, _ body: @escaping @Sendable () throws -> Void) {
            self.setting = setting; self.value = value; self.description = description; self.body = body
        }
    }

    static let cases: [Case] = [
        Case(.cash, "0", "cash '0': initial cash must be a positive number up to 1e15") {
            var c = ExecutionConfig(); c.initialCash = 0; try c.validate()
        },
        Case(.feeMin, "-2.5", "fee_min '-2.5': minimum fee must be >= 0") {
            var c = ExecutionConfig(); c.feeMin = -2.5; try c.validate()
        },
        Case(.stopLoss, nil, "sl: stop-loss must be between 0% and 100%") {
            var c = ExecutionConfig(); c.stopLoss = 1.5; try c.validate()
        },
        Case(.size, "150%", "size '150%': is more than the leverage allows: at most 100% of equity at leverage 1 (a margin account with leverage N sizes up to N × 100%)") {
            var config = ExecutionConfig()
            config.sizing = try ExecutionConfig.Sizing.parse("150%")
            try config.validate()
        },
        Case(.takeProfit, "abc", "tp 'abc': not a percentage like 5%") {
            _ = try ExecutionConfig.parseFraction("abc", setting: .takeProfit)
        },
        Case(.from, "2024-13-01", "from '2024-13-01': not a date (use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)") {
            _ = try UTCTime.parseUserDate("2024-13-01", setting: .from)
        },
        Case(.grid, "fast=5:10:0", "grid 'fast=5:10:0': step must be positive") { _ = try ParameterGrid(parsing: ["fast=5:10:0"]) },
        Case(.grid, nil, "grid: parameter 'a' given twice") { _ = try ParameterGrid(parsing: ["a=1", "a=2"]) },
        Case(.where, "fast<slw", "where 'fast<slw': unknown parameter 'slw'; did you mean 'slow'?") {
            _ = try WhereClause("fast<slw", names: ["fast", "slow"])
        },
        Case(.where, nil, "where: no condition given") { _ = try WhereClause(" ", names: ["fast"]) },
        Case(.rank, "sharp", nil) { _ = try SweepStats.stat(named: "sharp") },
        Case(.rank, "sharp", "rank 'sharp': unknown statistic; did you mean 'sharpe'?") { _ = try Stat.named("sharp") },
        Case(.walkForward, "1", "walk_forward '1': needs at least 2 folds") { _ = try WalkForward(bars: 1000, folds: 1) },
    ]

    @Test("a bad setting carries the setting and the value; the description names neither a flag nor a command",
          arguments: cases)
    func settings(_ c: Case) throws {
        let e = try Self.error(c.body)
        #expect(e.kind == .invalid && e.setting == c.setting && e.value == c.value && e.file == nil, "\(e)")
        if let description = c.description { #expect(e.description == description) }
        #expect(!e.description.contains("--") && !e.description.contains("bt "), "\(e)")
        // A front end names the setting its own way.
        #expect(e.message(naming: { "<\($0.name)>" }).hasPrefix("<\(c.setting.name)>"))
    }

    @Test("file errors carry the file and the line, or the JSON key")
    func fileAndLine() throws {
        let csv = TestSupport.write("date,open,high,low,close\n2024-01-02,1,2,0.5,1\n2024-01-03,1,0.5,0.4,1\n", named: "a.csv")
        let e = try Self.error { _ = try Importer.read(paths: [csv]) }
        #expect(e.file == csv && e.line == 3 && e.key == nil && e.setting == nil)
        #expect(e.description == "\(csv):3: high 0.5 is below max(open, close) 1.0")
        let json = TestSupport.write(#"{"Time Series (Daily)": {"2024-01-02": {"1. open": "x"}}}"#, named: "av.json")
        let k = try Self.error { _ = try Importer.read(paths: [json]) }
        #expect(k.file == json && k.line == nil && k.key == #""Time Series (Daily)" > "2024-01-02" > "1. open""#, "\(k)")
        #expect(k.location == "\(json): key \(k.key!)")
    }

    @Test("a refused file carries the settings that read it, named as settings, not flags")
    func fixes() throws {
        var text = "Ticker,Date,Close\n"
        for ticker in ["AAA", "BBB"] { for d in 2...5 { text += "\(ticker),2024-01-0\(d),\(ticker == "AAA" ? 1 : 2)\n" } }
        let e = try Self.error { _ = try Importer.read(paths: [TestSupport.write(text, named: "rows.csv")]) }
        #expect(e.fixes == [InputError.Fix(.symbolColumn, "Ticker", purpose: "to read one series per symbol")], "\(e)")
        #expect(e.reason.hasSuffix("; the file holds 2 symbols in its column 'Ticker' (AAA, BBB)"), "\(e)")
        #expect(e.description.hasSuffix("(to read one series per symbol: set symbol_column Ticker)") && !e.description.contains("--"))
    }

    @Test("situations with their own advice have their own kind; the library adds no command")
    func kinds() throws {
        let dir = TestSupport.scratchDirectory()
        let exists = try Self.error { try OutputDirectory.check(dir.path, force: false) }
        #expect(exists.kind == .outputExists && exists.file == dir.path)
        #expect(exists.description == "\(dir.path): output directory already exists; nothing was written")

        let missing = dir.appendingPathComponent("none.sqlite").path
        let noStore = try Self.error { _ = try CandleStore(existingAt: missing) }
        #expect(noStore.kind == .missingStore && noStore.file == missing && noStore.description == "\(missing): no candle store here")

        let store = try CandleStore(path: dir.appendingPathComponent("s.sqlite").path)
        try TestSupport.importFiles([TestSupport.repoFile("data/GOOG.csv")], into: store)
        let noSymbol = try Self.error { _ = try store.load(symbol: "GOOGL") }
        #expect(noSymbol.kind == .missingSymbol && noSymbol.value == "GOOGL")
        #expect(noSymbol.description == "no candles stored for symbol 'GOOGL' (did you mean GOOG?)")
        let noBook = try Self.error { _ = try store.bookEvents(symbol: "GOOG") }
        #expect(noBook.kind == .missingBook && noBook.value == "GOOG" && noBook.description == "no recorded book stored for symbol 'GOOG'")

        let one = TestSupport.write("date,open,high,low,close\n2024-01-02,1,2,0.5,1\n", named: "ONE.csv")
        let single = try Self.error { try TestSupport.importFiles([one], into: store) }
        #expect(single.kind == .needsSetting && single.setting == .timeframe && single.file == one)
        #expect(single.description == "\(one): cannot infer the timeframe of a single bar for a new symbol 'ONE' (set timeframe)")

        let small = try Self.error { _ = try CandleChart.render(try store.load(symbol: "GOOG"), size: ChartSize(width: 5, height: 3)) }
        #expect(small.kind == .needsSetting && small.setting == .chartSize && small.value == "5x3", "\(small)")
    }

    @Test("every setting has a distinct library name")
    func names() {
        #expect(Set(Setting.allCases.map(\.name)).count == Setting.allCases.count)
    }
}
