import Foundation
import Testing

/// `--fee-per-unit`, `--maker-bps` and `--fee-max` on every command that runs a strategy: a bad
/// value exits 2 naming the option, the reason and the valid range; a good one reaches the run
/// (its parameters, its fees) and a sweep's grid.
@Suite("Fee options on the command line")
struct FeeOptionsCommandTests {
    static let bad: [([String], String)] = [
        (["--fee-per-unit", "-0.01"], "--fee-per-unit '-0.01': fee per unit must be in [0, 1e15]"),
        (["--fee-per-unit", "1e16"], "--fee-per-unit '1e+16': fee per unit must be in [0, 1e15]"),
        (["--maker-bps", "-150"], "--maker-bps '-150': maker fee must be in [-100, 10000) basis points (negative: a rebate of at most 1%)"),
        (["--maker-bps", "10000"], "--maker-bps '10000': maker fee must be in [-100, 10000) basis points"),
        (["--fee-max", "0%"], "--fee-max: fee cap must be above 0% and at most 100% of the notional"),
        (["--fee-max", "150%"], "--fee-max: fee cap must be above 0% and at most 100% of the notional"),
        (["--fee-max", "2"], "--fee-max '2': a bare number is a fraction of the notional (2 is 200%): write 2% for 2 percent"),
        (["--fee-max", "cheap"], "--fee-max 'cheap': not a percentage like 5%"),
    ]

    @Test("a bad fee setting exits 2 with the reason and the range, on run, portfolio, sweep, walk-forward and screen", arguments: bad)
    func badValues(_ option: [String], _ message: String) throws {
        try Self.refusedEverywhere(option, message)
    }

    /// Every command that runs a strategy exits 2 with `error: message` for `option`.
    static func refusedEverywhere(_ option: [String], _ message: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let db = try RunCommandTests.store()
        let out = BT.scratchDirectory().path
        let commands: [[String]] = [
            ["run", "ma-cross", "GOOG"],
            ["portfolio", "ma-cross", "--symbols", "GOOG"],
            ["sweep", "ma-cross", "GOOG", "--grid", "fast=5,10", "--out", out + "/sweep"],
            ["sweep", "ma-cross", "GOOG", "--grid", "fast=5,10", "--walk-forward", "2", "--out", out + "/wf"],
            ["screen", "ma-cross", "--symbols", "GOOG", "--out", out + "/screen"],
        ]
        for command in commands {
            let r = try BT.run(command + option + ["--db", db])
            #expect(r.status == 2, "\(command[0]): \(r.stderr)", sourceLocation: sourceLocation)
            #expect(r.stderr.contains("error: " + message), "\(command[0]): \(r.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test("the fee settings reach the run: its parameters, and fees that differ from the rate alone")
    func goodValues() throws {
        let db = try RunCommandTests.store()
        let base = ["run", "ma-cross", "GOOG", "--json", "--no-costs", "--depth", "none", "--entry-limit", "close * 0.99",
                    "--order-bars", "3", "--tp", "6%", "--db", db]
        let plain = try RunCommandTests.json(try BT.run(base).stdout)
        let plainExecution = try #require(plain["execution"] as? [String: Any])
        // Runs without the new settings list none of them (their parameters read as before).
        #expect(plainExecution["maker_bps"] == nil && plainExecution["fee_per_unit"] == nil && plainExecution["fee_max"] == nil)
        let r = try BT.run(base + ["--maker-bps", "-2", "--fee-per-unit", "0.01", "--fee-max", "0.5%", "--fee-min", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try RunCommandTests.json(r.stdout)
        let execution = try #require(j["execution"] as? [String: Any])
        #expect(execution["maker_bps"] as? Double == -2 && execution["fee_per_unit"] as? Double == 0.01)
        #expect(execution["fee_max"] as? Double == 0.005)
        let fees = { (j: [String: Any]) in ((j["stats"] as? [String: Any])?["fees_paid"] as? Double) ?? .nan }
        // With the cost table (its 0x row included), as bt run runs by default.
        let table = try BT.run(["run", "ma-cross", "GOOG", "--fee-max", "0.5%", "--maker-bps", "-2", "--db", db])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(fees(j) != fees(plain) && fees(j).isFinite, "fees \(fees(j)) vs \(fees(plain))")
    }

    @Test("a sweep's grid takes the fee settings as axes, and refuses a bad value before running")
    func sweepAxes() throws {
        let db = try RunCommandTests.store()
        let out = BT.scratchDirectory().path
        let ok = try BT.run(["sweep", "ma-cross", "GOOG", "--grid", "maker_bps=-2,5", "--grid", "fee_per_unit=0,0.05",
                             "--grid", "fee_max=0.1%,1%", "--entry-limit", "close * 0.99", "--tp", "5%", "--out", out + "/ok", "--db", db])
        #expect(ok.status == 0, "\(ok.stderr)")
        let bad = try BT.run(["sweep", "ma-cross", "GOOG", "--grid", "maker_bps=-200,5", "--out", out + "/bad", "--db", db])
        #expect(bad.status == 2 && bad.stderr.contains("maker_bps=-200: maker fee must be in [-100, 10000) basis points"), "\(bad.stderr)")
    }
}
