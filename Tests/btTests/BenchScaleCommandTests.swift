import Foundation
import Testing

/// `bt bench scale` runs the whole `bt run ma-cross --out` at N, 3N and 10N bars in child
/// processes; small sizes here keep it quick.
@Suite("bt bench scale")
struct BenchScaleCommandTests {
    @Test("--json gives each size's time, its own peak memory and report size, and the load average")
    func json() throws {
        let r = try BT.run(["bench", "scale", "--bars", "2000", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let sizes = try #require(object["sizes"] as? [[String: Any]])
        #expect(sizes.compactMap { $0["bars"] as? Int } == [2_000, 6_000, 20_000])
        for size in sizes {
            let seconds = try #require(size["seconds"] as? Double), peak = try #require(size["peak_bytes"] as? Int)
            let report = try #require(size["report_bytes"] as? Int)
            // A bt process holds at least its binary's pages; a report of 2,000 bars is over 100 KB.
            #expect(seconds > 0 && peak > 10_000_000 && report > 100_000, "\(size)")
        }
        // The largest report holds ten times the bars' rows in its CSVs.
        #expect((sizes[2]["report_bytes"] as? Int ?? 0) > (sizes[0]["report_bytes"] as? Int ?? 0))
        #expect(object["load_average"] is Double)
    }

    @Test("prints a line per size with its ratios to the smallest")
    func text() throws {
        let r = try BT.run(["bench", "scale", "--bars", "1000"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = r.stdout.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).first?.isNumber == true }
        #expect(rows.count == 3 && rows[0].hasSuffix("1.00      1.00") && r.stdout.contains("load average"), "\(r.stdout)")
    }

    @Test("a base size below 1,000 bars is a usage error")
    func usage() throws {
        let r = try BT.run(["bench", "scale", "--bars", "5"])
        #expect(r.status == 2 && r.stderr.contains("--bars must be from 1000 to"), "\(r.stderr)")
    }
}
