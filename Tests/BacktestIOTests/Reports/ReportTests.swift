import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData
@testable import BacktestPresentation

@Suite("Reports")
struct ReportTests {
    static func sampleReport() -> Report {
        let result = StatsFixtures.sample
        let stats = Stats(result, periodsPerYear: 252, bootstrap: .init(resamples: 100))
        let costs = CostSensitivity(periodsPerYear: 252, run: { _ in result }, totalReturn: { 0.01 - $0 / 10_000 })
        var config = ExecutionConfig()
        config.feeBps = 1
        return Report(strategy: "ma-cross", parameters: [RunParameter("fast", .int(10)), RunParameter("slow", .int(50))],
                      execution: config.parameters, commandLine: ["bt", "run", "ma-cross", "TEST", "--fast", "10"], result: result, stats: stats, costs: costs)
    }

    static func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bt-report-\(UUID().uuidString)").appendingPathComponent("out").path
    }

    @Test("writes every file; refuses to overwrite without force")
    func writes() throws {
        let dir = Self.scratch()
        let written = try Self.sampleReport().write(to: dir)
        #expect(written.map { ($0 as NSString).lastPathComponent } == Report.files)
        #expect(throws: InputError.self) { try Self.sampleReport().write(to: dir) }
        #expect(try Self.sampleReport().write(to: dir, force: true).count == Report.files.count)
    }

    @Test("report.md holds the manifest, tables and linked charts")
    func markdown() throws {
        let md = try Self.sampleReport().markdown()
        for needle in ["`bt run ma-cross TEST --fast 10`", "| bt version | \(btVersion) |", "| bars | 10 |",
                       "| candles sha256 | `\(StatsFixtures.sample.candles.sha256)` |", "| periods per year | 252 |",
                       "| parameter slow | 50 |", "| execution fee_bps | 1 |", "| execution sl | none |", "| total_return [%] | 21.00% |", "## Cost sensitivity",
                       "Break-even fee: 100.00 bps per fill", "![Equity and drawdown](equity.svg)", "](price.svg)", "```text\nEquity"] {
            #expect(md.contains(needle), "missing \(needle)")
        }
    }

    @Test("equity.csv has one row per bar with the ledger and drawdown")
    func equityCSV() {
        let lines = String(decoding: Self.sampleReport().equityCSVBytes(), as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "time,cash,position,equity,drawdown")
        #expect(lines.count == 11)
        #expect(lines[4] == "2024-01-04T00:00:00Z,99,1,99,-0.1")
    }

    @Test("equity.csv written in pieces is the same bytes as made whole, whatever the piece size", arguments: [1, 3, 10, 11, 1_000])
    func equityCSVPieces(rowsPerPiece: Int) throws {
        let report = Self.sampleReport()
        var pieces: [[UInt8]] = []
        report.equityCSV(rowsPerPiece: rowsPerPiece) { pieces.append($0) }
        #expect(pieces.joined().elementsEqual(report.equityCSVBytes()))
        // A piece per rowsPerPiece rows (the header rides with the first), and the rest last.
        #expect(pieces.count == 10 / rowsPerPiece + 1)
        let dir = Self.scratch()
        try report.write(to: dir)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/equity.csv")) == Data(report.equityCSVBytes()))
    }

    @Test("json() holds the run, every parameter and every stat; stats.csv matches")
    func statsFiles() throws {
        let report = Self.sampleReport()
        let object = try JSONSerialization.jsonObject(with: Data(report.json.serialized().utf8)) as! [String: Any]
        let stats = try #require(object["stats"] as? [String: Any])
        for name in Stat.names { #expect(stats[name] != nil, "missing \(name)") }
        #expect(object["strategy"] as? String == "ma-cross")
        #expect((object["params"] as? [String: Any])?["slow"] as? Int == 50)
        let execution = try #require(object["execution"] as? [String: Any])
        #expect(execution["fee_bps"] as? Int == 1 && execution["fill"] as? String == "next-open")
        #expect(execution["sl"] is NSNull && execution["short"] as? Bool == false)
        #expect(stats["start"] as? String == "2024-01-01T00:00:00Z")
        #expect((stats["total_return"] as? Double).map { abs($0 - 0.21) < 1e-12 } == true)
        let costs = try #require(object["costs"] as? [String: Any])
        #expect((costs["rows"] as? [Any])?.count == 4)
        #expect((costs["break_even_fee_bps"] as? Double).map { abs($0 - 100) < 0.01 } == true)
        let csv = report.statsCSV().split(separator: "\n")
        #expect(csv.count == report.stats.all.count + 1)
        #expect(csv.contains("trades,3"))
    }

    @Test("CSV text cells are escaped against formula injection; numbers are not", arguments: [
        ("=SUM(A1)", "'=SUM(A1)"), ("+1", "'+1"), ("-cmd", "'-cmd"), ("@x", "'@x"), ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""), ("long", "long"),
    ])
    func csvEscaping(input: String, expected: String) {
        #expect(CSV.text(input) == expected)
    }

    @Test("CSV numbers stay numbers")
    func csvNumbers() {
        #expect(CSV.number(-0.25) == "-0.25")
        #expect(CSV.number(-3) == "-3")
        #expect(CSV.number(.nan) == "")
    }

    @Test("file names keep safe names and escape the rest", arguments: [
        ("../../etc/passwd", "%2E.%2F..%2Fetc%2Fpasswd"), ("BTC/USDT", "BTC%2FUSDT"), ("..", "%2E."), ("", "unnamed"),
        ("ma-cross", "ma-cross"), ("a b:c", "a%20b%3Ac"), (".hidden", "%2Ehidden"), ("EUR_USD", "EUR_USD"),
        ("^GSPC", "%5EGSPC"), ("BRK..B", "BRK..B"), ("100%", "100%25"), ("é", "%C3%A9"),
    ])
    func sanitised(input: String, expected: String) {
        #expect(FileName.sanitized(input) == expected)
        #expect(!FileName.sanitized(input).contains("/"))
    }

    @Test("look-alike symbols get different file names: every symbol of up to three characters over a mixed alphabet")
    func fileNamesAreInjective() throws {
        let alphabet = ["A", "1", "_", "-", ".", "/", ":", "^", "=", "@", "!"]
        var words = [""], symbols: [String] = []
        for _ in 0..<3 {
            words = words.flatMap { s in alphabet.map { s + $0 } }
            symbols += words.filter(Symbol.isValid)
        }
        let names = symbols.map(FileName.sanitized)
        #expect(Set(names).count == symbols.count && symbols.count == 3 + 3 * 11 + 3 * 11 * 11)
        #expect(names.allSatisfy { !$0.contains("/") && !$0.hasPrefix(".") && $0.count <= FileName.maximumLength })
        let widest = "A" + String(repeating: "/", count: Symbol.maximumLength - 1)
        #expect(FileName.sanitized(widest).count == 1 + 3 * (Symbol.maximumLength - 1) && !FileName.sanitized(widest).contains("%%"))
    }

    @Test("long texts are cut with a digest, so they stay apart and never split an escape")
    func longNames() {
        let a = String(repeating: "x", count: 200), b = String(repeating: "x", count: 199) + "y"
        let (na, nb) = (FileName.sanitized(a), FileName.sanitized(b))
        #expect(na != nb && na.count <= FileName.maximumLength && na.contains("%%"))
        for k in 0..<4 {
            let n = FileName.sanitized(String(repeating: "x", count: 70 + k) + String(repeating: "/", count: 40))
            let head = n.dropLast(18)
            #expect(n.count <= FileName.maximumLength && n.dropFirst(head.count).hasPrefix("%%") && !head.suffix(2).contains("%"), "\(n)")
        }
        #expect(FileName.link("EUR/USD") == "EUR%252FUSD")
    }

    @Test("the folder of a path, also of one-character paths (where Foundation's own traps on Linux)", arguments: [
        ("x", ""), (".", ""), ("/", "/"), ("/a", "/"), ("a/b", "a"), ("a/b/", "a"), ("ab", ""), ("xy/", ""),
        ("/a/b/c", "/a/b"), ("a//b", "a"), ("./x", "."), ("../x", ".."), ("//a", "/"),
    ])
    func parentFolder(path: String, expected: String) {
        #expect(FileName.parent(of: path) == expected)
        if path.count > 1 { #expect(FileName.parent(of: path) == (path as NSString).deletingLastPathComponent) }
    }

    @Test("default directory uses sanitised names and a UTC stamp")
    func defaultDirectory() {
        #expect(Report.defaultDirectory(strategy: "ma-cross", symbol: "../BTC/USD", at: 1_704_067_200)
                == "notebooks-out/ma-cross-%2E.%2FBTC%2FUSD-20240101T000000Z")
    }

    @Test("SVG charts are well-formed and carry a marker at each trade's entry and exit")
    func svg() throws {
        let r = StatsFixtures.sample
        let price = SVGChart.price(r.candles, trades: r.trades)
        #expect(price.hasPrefix("<svg") && price.hasSuffix("</svg>\n"))
        // Entry and exit triangles of every closed trade, plus the two of the legend.
        #expect(price.components(separatedBy: "<polygon").count - 1 == 2 * r.trades.count + 2)
        #expect(XMLParser(data: Data(SVGChart.equity(r, drawdowns: DrawdownEpisodes(r)).utf8)).parse())
        #expect(XMLParser(data: Data(price.utf8)).parse())
    }
}
