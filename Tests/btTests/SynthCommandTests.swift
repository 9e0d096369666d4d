import Foundation
import Testing

@Suite("bt data synth and summary")
struct SynthCommandTests {
    @Test("same seed exports the same bytes from two stores; another seed differs; --book stores books")
    func synthDeterministic() throws {
        let a = BT.scratchStore(), b = BT.scratchStore(), c = BT.scratchStore()
        let ra = try BT.run(["data", "synth", "--symbols", "2", "--bars", "300", "--seed", "9", "--book", "--db", a])
        #expect(ra.status == 0, "\(ra.stderr)")
        #expect(ra.stdout.contains("SYN0002 book: 600 events added"))
        _ = try BT.run(["data", "synth", "--symbols", "2", "--bars", "300", "--seed", "9", "--db", b])
        _ = try BT.run(["data", "synth", "--symbols", "2", "--bars", "300", "--seed", "10", "--db", c])
        let ea = try BT.run(["data", "export", "SYN0002", "--db", a]).stdout
        #expect(ea.split(separator: "\n").count == 301)
        #expect(ea == (try BT.run(["data", "export", "SYN0002", "--db", b]).stdout))
        #expect(ea != (try BT.run(["data", "export", "SYN0002", "--db", c]).stdout))
        let list = try BT.run(["data", "list", "--json", "--db", a]).stdout
        let object = try JSONSerialization.jsonObject(with: Data(list.utf8)) as! [String: Any]
        #expect((object["books"] as! [[String: Any]]).map { $0["events"] as! Int } == [600, 600])
    }

    @Test("bad synth options: exit 2")
    func badOptions() throws {
        for args in [["--symbols", "0"], ["--bars", "x"], ["--seed", "-1"], ["--timeframe", "2h"]] {
            let r = try BT.run(["data", "synth"] + args + ["--db", BT.scratchStore()])
            #expect(r.status == 2, "\(args)")
        }
    }

    @Test("summary of GOOG as JSON: fractions and ISO times")
    func summary() throws {
        let db = BT.scratchStore()
        _ = try BT.run(["data", "import", "data/GOOG.csv", "--db", db])
        let r = try BT.run(["data", "summary", "--json", "--db", db])
        #expect(r.status == 0)
        let items = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        #expect(items.count == 1)
        #expect(items[0]["bars"] as? Int == 2148)
        #expect(items[0]["first_close"] as? Double == 100.34)
        #expect(items[0]["last_close"] as? Double == 806.19)
        #expect(abs((items[0]["total_return"] as! Double) - (806.19 / 100.34 - 1)) < 1e-12)
        #expect(items[0]["first"] as? String == "2004-08-19T00:00:00Z")
        let text = try BT.run(["data", "summary", "GOOG", "--db", db]).stdout
        #expect(text.contains("703.5%"))
    }
}
