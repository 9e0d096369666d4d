import Foundation

/// Which of Binance's public markets a request goes to: the spot API (`/api/v3/...`, streams at
/// `stream.binance.com`) or the USD-M futures API (`/fapi/v1/...`, streams at
/// `fstream.binance.com`). Both answer `exchangeInfo`, `time`, `klines` and `depth` in the same
/// shapes (the futures depth snapshot and diffs carry a few more fields; DepthSync's procedure
/// differs, `DepthProcedure`).
package enum BinanceMarket: String, Sendable, CaseIterable {
    case spot
    /// USD-M (USDT- and USDC-margined, linear) futures and perpetuals.
    case usdMFutures = "usd-m futures"

    /// The REST paths' prefix.
    package var restPrefix: String { self == .spot ? "api/v3" : "fapi/v1" }

    /// The exchange's REST server.
    package var defaultBaseURL: String { self == .spot ? BinanceFetch.defaultBaseURL : "https://fapi.binance.com" }

    /// The exchange's public stream server, without the stream path.
    package var defaultWebSocketURL: String { self == .spot ? "wss://stream.binance.com:9443" : "wss://fstream.binance.com" }

    /// The endpoint `name` (`klines`, `depth`) of this market on `base`.
    package func endpoint(_ base: URL, _ name: String, query: [(String, String)]) -> URL {
        base.endpoint(restPrefix + "/" + name, query: query)
    }
}
