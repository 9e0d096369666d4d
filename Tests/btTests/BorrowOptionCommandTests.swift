import Foundation
import Testing

/// `--borrow-bps` on every command that runs a strategy: a bad value exits 2 naming the option,
/// the reason and the valid range; a good one reaches the run (its parameters, `borrow_paid`,
/// the cost split, `trades.csv`) and a sweep's grid.
@Suite("Borrow option on the command line")
struct BorrowOptionCommandTests {
    static let bad: [([String], String)] = [
        (["--borrow-bps", "-1"], "--borrow-bps '-1': borrow fee must be in [0, 100000] basis points a year (at most 1000% a year)"),
        (["--borrow-bps", "100001"], "--borrow-bps '100001': borrow fee must be in [0, 100000] basis points a year"),
    ]

    @Test("a bad borrow rate exits 2 with the reason and the range, on run, portfolio, sweep, walk-forward and screen", arguments: bad)
    func badValues(_ option: [String], _ message: String) throws {
        try FeeOptionsCommandTests.refusedEverywhere(option, message)
    }

    @Test("the borrow rate reaches the run: its parameters, borrow_paid, the cost split and trades.csv's last column")
    func goodValues() throws {
        let db = try RunCommandTests.store()
        let base = ["run", "ma-cross", "GOOG", "--json", "--no-costs", "--short", "--db", db]
        let plain = try RunCommandTests.json(try BT.run(base).stdout)
        let plainExecution = try #require(plain["execution"] as? [String: Any])
        let plainSplit = try #require(plain["cost_split"] as? [String: Any])
        // Runs without a rate list no borrow parameter and no borrow in the cost split.
        #expect(plainExecution["borrow_bps"] == nil && plainSplit["borrow"] == nil)
        #expect((plain["stats"] as? [String: Any])?["borrow_paid"] as? Double == 0)
        let r = try BT.run(base + ["--borrow-bps", "2000"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try RunCommandTests.json(r.stdout)
        let execution = try #require(j["execution"] as? [String: Any])
        #expect(execution["borrow_bps"] as? Double == 2000)
        let paid = try #require((j["stats"] as? [String: Any])?["borrow_paid"] as? Double)
        let split = try #require(j["cost_split"] as? [String: Any])
        #expect(paid > 0 && split["borrow"] as? Double == paid, "borrow_paid \(paid), split \(split)")
        let ret = { (j: [String: Any]) in ((j["stats"] as? [String: Any])?["total_return"] as? Double) ?? .nan }
        #expect(ret(j) < ret(plain))

        let dir = BT.scratchDirectory().appendingPathComponent("report")
        let out = try BT.run(["run", "ma-cross", "GOOG", "--short", "--borrow-bps", "2000", "--out", dir.path, "--no-chart", "--db", db])
        #expect(out.status == 0, "\(out.stderr)")
        let rows = try String(contentsOf: dir.appendingPathComponent("trades.csv"), encoding: .utf8).split(separator: "\n")
        #expect(rows.first?.hasSuffix(",exit_kind,borrow") == true, "\(rows.first ?? "")")
        let borrows = rows.dropFirst().compactMap { $0.split(separator: ",", omittingEmptySubsequences: false).last.flatMap { Double($0) } }
        #expect(borrows.count == rows.count - 1 && abs(borrows.reduce(0, +) - paid) <= 1e-6 * paid)
        let md = try String(contentsOf: dir.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(md.contains("- borrow"))
    }

    @Test("a sweep's grid takes borrow_bps as an axis, and refuses a bad value before running")
    func sweepAxis() throws {
        let db = try RunCommandTests.store()
        let out = BT.scratchDirectory().path
        let ok = try BT.run(["sweep", "ma-cross", "GOOG", "--short", "--grid", "borrow_bps=0,500", "--out", out + "/ok", "--db", db])
        #expect(ok.status == 0, "\(ok.stderr)")
        let bad = try BT.run(["sweep", "ma-cross", "GOOG", "--grid", "borrow_bps=-5,5", "--out", out + "/bad", "--db", db])
        #expect(bad.status == 2 && bad.stderr.contains("borrow_bps=-5: borrow fee must be in [0, 100000] basis points a year"),
                "\(bad.stderr)")
    }
}
