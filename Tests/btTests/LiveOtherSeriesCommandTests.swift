import Foundation
import Testing

/// `bt live` with rules that read other series with `@`: what it cannot follow bar by bar is
/// refused with exit 2, naming the rule and the `@`, before the store or the network is touched
/// (no exchange is needed: nothing is asked of one). Sessions that read a higher timeframe or
/// another symbol, and the refusals that need the exchange (a symbol it does not list, one
/// without bars), are run against the local exchange by `make test-live`.
@Suite("bt live with rules reading other series (@)")
struct LiveOtherSeriesCommandTests {
    static func live(_ rules: [String], interval: String = "1m") throws -> (BT.Result, String) {
        let db = BT.scratchDirectory().appendingPathComponent("live.sqlite").path
        // Port 9 on the loopback (discard): never reached, the refusal comes first.
        let r = try BT.run(["live", "BTCUSDT", "--exchange", "binance", "--interval", interval, "--duration", "2s",
                            "--ws-url", "ws://127.0.0.1:9", "--base-url", "http://127.0.0.1:9", "--db", db] + rules)
        return (r, db)
    }

    @Test("another symbol below the interval, or a bad --max-stale, is refused before the store is made", arguments: [
        (["--entry", "close > close@ETHUSDT@5m"], "lower timeframe than the run's (1h)"),
        (["--entry", "close > close@ETHUSDT", "--max-stale", "3x"], "--max-stale"),
    ])
    func badInputForAnotherSymbol(_ rules: [String], _ reason: String) throws {
        let (r, db) = try Self.live(rules + ["--exit", "close < open"], interval: "1h")
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains(reason), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "a refused session creates no store")
    }

    @Test("a timeframe below the interval is refused, as bt run refuses it")
    func lowerTimeframe() throws {
        let (r, db) = try Self.live(["--entry", "close > close@5m", "--exit", "close < open"], interval: "1h")
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("lower timeframe than the run's (1h)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
    }
}
