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
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out)) == ["fills.csv", "stats.json", "report.md", "report.html"])
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

    // MARK: - report.html

    /// The numbers of a page's `{"f64": base64}` array.
    static func f64(_ value: Any?) throws -> [Double] {
        let text = try #require((value as? [String: Any])?["f64"] as? String)
        let data = try #require(Data(base64Encoded: text))
        return stride(from: 0, to: data.count, by: 8).map { k in
            Double(bitPattern: UInt64(littleEndian: data[k..<(k + 8)].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))
        }
    }

    @Test("report.html: self-contained, every fill of fills.csv (side, price, quantity, liquidity, time), the tables of report.md, the chart step for step")
    func reportHTML() throws {
        let db = try ReplayCommandTests.store()
        let out = BT.scratchDirectory().appendingPathComponent("replay").path
        let r = try BT.run(["replay", "syn", "--db", db, "--quote-bid", "best_bid", "--quote-ask", "best_ask + 1",
                            "--quote-size", "0.5", "--max-position", "1", "--every", "50ms", "--latency", "1ms,3ms", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(!page.contains("http://") && !page.contains("https://"))
        #expect(page.contains(#"<meta http-equiv="Content-Security-Policy" content="default-src 'none';"#))
        #expect(page.contains("<body data-kind=\"replay\">") && page.lowercased().components(separatedBy: "</script").count - 1 == 2)
        let data = try SweepScreenCommandTests.pageData(out + "/report.html")
        let stats = try RunCommandTests.json(try String(contentsOfFile: out + "/stats.json", encoding: .utf8))
        #expect(data["kind"] as? String == "replay" && data["title"] as? String == "Replay of SYN")
        let replay = try #require(data["replay"] as? [String: Any])

        // Every fill, as fills.csv has it.
        let csv = try String(contentsOfFile: out + "/fills.csv", encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        let fills = try #require(replay["fills"] as? [String: Any])
        let prices = try #require(fills["price"] as? [Double]), quantities = try #require(fills["quantity"] as? [Double])
        let times = try Self.f64(fills["exchange_time"]), index = try #require(fills["index"] as? [Int])
        #expect(csv.count == stats["fills"] as? Int && csv.count > 5)
        #expect(prices.count == csv.count && quantities.count == csv.count && times.count == csv.count && index.count == csv.count)
        #expect(fills["side"] as? [String] == csv.map { $0[2] } && fills["liquidity"] as? [String] == csv.map { $0[5] })
        #expect(prices == csv.map { Double($0[3])! } && quantities == csv.map { Double($0[4])! })
        #expect(times.map { Int64(($0 * 1000).rounded()) } == csv.map { UTCTime.parseISO(Substring($0[1]))! * 1000 + Int64($0[1].dropFirst(20).prefix(3))! })
        #expect(index == index.sorted())

        // The chart: one point per step (a short replay), the series the same length, fills on the points.
        let time = try Self.f64(replay["time"])
        #expect(time.count == stats["steps"] as? Int && replay["thinned"] is NSNull)
        for key in ["mid", "bid_quote", "ask_quote", "position"] { #expect(try Self.f64(replay[key]).count == time.count, "\(key)") }
        #expect(zip(time, time.dropFirst()).allSatisfy { abs($1 - $0 - 0.05) < 1e-6 })
        for (k, i) in index.enumerated() { #expect(time[i] <= times[k] && (i + 1 == time.count || time[i + 1] > times[k]), "fill \(k)") }
        // The position at the last point, and the quotes: at the book's touch or none.
        let position = try Self.f64(replay["position"]), mid = try Self.f64(replay["mid"]), bid = try Self.f64(replay["bid_quote"])
        #expect(abs(position.last! - (stats["final_position"] as? Double ?? .nan)) <= 0.5 + 1e-9)
        #expect(zip(bid, mid).allSatisfy { $0.isNaN || $0 < $1 } && bid.contains(where: \.isNaN) == (position.max()! >= 1 - 1e-9))
        let subtitle = try #require(data["subtitle"] as? [String])
        #expect(subtitle.contains { $0.hasPrefix("chart: the mid, the quotes in force and the position at each of the") })

        // The tables: report.md's settings, statistics and fills by side.
        let md = try String(contentsOfFile: out + "/report.md", encoding: .utf8)
        let tables = try #require(data["tables"] as? [[String: Any]])
        func rows(_ id: String) throws -> [[String]] { try #require(tables.first { $0["id"] as? String == id }?["rows"] as? [[String]]) }
        #expect(try rows("stats") == (try Self.rows(md, section: "Statistics").dropFirst().map { $0 }))
        #expect(try rows("fills") == (try Self.rows(md, section: "Fills").dropFirst().map { $0 }))
        let settings = try rows("settings")
        #expect(settings.first { $0[0] == "ask quote" }?[1] == "best_ask + 1" && settings.first { $0[0] == "symbol" }?[1] == "SYN")
    }

    @Test("report.html thins a long replay for display and says so; fills.csv stays complete")
    func thinned() throws {
        let db = try ReplayCommandTests.store()
        let out = BT.scratchDirectory().appendingPathComponent("replay").path
        let r = try BT.run(["replay", "syn", "--db", db, "--quote-bid", "best_bid", "--quote-ask", "best_ask",
                            "--quote-size", "0.5", "--max-position", "1", "--every", "1ms", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try SweepScreenCommandTests.pageData(out + "/report.html")
        let stats = try RunCommandTests.json(try String(contentsOfFile: out + "/stats.json", encoding: .utf8))
        let replay = try #require(data["replay"] as? [String: Any]), thinned = try #require(replay["thinned"] as? [String: Any])
        let points = try Self.f64(replay["time"]).count
        let steps = try #require(stats["steps"] as? Int)
        #expect(steps > 100_000 && thinned["steps"] as? Int == steps && thinned["points"] as? Int == points && points <= 8192 && points > 4096)
        let fills = try #require(replay["fills"] as? [String: Any])
        let csvRows = try String(contentsOfFile: out + "/fills.csv", encoding: .utf8).split(separator: "\n").count - 1
        #expect((fills["price"] as? [Any])?.count == csvRows && csvRows == stats["fills"] as? Int)
        let note = try #require((data["subtitle"] as? [String])?.first { $0.hasPrefix("chart thinned for display") })
        let grouped = String(steps).reversed().enumerated().map { String($1) + ($0 > 0 && $0 % 3 == 0 ? "," : "") }.reversed().joined()
        #expect(note.contains("\(grouped) steps (every 1 ms)") && note.contains("every fill drawn"), "\(note)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: out + "/report.html")[.size] as? Int)
        #expect(size < 800_000, "\(size) bytes")
    }

    @Test("report.html: a hostile symbol and quote expressions stay text; the data element cannot be closed")
    func htmlEscaping() throws {
        var job = ReplayJob(symbol: "SYN")
        (job.quoteBid, job.quoteSize, job.maxPosition) = ("best_bid", 0.5, 2)
        let (result, settings) = try job.run(store: try CandleStore(existingAt: try ReplayCommandTests.store()), trace: true)
        let hostile = "</script><script>alert(1)</script><!--"
        let setup = ReplayReport.Setup(symbol: "S</SCRIPT>" + hostile, quoteBid: hostile, quoteAsk: nil, latencyFile: nil)
        let page = try #require(ReplayReport.html(result, setup: setup, settings: settings))
        #expect(page.lowercased().components(separatedBy: "</script").count - 1 == 2 && !page.contains("<!--<"))
        #expect(page.contains("<title>Replay of S&lt;/SCRIPT&gt;&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--</title>"))
        let path = BT.scratchDirectory().appendingPathComponent("page.html").path
        try page.write(toFile: path, atomically: true, encoding: .utf8)
        let data = try SweepScreenCommandTests.pageData(path)
        #expect((data["replay"] as? [String: Any])?["symbol"] as? String == setup.symbol)
        let settingsRows = try #require((data["tables"] as? [[String: Any]])?.first { $0["id"] as? String == "settings" }?["rows"] as? [[String]])
        #expect(settingsRows.first { $0[0] == "bid quote" }?[1] == hostile)
        // Without a trace (no --out), no page.
        let (untraced, _) = try job.run(store: try CandleStore(existingAt: try ReplayCommandTests.store()))
        #expect(untraced.trace == nil && ReplayReport.html(untraced, setup: setup, settings: settings) == nil)
    }
}
