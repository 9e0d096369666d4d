import Foundation
import Testing

/// `bt live` with rules that read other series with `@`: what it cannot follow bar by bar is
/// refused with exit 2, naming the rule and the `@`, before the store or the network is touched
/// (no exchange is needed: nothing is asked of one). Sessions that read a higher timeframe are
/// run against the local exchange by `make test-live`.
@Suite("bt live with rules reading other series (@)")
struct LiveOtherSeriesCommandTests {
    static func live(_ rules: [String], interval: String = "1m") throws -> (BT.Result, String) {
        let db = BT.scratchDirectory().appendingPathComponent("live.sqlite").path
        // Port 9 on the loopback (discard): never reached, the refusal comes first.
        let r = try BT.run(["live", "BTCUSDT", "--exchange", "binance", "--interval", interval, "--duration", "2s",
                            "--ws-url", "ws://127.0.0.1:9", "--base-url", "http://127.0.0.1:9", "--db", db] + rules)
        return (r, db)
    }

    @Test("another symbol is refused: the session streams one symbol, and the replay could differ", arguments: [
        "close > close@ETHUSDT", "close > sma(close, 20)@ETHUSDT@1h",
    ])
    func anotherSymbol(_ entry: String) throws {
        let (r, db) = try Self.live(["--entry", entry, "--exit", "close < open"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("--entry") && r.stderr.contains("'@ETHUSDT"), "\(r.stderr)")
        #expect(r.stderr.contains("follows the stream of BTCUSDT alone"), "\(r.stderr)")
        #expect(r.stderr.contains("^"), "a caret under the @: \(r.stderr)")
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
