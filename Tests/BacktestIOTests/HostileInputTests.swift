import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData
@testable import BacktestPresentation

/// Inputs that used to crash, hang or inject: each is refused with a clear error or
/// handled exactly.
@Suite("Hostile inputs: bounds, exact parsing, escaping, staged outputs")
struct HostileInputTests {
    // MARK: - Grids

    @Test("grid sizes are counted before anything is built, without overflow", arguments: [
        ["fast=1:1e300:1"], ["fast=0:1:1e-300"], ["fast=-1e308:1e308:1"], ["fast=1:2000000:1"],
        ["a=1:1000:1", "b=1:1000:1", "c=1:1000:1"], ["a=1:1000000:1", "b=1:1000000:1", "c=1:1000000:1"],
    ])
    func hugeGrids(specs: [String]) {
        let e = #expect(throws: InputError.self) { try ParameterGrid(parsing: specs) }
        #expect(e?.setting == .grid)
    }

    @Test("the limit allows the guide's million-combination grid")
    func millionGrid() throws {
        #expect(try ParameterGrid(parsing: ["fast=1:1000:1", "slow=2:1001:1"]).count == 1_000_000)
    }

    @Test("count saturates instead of overflowing for a grid built from axes")
    func countSaturates() {
        let axis = ParameterGrid.Axis(name: "a", values: [Double](repeating: 1, count: 1 << 22))
        #expect(ParameterGrid(axes: [axis, axis, axis, axis]).count == .max)
    }

    @Test("filtering visits every combination once, in order, and a filter that rejects all ends with none")
    func filtering() throws {
        let grid = try ParameterGrid(parsing: ["fast=1:60:1", "slow=1:60:1", "k=1,2"])
        let clause = try WhereClause("fast*2 <= slow and k > 1", names: ["fast", "slow", "k", "fixed"])
        let streamed = grid.indexes(where: clause.matches, defaults: ["fixed": 3, "k": 99])
        let naive = (0..<grid.count).filter { clause.matches(grid.combination(at: $0).merging(["fixed": 3]) { a, _ in a }) }
        #expect(streamed == naive && !naive.isEmpty)
        let none = try WhereClause("fast > 1000000000", names: ["fast", "slow", "k"])
        let big = try ParameterGrid(parsing: ["a=1:1000:1", "b=1:100:1", "c=1:10:1"])
        #expect(big.indexes(where: none.matches).isEmpty)
    }

    // MARK: - Charts, cash, synthetic data

