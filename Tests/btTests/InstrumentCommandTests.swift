import Foundation
import Testing
import TestSupport

/// `bt data instrument` end to end: stored settings shown, listed, removed with the symbol, and
/// the defaults of runs and sweeps on the symbol, under what the command line gives.
@Suite("bt data instrument")
struct InstrumentCommandTests {
    @Test("store, show (text and JSON), list, clear and remove")
    func roundTrip() throws {
        let db = try RunCommandTests.store()
        let set = try BT.run(["data", "instrument", "goog", "--kind", "perp", "--fee-bps", "2", "--mmr", "0.4%", "--db", db])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "GOOG instrument settings (the defaults of its runs):\n  instrument  perp\n  mmr         0.4%\n  fee_bps     2\n",
                "\(set.stdout)")
        let json = try BT.run(["data", "instrument", "GOOG", "--json", "--db", db])
        #expect(json.stdout == #"{"symbol":"GOOG","instrument":"perp","mmr":0.004,"fee_bps":2}"# + "\n", "\(json.stdout)")
        let none = try BT.run(["data", "instrument", "EURUSD", "--db", db])
        #expect(none.stdout == "EURUSD: no instrument settings stored (runs use the defaults)\n")
        let list = try BT.run(["data", "list", "--db", db])
        #expect(list.stdout.hasSuffix("GOOG    instrument  -                     -                     perp\n"), "\(list.stdout)")
        let listJSON = try BT.run(["data", "list", "--json", "--db", db]).stdout
        #expect(listJSON.hasSuffix(#""instruments":[{"symbol":"GOOG","instrument":"perp","mmr":0.004,"fee_bps":2}]}"# + "\n"), "\(listJSON)")
        let cleared = try BT.run(["data", "instrument", "GOOG", "--clear", "--db", db])
        #expect(cleared.stdout == "GOOG: no instrument settings stored (runs use the defaults)\n")
        #expect(try BT.run(["data", "instrument", "GOOG", "--lot", "0.5", "--db", db]).status == 0)
        let removed = try BT.run(["data", "remove", "GOOG", "--db", db])
        #expect(removed.stdout == "removed GOOG 1d (2148 bars)\nremoved GOOG instrument settings\n", "\(removed.stdout)")
        let gone = try BT.run(["data", "instrument", "GOOG", "--db", db])
        #expect(gone.status == 2 && gone.stderr.hasPrefix("error: nothing stored for symbol 'GOOG'"), "\(gone.stderr)")
    }

    @Test("a bad value exits 2 naming the flag, the reason and the range, and leaves the store byte for byte", arguments: [
        (["--kind", "perpetual"], "error: --kind 'perpetual': not one of spot, perp, future, inverse-perp\n"),
        (["--fee-bps", "-3"], "error: --fee-bps '-3': fee must be in [0, 10000) basis points\n"),
        (["--leverage", "200"], "error: --leverage '200': leverage must be from 1 to 125\n"),
        (["--tick", "0"], "error: --tick '0': tick must be positive\n"),
        (["--lot", "abc"], nil),
        (["--mmr", "50%", "--leverage", "10"], nil),
        (["--maker-bps", "-101"], nil),
    ])
    func refused(args: [String], message: String?) throws {
        let db = try RunCommandTests.store()
        #expect(try BT.run(["data", "instrument", "GOOG", "--kind", "perp", "--db", db]).status == 0)
        let before = TestSupport.storeBytes(db)
        let r = try BT.run(["data", "instrument", "GOOG"] + args + ["--db", db])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(message.map { r.stderr == $0 } ?? r.stderr.hasPrefix("error: \(args[0])"), "\(r.stderr)")
        #expect(TestSupport.storeBytes(db) == before)
    }

    @Test("runs and sweeps on the symbol take the stored settings; the command line overrides them")
    func runDefaults() throws {
        let db = try RunCommandTests.store()
        #expect(try BT.run(["data", "instrument", "GOOG", "--kind", "future", "--fee-bps", "2", "--db", db]).status == 0)
        func execution(_ extra: [String]) throws -> [String: Any] {
            let r = try BT.run(["run", "ma-cross", "GOOG", "--json", "--db", db] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            return try #require(try RunCommandTests.json(r.stdout)["execution"] as? [String: Any])
        }
        let stored = try execution([])
        #expect(stored["instrument"] as? String == "future" && stored["fee_bps"] as? Double == 2, "\(stored)")
        let given = try execution(["--fee-bps", "5"])
        #expect(given["instrument"] as? String == "future" && given["fee_bps"] as? Double == 5, "\(given)")
        // A timeframe's series (GOOG@1d) reads its symbol's settings.
        #expect(try execution(["--timeframe", "1w"])["fee_bps"] as? Double == 2)
        // A sweep over the stored settings equals one given them on the command line.
        let out = BT.scratchDirectory().path
        let sweep = ["sweep", "ma-cross", "GOOG", "--grid", "fast=5,10", "--db", db]
        #expect(try BT.run(sweep + ["--out", out + "/stored"]).status == 0)
        #expect(try BT.run(sweep + ["--out", out + "/given", "--instrument", "future", "--fee-bps", "2"]).status == 0)
        #expect(try BT.run(sweep + ["--out", out + "/plain", "--instrument", "spot", "--fee-bps", "10"]).status == 0)
        let csv = { (name: String) in try String(contentsOfFile: "\(out)/\(name)/sweep.csv", encoding: .utf8) }
        #expect(try csv("stored") == csv("given"))
        #expect(try csv("stored") != csv("plain"))
    }

    @Test("a future's multiplier is stored with it and sizes its runs' contracts; refused on spot, and a run that makes it spot is told the value is stored")
    func multiplier() throws {
        let db = try RunCommandTests.store()
        let before = TestSupport.storeBytes(db)
        let spot = try BT.run(["data", "instrument", "GOOG", "--multiplier", "50", "--db", db])
        #expect(spot.status == 2 && spot.stderr.hasPrefix("error: --multiplier '50': a multiplier sizes contracts"), "\(spot.stderr)")
        #expect(TestSupport.storeBytes(db) == before)
        let set = try BT.run(["data", "instrument", "GOOG", "--kind", "future", "--multiplier", "50", "--json", "--db", db])
        #expect(set.stdout == #"{"symbol":"GOOG","instrument":"future","multiplier":50}"# + "\n", "\(set.stdout)")
        let run = ["run", "ma-cross", "GOOG", "--depth", "none", "--no-costs", "--db", db]
        let stored = try BT.run(run + ["--json"])
        let given = try BT.run(run + ["--json", "--instrument", "future", "--multiplier", "50"])
        #expect(stored.status == 0 && given.status == 0, "\(stored.stderr)")
        let execution = try #require(try RunCommandTests.json(stored.stdout)["execution"] as? [String: Any])
        #expect(execution["multiplier"] as? Double == 50, "\(execution)")
        #expect(try RunCommandTests.json(stored.stdout)["stats"] as? NSDictionary == RunCommandTests.json(given.stdout)["stats"] as? NSDictionary)
        let madeSpot = try BT.run(run + ["--instrument", "spot"])
        #expect(madeSpot.status == 2 && madeSpot.stderr.contains("a multiplier sizes contracts")
                && madeSpot.stderr.contains("GOOG's stored setting: give it to the run to override"), "\(madeSpot.stderr)")
        #expect(try BT.run(run + ["--instrument", "spot", "--multiplier", "1"]).status == 0)
    }

    @Test("bt data fetch binance-futures fills them from exchangeInfo over the stored ones; a bad tickSize stores nothing (exit 1)")
    func fetched() throws {
        let server = try FundingServer(["--rows", "10"])
        let db = BT.scratchStore()
        let env = ["no_proxy": "127.0.0.1,localhost", "BT_FETCH_BACKOFF": "0.01"]
        let fetch = ["data", "fetch", "binance-futures", "BTCUSDT", "--funding", "--base-url", server.baseURL, "--db", db]
        #expect(try BT.run(fetch, environment: env, directory: BT.root).status == 0)
        #expect(try BT.run(["data", "instrument", "BTCUSDT", "--kind", "future", "--tick", "5", "--fee-bps", "4", "--db", db]).status == 0)
        let again = try BT.run(fetch, environment: env, directory: BT.root)
        #expect(again.stdout.hasSuffix("\nBTCUSDT instrument: instrument perp, tick 0.1, lot 0.001 (binance-futures)\n"), "\(again.stdout)")
        let json = try BT.run(["data", "instrument", "BTCUSDT", "--json", "--db", db]).stdout
        #expect(json == #"{"symbol":"BTCUSDT","instrument":"perp","tick":0.1,"lot":0.001,"fee_bps":4}"# + "\n", "\(json)")

        let bad = try FundingServer(["--rows", "10", "--tick-size", "0"])
        let other = BT.scratchStore()
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", other]).status == 0)
        let before = TestSupport.storeBytes(other)
        let r = try BT.run(["data", "fetch", "binance-futures", "BTCUSDT", "--funding", "--base-url", bad.baseURL, "--db", other],
                           environment: env, directory: BT.root)
        #expect(r.status == 1 && r.stderr.contains("BTCUSDT PRICE_FILTER tickSize '0' is not a positive decimal string")
                    && r.stderr.contains("nothing was stored"), "\(r.stderr)")
        #expect(TestSupport.storeBytes(other) == before)
    }
}
