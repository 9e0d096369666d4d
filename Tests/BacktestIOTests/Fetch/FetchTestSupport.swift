import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

/// Waits recorded instead of slept, so rate-limit and backoff tests take no time.
final class WaitLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [Double] = []
    var waits: [Double] { lock.withLock { log } }
    func record(_ s: Double) { lock.withLock { log.append(s) } }

    /// A policy that records its waits; `sleeps` also waits for real (a server-side window).
    func policy(attempts: Int = 5, timeout: Int = 5, backoff: Double = 0.5, maxWait: Double = 300,
                sleeps: Bool = false) -> FetchPolicy {
        FetchPolicy(attempts: attempts, timeoutSeconds: timeout, backoffSeconds: backoff, maxWaitSeconds: maxWait,
                    userAgent: "bt-tests") { [self] s in
            record(s)
            if sleeps { Thread.sleep(forTimeInterval: s) }
        }
    }
}

enum FetchFixture {
    /// The mock's default "now" is 2024-03-15T12:34:56.789Z; its minute opens at this time (s).
    static let nowMinute: Int64 = 1_710_506_040
    /// A listing 2,499 minutes before the current minute: 2,500 1m bars, the last still forming,
    /// so 2,499 complete bars in pages of 1000, 1000 and 499 (+ the forming one).
    static let listing2500 = ["--binance-start", String((nowMinute - 2499 * 60) * 1000)]

    static func url(_ mock: MockExchange) -> URL { URL(string: mock.baseURL)! }

    /// The mock's expected series as bt's export CSV.
    static func expected(_ mock: MockExchange, _ query: String) throws -> String {
        String(decoding: try mock.get("/_expected/\(query)&format=csv"), as: UTF8.self)
    }

    static func series(_ result: FetchResult) -> CandleSeries? {
        guard case .candles(let s)? = result.file?.content else { return nil }
        return s
    }
}
