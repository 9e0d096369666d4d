import Foundation
import Testing
import TestSupport
import Backtest

/// `bt data import --format funding`, `bt data list`, `bt data export --funding` and `bt data remove` end to end.
@Suite("bt data funding rates")
struct FundingCommandTests {
    func file(_ text: String) -> String {
        let path = BT.scratchStore().replacingOccurrences(of: "store.sqlite", with: "funding.csv")
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test("import, list (text and JSON), export and remove")
    func roundTrip() throws {
        let db = BT.scratchStore()
        let path = file("time,rate,mark_price\n2024-01-01T08:00:00Z,0.0001,42000.5\n2024-01-01T00:00:00Z,-0.0002,\n")
        let r = try BT.run(["data", "import", path, "--format", "funding", "--symbol", "BTCUSDT", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "BTCUSDT funding: 2 rates added, 0 updated, 0 unchanged (\(path))\n")
        let list = try BT.run(["data", "list", "--db", db])
        #expect(list.stdout == """
            SYMBOL   TIMEFRAME  FIRST                 LAST                     BARS
            BTCUSDT  funding    2024-01-01T00:00:00Z  2024-01-01T08:00:00Z  2 rates

            """, "\(list.stdout)")
        let json = try BT.run(["data", "list", "--json", "--db", db])
        #expect(json.stdout == #"{"series":[],"books":[],"funding":[{"symbol":"BTCUSDT","first":"2024-01-01T00:00:00Z","last":"2024-01-01T08:00:00Z","rates":2}]}"# + "\n")
        let export = try BT.run(["data", "export", "BTCUSDT", "--funding", "--db", db])
        #expect(export.stdout == "time,rate,mark_price\n2024-01-01T00:00:00Z,-0.0002,\n2024-01-01T08:00:00Z,0.0001,42000.5\n")
        let removed = try BT.run(["data", "remove", "BTCUSDT", "--db", db])
        #expect(removed.stdout == "removed BTCUSDT funding (2 rates)\n", "\(removed.stderr)")
        #expect(try BT.run(["data", "export", "BTCUSDT", "--funding", "--db", db]).status == 2)
    }

    @Test("a refused funding file exits 2 naming file, line and range, and leaves the store byte for byte")
    func refused() throws {
        let db = BT.scratchStore()
        let good = file("time,rate\n2024-01-01T00:00:00Z,0.0001\n")
        #expect(try BT.run(["data", "import", good, "--format", "funding", "--symbol", "BTCUSDT", "--db", db]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let bad = file("time,rate\n2024-01-01T08:00:00Z,0.0001\n2024-01-01T16:00:00Z,0.07\n")
        let r = try BT.run(["data", "import", bad, "--format", "funding", "--symbol", "BTCUSDT", "--db", db])
        #expect(r.status == 2)
        #expect(r.stderr == "error: \(bad):3: rate 0.07 is outside -0.05...0.05 (a fraction per funding period, at most 5%; a percentage?)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    @Test("bt data fetch binance-futures --funding stores the history; without --funding it is refused (exit 2)")
    func fetch() throws {
        let server = try FundingServer(["--rows", "1500"])
        let db = BT.scratchStore()
        let env = ["no_proxy": "127.0.0.1,localhost", "BT_FETCH_BACKOFF": "0.01"]
        let args = ["data", "fetch", "binance-futures", "btcusdt", "--base-url", server.baseURL, "--db", db]
        let r = try BT.run(args + ["--funding"], environment: env, directory: BT.root)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "BTCUSDT funding: 1500 rates added, 0 updated, 0 unchanged (binance-futures, 2 pages, 3 requests, 0 retries)\n"
                + "BTCUSDT instrument: instrument perp, tick 0.1, lot 0.001 (binance-futures)\n", "\(r.stdout)")
        let again = try BT.run(args + ["--funding"], environment: env, directory: BT.root)
        #expect(again.stdout.hasPrefix("BTCUSDT: no new funding rates after \(UTCTime.iso(FundingServer.settlement(1499).timeMs / 1000))"),
                "\(again.stdout)\(again.stderr)")
        let export = try BT.run(["data", "export", "BTCUSDT", "--funding", "--db", db]).stdout
        #expect(export.split(separator: "\n").count == 1501)
        #expect(export.hasPrefix("time,rate,mark_price\n2024-01-01T00:00:00Z,-0.0001,42000.0\n"), "\(export.prefix(100))")
        let refused = try BT.run(args, environment: env, directory: BT.root)
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("error: binance-futures serves funding rates only for now (futures candles come later)"),
                "\(refused.stderr)")
        #expect(try BT.run(args.replacingFirst("binance-futures", "binance") + ["--funding", "--interval", "1h"],
                           environment: env, directory: BT.root).stderr.hasPrefix("error: --funding: binance serves no funding rates"))
    }

    @Test("a junk funding page stores nothing (exit 1, the store byte for byte as before)")
    func junk() throws {
        let server = try FundingServer(["--rows", "1500", "--set", "1200:fundingRate:\"NaN\""])
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let r = try BT.run(["data", "fetch", "binance-futures", "BTCUSDT", "--funding", "--base-url", server.baseURL, "--db", db],
                           environment: ["no_proxy": "127.0.0.1,localhost"], directory: BT.root)
        #expect(r.status == 1)
        #expect(r.stderr.contains("row 201: fundingRate 'NaN' is not a finite number") && r.stderr.contains("nothing was stored"),
                "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }
}

private extension Array where Element == String {
    func replacingFirst(_ a: String, _ b: String) -> [String] {
        var out = self
        if let k = out.firstIndex(of: a) { out[k] = b }
        return out
    }
}