    @Test("chart sizes are bounded before any allocation", arguments: [(Int.max, 10), (100_000, 100_000), (1001, 40), (80, 501)])
    func chartSizes(width: Int, height: Int) throws {
        let candles = try ShippedData.goog()
        let size = ChartSize(width: width, height: height)
        #expect(throws: InputError.self) { try size.checkMaximum() }
        #expect(throws: InputError.self) { _ = try CandleChart.render(candles, size: size) }
        #expect(throws: InputError.self) {
            _ = try EquityChart.render(time: candles.time, equity: candles.close, initial: 100, size: size)
        }
    }

    @Test("extreme values draw or are refused clearly, never crash or hang", arguments: [1e15, 1e20, 1e200, 1.7e308])
    func extremeValues(scale: Double) throws {
        let time = (0..<50).map { Int64($0) * 86_400 }
        let equity = (0..<50).map { scale * (1 + Double($0 % 7) * 1e-3) }
        do {
            let text = try EquityChart.render(time: time, equity: equity, initial: scale, size: ChartSize(width: 80, height: 20))
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
        } catch let e as InputError {
            #expect(e.setting == .chartWidth, "\(e)")
        }
        var candles = CandleSeries(symbol: "X", timeframe: .day1)
        for (t, v) in zip(time, equity) { candles.append(time: t, open: v, high: v * 1.001, low: v * 0.999, close: v, volume: 1) }
        do {
            _ = try CandleChart.render(candles, size: ChartSize(width: 80, height: 20))
        } catch let e as InputError {
            #expect(e.setting == .chartWidth, "\(e)")
        }
        // Near 1e20 a tick step is below the spacing of Doubles: the labels loop still ends.
        #expect(!YScale(min: 1e20, max: 1e20 + 1e5, rows: 20).labels().isEmpty)
    }

    @Test("cash, fees, notionals and sizes above 1e15 are refused", arguments: [
        (Setting.cash, 1e308), (Setting.feeMin, 1e300), (Setting.minNotional, 1e16), (Setting.size, 1e20),
    ])
    func largeAmounts(setting: Setting, value: Double) {
        var c = ExecutionConfig()
        switch setting {
        case .cash: c.initialCash = value
        case .feeMin: c.feeMin = value
        case .minNotional: c.minNotional = value
        default: c.sizing = .cash(value)
        }
        let e = #expect(throws: InputError.self) { try c.validate() }
        #expect(e?.setting == setting)
    }

    @Test("synthetic universes are bounded: bars, symbols, their product and the year 9999", arguments: [
        (1, Int.max, Timeframe.day1), (1, 20_000_001, .minute1), (100_001, 10, .day1), (10_000, 10_000, .day1),
        (3, Int.max / 2, .day1), (1, 100_000, .month1), (1, 3_000_000, .day1), (0, 10, .day1), (1, 0, .day1),
    ])
    func synthBounds(symbols: Int, bars: Int, timeframe: Timeframe) {
        #expect(throws: InputError.self) { try Synth.validate(symbols: symbols, bars: bars, timeframe: timeframe) }
    }

    @Test("the largest allowed universes end by 9999-12-31")
    func synthLargest() throws {
        try Synth.validate(symbols: 1, bars: 95_784, timeframe: .month1)
        try Synth.validate(symbols: 10, bars: 2520, timeframe: .day1)
        #expect(throws: InputError.self) { try Synth.validate(symbols: 1, bars: 95_785, timeframe: .month1) }
        let s = Synth.series(symbol: "X", bars: 95_784, seed: 1, timeframe: .month1)
        #expect(UTCTime.iso(s.time.last!) == "9999-12-01T00:00:00Z")
    }

    // MARK: - Exact parsing

    @Test("RFC 4180 quotes: quoted fields read exactly, doubled quotes are quotes")
    func quotes() throws {
        let file = try Importer.read(paths: [Repository.path("Tests/Fixtures/fuzz/seeds/quoted.csv")])[0]
        guard case .candles(let s) = file.content else { Issue.record("not candles"); return }
        #expect(s.count == 3 && s.open == [10.5, 10.25, 10.5] && s.volume == [1000, 1200, 900])
        var spans: [Range<Int>] = []
        let line = Array(#""a""b",c , "d" ,"""#.utf8)
        let problem = line.withUnsafeBufferPointer { CSVLine.split($0, delimiter: 44, into: &spans) }
        #expect(problem == nil)
        let texts = line.withUnsafeBufferPointer { b in spans.map { CSVLine.text(b, $0) } }
        #expect(texts == ["a\"b", "c ", "d", "\""] || texts == ["a\"b", "c ", "d", ""], "\(texts)")
    }

    @Test("trades are ordered to the millisecond: open and close are a bar's first and last prints")
    func tradesMilliseconds() throws {
        let text = """
            {"time": "2024-01-02T00:00:00.900Z", "price": 1, "qty": 1}
            {"time": "2024-01-02T00:00:00.100Z", "price": 2, "qty": 1}
            {"time": 1704153630250, "price": 3, "qty": 1}
            {"time": 1704153630249, "price": 4, "qty": 1}
            """
        let file = try Importer.read(bytes: Array(text.utf8), name: "t.jsonl", options: ImportOptions(format: .trades))
        guard case .candles(let s) = file.content else { Issue.record("not candles"); return }
        #expect(s.count == 1)
        #expect(s.open == [2] && s.close == [3] && s.high == [4] && s.low == [1] && s.volume == [4])
    }

    @Test("times: milliseconds kept, offsets exact, epoch units by size")
    func times() throws {
        func ms(_ s: String) -> Int64 { DecimalParsing.parsedTime(s)?.milliseconds ?? -1 }
        let base: Int64 = 1_704_164_645_000  // 2024-01-02T03:04:05Z
        #expect(ms("2024-01-02T03:04:05.678Z") == base + 678)
        let india: Int64 = base + 600 - 19_800_000
        #expect(ms("2024-01-02T03:04:05.6+05:30") == india)
        let west: Int64 = base + 86_340_000
        #expect(ms("2024-01-02T03:04:05-2359") == west)
        #expect(DecimalParsing.parsedTime("2024-01-02T03:04:05+24:00") == nil)
        #expect(ms("1704164645.5") == base + 500)
        #expect(DecimalParsing.parsedTime("1704164645")?.unit == .seconds)
        #expect(DecimalParsing.parsedTime("1704164645000")?.unit == .milliseconds)
        #expect(DecimalParsing.parsedTime("1704164645000000")?.unit == .microseconds)
    }

    @Test("a file whose bars are not aligned with the stored series' bars is refused at write time")
    func misalignedMerge() throws {
        let dir = TestSupport.scratchDirectory()
        let store = try CandleStore(path: dir.appendingPathComponent("s.sqlite").path)
        let days = (1...9).map { "2024-01-0\($0)" }
        let midnight = "date,open,high,low,close\n" + days.map { "\($0),1,2,0.5,1\n" }.joined()
        let five = "date,open,high,low,close\n" + days.map { "\($0)T05:00:00Z,1,2,0.5,1\n" }.joined()
        try store.write([try Importer.read(bytes: Array(midnight.utf8), name: "x.csv")])
        try store.checkpoint()
        let before = TestSupport.storeBytes(store.path)
        let e = #expect(throws: InputError.self) { try store.write([try Importer.read(bytes: Array(five.utf8), name: "x.csv")]) }
        #expect(e?.reason.contains("would share one 1d bar") == true)
        #expect(TestSupport.storeBytes(store.path) == before)
    }

    // MARK: - Escaping, one escaper per destination

    static let hostile = "A|B\n<img src=x onerror=alert(1)>\u{1B}]0;pwned\u{7}\u{1B}[2J`*[x](y)\u{202E}&amp;"

    @Test("terminal: control sequences become visible text")
    func terminal() {
        let t = TerminalText.escaped(Self.hostile)
        #expect(!t.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
        #expect(t.contains("\\x1b]0;pwned\\x07") && t.contains("\\u{202e}") && t.contains("A|B\\n<img"))
        #expect(TerminalText.escaped("a\tb\nc", keepNewlines: true) == "a\tb\nc")
        #expect(TerminalText.escaped("\u{9B}31m") == "\\u{9b}31m")
        #expect(TerminalText.escaped("plain GOOG 1d 2148") == "plain GOOG 1d 2148")
    }

    @Test("markdown: no new cell, row, tag, link or code span")
    func markdown() {
        let cell = Markdown.cell(Self.hostile)
        #expect(!cell.contains("\n") && !cell.contains("<") && !cell.contains(">"))
        #expect(cell.replacingOccurrences(of: "\\|", with: "").contains("|") == false)
        #expect(cell.contains("&lt;img") && cell.contains("\\`") && cell.contains("\\[x\\]") && cell.contains("&amp;amp;"))
        // A backtick stays a backtick (the span's fence is longer than any run inside), so a
        // command line reads back exactly.
        let code = Markdown.code("a`b|c\nd")
        #expect(code == "`` a`b\\|c\\nd ``")
        #expect(Markdown.code("`x``") == "``` `x`` ```" && Markdown.code(" a ") == "`  a  `" && Markdown.code("ab") == "`ab`")
        #expect(CodeSpans.codeSpans(in: "| x | " + Markdown.code("rm `ls` ''") + " |") == ["rm `ls` ''"])
        let fenced = Markdown.fenced("x\n```\ny\n")
        #expect(fenced.hasPrefix("````text\n") && fenced.hasSuffix("````\n"))
        #expect(Markdown.shellQuoted("a\nb\u{1B}") == "$'a\\nb\\x1b'")
    }

    @Test("HTML and SVG: tags and attributes cannot be opened")
    func html() {
        let h = HTML.escaped(#"<svg onload="x">'&"#)
        #expect(h == "&lt;svg onload=&quot;x&quot;&gt;&#39;&amp;")
        #expect(!HTML.escaped("a\u{1B}b").contains("\u{1B}"))
    }

    @Test("CSV: formulas neutralised, structure kept, controls visible")
    func csv() {
        #expect(CSV.text("=1+1") == "'=1+1")
        #expect(CSV.text("a,b\nc") == "\"a,b\nc\"")
        #expect(CSV.text("x\u{1B}[2Jy") == "x\\x1b[2Jy")
    }

    @Test("reports escape a hostile symbol in screen.md, sweep summaries and their CSV")
    func reports() throws {
        let symbol = Self.hostile
        let row = Screen.Row(symbol: symbol, status: .error, error: "no candles for '\(symbol)'")
        let screen = ScreenReport(strategy: "ma-cross", parameters: [], execution: [], commandLine: ["bt", "screen", symbol],
                                  rankStat: .sharpe, minTrades: 0, top: 5, rows: [row])
        let md = screen.markdown()
        #expect(!md.contains("\u{1B}") && !md.contains("\u{202E}"))
        // Outside code spans (where text is shown literally) no tag survives.
        #expect(!CodeSpans.outside(md).contains("<img"))
        let tableLines = md.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("img") }.map(String.init)
        #expect(tableLines.count == 2)
        for line in tableLines {
            let bars = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
            #expect(bars == 3, "\(line)")
        }
        let csv = screen.csv()
        #expect(!csv.contains("\u{1B}"))
        let summary = SweepSymbolsSummary(rank: .sharpe, outcomes: [(symbol, .failure(InputError("bad \(symbol)")))])
        let smd = summary.markdown()
        #expect(!smd.contains("<img") && !smd.contains("\u{1B}"))
        #expect(smd.split(separator: "\n").last!.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == 8)
    }

    // MARK: - Staged outputs

    @Test("outputs appear whole or not at all; --force replaces only bt's own folders")
    func staging() throws {
        let root = TestSupport.scratchDirectory()
        let target = root.appendingPathComponent("a/b/out").path
        do {
            let staged = try OutputDirectory.stage(target, force: false)
            try OutputDirectory.write("x", to: "sweep.csv", in: staged.path)
            // Dropped without commit: as if the process failed here.
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
        let staged = try OutputDirectory.stage(target, force: false)
        try OutputDirectory.write("one", to: "sweep.csv", in: staged.path)
        try OutputDirectory.write("old", to: "walk_forward.csv", in: staged.path)
        try staged.commit()
        #expect(throws: InputError.self) { _ = try OutputDirectory.stage(target, force: false) }
        let again = try OutputDirectory.stage(target, force: true)
        try OutputDirectory.write("two", to: "sweep.csv", in: again.path)
        try again.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: target) == ["sweep.csv"])
        #expect(try String(contentsOfFile: target + "/sweep.csv", encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("a/b").path) == ["out"])
        // A folder with a file bt did not write is never replaced.
        let mine = root.appendingPathComponent("mine").path
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
        try "keep".write(toFile: mine + "/notes.txt", atomically: true, encoding: .utf8)
        let e = #expect(throws: InputError.self) { _ = try OutputDirectory.stage(mine, force: true) }
        #expect(e?.reason.contains("bt did not write") == true)
        #expect(FileManager.default.fileExists(atPath: mine + "/notes.txt"))
        let empty = #expect(throws: InputError.self) { _ = try OutputDirectory.stage("", force: true) }
        #expect(empty?.setting == .output)
    }

    // MARK: - Symbols

    @Test("the symbol alphabet", arguments: [
        ("GOOG", true), ("brk.b", true), ("BRK-B", true), ("^GSPC", true), ("ES=F", true), ("ES1!", true), ("EUR/USD", true),
        ("BINANCE:BTCUSDT", true), ("SYN0001", true), ("\u{1}GOOG", false), ("A|B", false), ("A B", false), ("-X", false),
        (".X", false), ("", false), (String(repeating: "A", count: 33), false), ("<img>", false), ("Ä", false), ("A,B", false),
    ])
    func symbols(text: String, valid: Bool) throws {
        #expect(Symbol.isValid(text) == valid)
        if valid { #expect(try Symbol.validated(text) == text.uppercased()) }
    }
}
