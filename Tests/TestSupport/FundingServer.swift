import Foundation

/// The local funding-rate server (`Tests/Fixtures/http/funding_server.py`: Binance USD-M's
/// `/fapi/v1/fundingRate`) on 127.0.0.1, one per test, started with `arguments` and stopped by
/// `stop()` or when the test process ends (its standard input closes).
package final class FundingServer: @unchecked Sendable {
    /// The first settlement the server serves by default (2024-01-01T00:00:00Z), ms; then every 8 hours.
    package static let start: Int64 = 1_704_067_200_000
    package static let period: Int64 = 8 * 3_600_000
    private let server: PortServer

    package init(_ arguments: [String] = []) throws {
        setenv("no_proxy", "127.0.0.1,localhost", 1)
        server = try PortServer("the funding server", executable: "/usr/bin/env",
                                arguments: ["python3", Repository.path("Tests/Fixtures/http/funding_server.py"),
                                            "--exit-on-stdin-eof", "--max-lifetime", "600"] + arguments,
                                environment: ["PYTHONDONTWRITEBYTECODE": "1"])
    }

    package func stop() { server.stop() }

    package var baseURL: String { "http://127.0.0.1:\(server.port)" }

    /// The funding-rate queries served so far.
    package func queries() throws -> [[String: String]] {
        let data = try Data(contentsOf: URL(string: baseURL + "/_requests")!)
        return (try JSONSerialization.jsonObject(with: data) as? [[String: String]]) ?? []
    }

    /// Settlement `i` as the server sends it: time, rate and mark price (none when i % 4 == 3).
    package static func settlement(_ i: Int) -> (timeMs: Int64, rate: Double, markPrice: Double?) {
        (start + Int64(i) * period, Double(String(format: "%.8f", Double((i * 37) % 21 - 10) * 1e-5))!,
         i % 4 == 3 ? nil : Double(String(format: "%.2f", 42000 + Double(i) / 2))!)
    }
}
