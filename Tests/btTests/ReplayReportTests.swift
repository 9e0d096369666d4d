import Foundation
import Testing
import TestSupport
import Backtest

/// `bt replay --out`'s `report.md`: the settings, the statistics of `stats.json` (the same
/// numbers), the fills by side and the link to `fills.csv`; user text (the symbol, the quote
/// expressions, a latency file's path) escaped for markdown.
@Suite("bt replay report.md")
struct ReplayReportTests {
    /// The two-column table rows of the section `heading` of `md`, cells split on unescaped pipes.
    static func rows(_ md: String, section heading: String) throws -> [[String]] {
        let body = try #require(md.components(separatedBy: "## " + heading + "\n").dropFirst().first)
        let section = body.components(separatedBy: "\n## ").first ?? body
        return section.split(separator: "\n").filter { $0.hasPrefix("|") && !$0.hasPrefix("|---") }.map { line in
            var cells: [String] = [], cell = "", escaped = false
            for ch in line.dropFirst() {
                if escaped { cell.append(ch); escaped = false; continue }
                if ch == "\\" { escaped = true; cell.append(ch); continue }
                if ch == "|" { cells.append(cell.trimmingCharacters(in: .whitespaces)); cell = "" } else { cell.append(ch) }
            }
            return cells
        }
    }

    @Test("report.md: settings as given, the statistics equal stats.json's (shares as percentages), fills by side as fills.csv")
    func reportMatchesStats() throws {
        let db = try ReplayCommandTests.store()
        let out = BT.scratchDirectory().appendingPathComponent("replay").path
        let r = try BT.run(["replay", "syn", "--db", db, "--quote-bid", "min(best_bid,\n best_bid)", "--quote-ask", "best_ask",
                            "--quote-size", "0.5", "--max-position", "2", "--every", "37ms", "--latency", "1ms,3ms",
                            "--maker-bps", "1.5", "--queue", "prob:2", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out)) == ["fills.csv", "stats.json", "report.md"])
        let md = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        let statsText = try String(contentsOfFile: out + "/stats.json", encoding: .utf8)
        let stats = try RunCommandTests.json(statsText)
        /// A number of stats.json as written (JSONSerialization rounds some in the last digit).
        func written(_ key: String) -> Double? {
            guard let r = statsText.range(of: "\"\(key)\":") else { return nil }
            return Double(statsText[r.upperBound...].prefix { !",}".contains($0) })
        }

        let settings = Dictionary(uniqueKeysWithValues: try Self.rows(md, section: "Settings").dropFirst().map { ($0[0], $0[1]) })
        #expect(settings["symbol"] == "SYN" && settings["every"] == "37 ms" && settings["queue"] == "prob:2")
        #expect(settings["fills model"] == "whole" && settings["latency"] == "constant: entry 1 ms, response 3 ms")
        // The newline of the expression shown, not breaking the row.
        #expect(settings["bid quote"] == "`min(best_bid,\\n best_bid)`" && settings["ask quote"] == "`best_ask`")
        #expect(settings["quote size"] == "0.5" && settings["max position"] == "2" && settings["maker fee"] == "1.5 bps")

        let table = try Self.rows(md, section: "Statistics").dropFirst()
        #expect(table.count == 18)
        var percentages = 0
        for row in table {
            let key = row[0].replacingOccurrences(of: " [%]", with: "")
            let want = stats[key]
            if row[1] == "n/a" {
                #expect(want is NSNull, "\(key)")
            } else if row[0].hasSuffix(" [%]") {
                percentages += 1
                let shown = try #require(Double(row[1].dropLast())), value = try #require(want as? Double)
                #expect(row[1].hasSuffix("%") && abs(shown / 100 - value) <= 0.00005, "\(key)")
            } else {
                // Whole numbers and shortest round-trip text read back as stats.json's.
                #expect(Double(row[1]) == written(key), "\(key): \(row[1]) vs \(String(describing: want))")
            }
        }
        #expect(percentages == 3 && (stats["fills"] as? Int ?? 0) > 0)

        let csv = try String(contentsOfFile: out + "/fills.csv", encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        let fills = Array(try Self.rows(md, section: "Fills").dropFirst())
        #expect(fills.map { $0[0] } == ["buy", "sell", "all"])
        #expect(fills[0][1] == String(csv.filter { $0[2] == "buy" }.count) && fills[1][1] == String(csv.filter { $0[2] == "sell" }.count))
        #expect(fills[2][1] == String(csv.count) && fills[2][2] == String(stats["maker_fills"] as? Int ?? -1))
        #expect(Double(fills[2][4]) == written("turnover") && Double(fills[2][5]) == written("fees"))
        #expect(md.contains("Maker share 100.00%") && md.contains("[fills.csv](fills.csv)"))
    }

    @Test("hostile quote expressions, symbol and latency file path: no extra column, no broken row, code shown exactly")
    func escaping() throws {
        var job = ReplayJob(symbol: "SYN")
        (job.quoteBid, job.quoteSize, job.maxPosition) = ("best_bid", 0.5, 2)
        let (result, _) = try job.run(store: try CandleStore(existingAt: try ReplayCommandTests.store()))
        let settings = try ReplaySettings(everyNs: 100_000_000, quoteSize: 1, maxPosition: 2,
                                          latency: ReplayLatency(table: LatencyTable(rows: [.init(requestNs: 0, exchangeNs: 1, responseNs: 2)])), lot: 0.001)
        let hostile = "best_bid | x `y` ``z``\n| injected | row |\r\n<img src=x onerror=alert(1)>"
        let setup = ReplayReport.Setup(symbol: "S|Y*[M](http://x)", quoteBid: hostile, quoteAsk: nil, latencyFile: "lat|`f`\n.csv")
        let md = ReplayReport.markdown(result, setup: setup, settings: settings)
        #expect(!md.contains("\n| injected") && !md.contains("[M](http") && md.components(separatedBy: "<img").count == 2)
        let settingsRows = try Self.rows(md, section: "Settings")
        #expect(settingsRows.allSatisfy { $0.count == 2 }, "\(settingsRows)")
        let bid = try #require(settingsRows.first { $0[0] == "bid quote" })[1]
        // A code span longer than the longest backtick run inside, pipes escaped, line breaks visible.
        #expect(bid == "``` best_bid \\| x `y` ``z``\\n\\| injected \\| row \\|\\n<img src=x onerror=alert(1)> ```")
        #expect(settingsRows.first { $0[0] == "symbol" }?[1] == "S\\|Y\\*\\[M\\](http://x)")
        #expect(settingsRows.first { $0[0] == "ask quote" }?[1] == "none")
        #expect(settingsRows.first { $0[0] == "latency" }?[1] == "interpolated from `` lat\\|`f`\\n.csv `` (each fill's in fills.csv)")
        #expect(try Self.rows(md, section: "Statistics").allSatisfy { $0.count == 2 } && result.fills.count > 0)
        #expect(md.hasPrefix("# Replay of S\\|Y\\*\\[M\\](http://x)\n"))
    }
}
