import Foundation
import Testing
import TestSupport
import Backtest

/// `bt replay --latency-file` end to end: a golden case with the committed latency file gives
/// hftbacktest's fills; bad files and a latency given twice exit 2 naming the file and line.
@Suite("bt replay --latency-file")
struct ReplayLatencyFileCommandTests {
    static func args(_ db: String) -> [String] {
        ["replay", "SYN", "--db", db, "--quote-bid", "best_bid", "--quote-size", "1", "--max-position", "2"]
    }

    @Test("a latency-file golden case: the fills' exchange times are hftbacktest's; each fill's own latencies in fills.csv")
    func goldenCase() throws {
        let db = try ReplayCommandTests.store()
        let data = try Data(contentsOf: URL(fileURLWithPath: TestSupport.repoFile("Tests/Fixtures/replay/goldens.json")))
        let golden = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let c = try #require((golden["latency_file_cases"] as? [[String: Any]])?.first)
        let out = BT.scratchDirectory().appendingPathComponent("replay").path
        let r = try BT.run(["replay", "SYN", "--db", db, "--quote-bid", try #require(c["quote_bid"] as? String),
                            "--quote-ask", try #require(c["quote_ask"] as? String), "--quote-size", "\(try #require(c["quote_size"] as? Double))",
                            "--max-position", "\(try #require(c["max_position"] as? Double))", "--every", "\(try #require(c["every_ms"] as? Int))ms",
                            "--latency-file", "Tests/Fixtures/replay/" + (try #require(c["latency_file"] as? String)),
                            "--maker-bps", "\(try #require(c["maker_bps"] as? Double))", "--queue", try #require(c["queue"] as? String),
                            "--out", out, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try RunCommandTests.json(r.stdout)
        #expect(abs((j["pnl"] as? Double ?? .nan) - (try #require(c["pnl"] as? Double))) <= 1e-9)
        #expect(j["latency_model"] as? String == "file" && j["fills"] as? Int == (c["fills"] as? [Any])?.count)
        let csv = try String(contentsOfFile: out + "/fills.csv", encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",").map(String.init) }
        // Fills fall at market events: whole milliseconds.
        let got = csv.map { f in "\(UTCTime.parseISO(Substring(f[1]))! * 1000 + Int64(f[1].dropFirst(20).prefix(3))!)|\(f[2])|\(f[10])" }.sorted()
        let want = try #require(c["fills"] as? [[Any]]).map { row in
            "\((row[0] as! Int) / 1_000_000)|\(row[1] as! String)|\(row[4] as! Int)"
        }.sorted()
        #expect(got == want)
        // The latencies vary from fill to fill (0.2 to 90 ms in the file).
        let entries = Set(csv.map { $0[7] })
        #expect(entries.count > 10 && csv.allSatisfy { (Double($0[7]) ?? -1) >= 0.2 && (Double($0[8]) ?? -1) >= 0.2 })
    }

    @Test("bad latency files exit 2 naming the file and line; --latency with --latency-file is refused", arguments: [
        ("req_ts,exch_ts,resp_ts\n10,20,30\n5,25,35\n", ":3", "out of time order"),
        ("req_ts,exch_ts,resp_ts\n10,9,30\n", ":2", "negative entry latency"),
        ("req_ts,exch_ts,resp_ts\n10,x,30\n", ":2", "not a time"),
        ("", "", "empty latency file"),
    ])
    func badFile(text: String, line: String, reason: String) throws {
        let db = try ReplayCommandTests.store()
        let path = BT.scratchDirectory().appendingPathComponent("lat.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try BT.run(Self.args(db) + ["--latency-file", path])
        #expect(r.status == 2 && r.stderr.contains("lat.csv" + line) && r.stderr.contains(reason), "\(r.stderr)")
        let both = try BT.run(Self.args(db) + ["--latency-file", path, "--latency", "5ms"])
        #expect(both.status == 2 && both.stderr.contains("--latency-file") && both.stderr.contains("not both"), "\(both.stderr)")
    }
}
