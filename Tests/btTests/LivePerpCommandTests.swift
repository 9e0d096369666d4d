import Foundation
import Testing

/// `bt live` on a perpetual: the instrument and the market must agree, and inverse perpetuals
/// are refused as not supported live yet, with exit 2 and the reason, before the store or the
/// network is touched (no exchange is needed). Perpetual sessions themselves are run against
/// the local exchange by `make test-live`.
@Suite("bt live: perpetuals need the USD-M market")
struct LivePerpCommandTests {
    @Test("refused with the reason, creating no store", arguments: [
        (["--instrument", "perp"], "Binance's spot market streams no perpetual or future"),
        (["--instrument", "future", "--leverage", "2"], "a perpetual is paper traded on the exchange binance-futures"),
        (["--exchange", "binance-futures"], "give --instrument perp"),
        (["--exchange", "binance-futures", "--instrument", "future"], "dated futures are not followed live yet"),
        (["--exchange", "binance-futures", "--instrument", "inverse-perp"], "inverse (coin-margined) perpetuals are not supported live yet"),
        (["--instrument", "inverse-perp"], "not supported live yet"),
        (["--exchange", "kraken"], "(binance, binance-futures)"),
    ])
    func refused(_ extra: [String], _ reason: String) throws {
        let db = BT.scratchDirectory().appendingPathComponent("live.sqlite").path
        // Port 9 on the loopback (discard): never reached, the refusal comes first.
        let r = try BT.run(["live", "ma-cross", "BTCUSDT", "--duration", "2s", "--ws-url", "ws://127.0.0.1:9",
                            "--base-url", "http://127.0.0.1:9", "--db", db] + extra)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains(reason), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "a refused session creates no store")
    }
}
