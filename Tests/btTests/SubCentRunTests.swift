import Foundation
import Testing
import TestSupport

/// Sub-cent prices end to end: a series near 0.00001234 (8 decimals, as SHIB/USDT) gets a tick of
/// 1e-8 and trades, and a run whose orders are mostly rejected says so as its first line and as
/// `mostly_rejected` in `--json`, which runs on ordinary data never carry.
@Suite("Sub-cent prices: their own tick, and a headline when most orders are rejected", .serialized)
struct SubCentRunTests {
    /// `bars` hourly SHIB/USDT-like bars near 0.00001234 (8 decimals), a seeded random walk.
    static func subCentBars(_ bars: Int, named name: String, in dir: URL) throws -> String {
        var rng = SplitMix64(seed: 26)
        var units = 1234, text = "time,open,high,low,close,volume\n"
        func price(_ k: Int) -> String { "0.0000" + String(k) }
        for i in 0..<bars {
            let open = units, close = max(1000, min(9999, units + Int.random(in: -30...30, using: &rng)))
            let high = min(9999, max(open, close) + Int.random(in: 0...10, using: &rng))
            let low = max(1000, min(open, close) - Int.random(in: 0...10, using: &rng))
            text += "\(1_700_000_000 + 3600 * i),\(price(open)),\(price(high)),\(price(low)),\(price(close)),\(Int.random(in: 1_000_000_000...5_000_000_000, using: &rng))\n"
            units = close
        }
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func object(_ json: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
    }

    @Test("sub-cent bars: the default run infers a tick of 1e-8 and trades; a run that rejects most orders says so first")
    func subCentTick() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        let csv = try Self.subCentBars(2000, named: "SHIB.csv", in: dir)
        #expect(try BT.run(["data", "import", csv, "--db", db]).status == 0)

        let plain = try BT.run(["run", "ma-cross", "SHIB", "--json", "--no-costs", "--db", db])
        #expect(plain.status == 0, "\(plain.stderr)")
        let run = try Self.object(plain.stdout)
        let stats = run["stats"] as! [String: Any]
        #expect(run["mostly_rejected"] == nil)
        #expect((stats["rejected_orders"] as! Int) == 0 && (stats["fills"] as! Int) > 10, "\(stats)")
        #expect((stats["total_return"] as! Double) > -0.5)

        // A tick of 10,000 is what the old inference chose: nearly every order is rejected.
        let args = ["run", "ma-cross", "SHIB", "--tick", "10000", "--no-costs", "--no-chart", "--db", db]
        let text = try BT.run(args)
        #expect(text.status == 0)
        let first = text.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("Most orders were rejected: ") && first.contains(" of "), "\(text.stdout.prefix(400))")
        #expect(!text.stdout.contains("warning: ") || !text.stdout.contains("orders were rejected ("), "said twice")
        let json = try Self.object(try BT.run(args.filter { $0 != "--no-chart" } + ["--json"]).stdout)
        let mostly = try #require(json["mostly_rejected"] as? [String: Any])
        let rejected = mostly["rejected"] as! Int, orders = mostly["orders"] as! Int
        #expect(2 * rejected > orders && (mostly["message"] as! String).hasPrefix("most orders were rejected"))
        #expect((json["stats"] as! [String: Any])["rejected_orders"] as? Int == rejected)
    }

    @Test("runs on the shipped data carry no rejection headline")
    func shippedRunsUnmarked() throws {
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "data/EURUSD.csv", "--db", db]).status == 0)
        for symbol in ["GOOG", "EURUSD"] {
            let r = try BT.run(["run", "ma-cross", symbol, "--no-costs", "--no-chart", "--db", db])
            #expect(r.status == 0 && !r.stdout.contains("Most orders were rejected"), "\(r.stdout.prefix(300))")
        }
    }
}
