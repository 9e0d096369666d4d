import BacktestCore
import Dispatch
import Foundation

/// How patient a fetch is: attempts per request, the timeout, backoff and the longest wait a
/// rate limit may ask for.
package struct FetchPolicy: Sendable {
    /// Tries per request, the first included: 5xx answers, timeouts, lost connections and
    /// 429/418 answers each use one.
    package var attempts: Int
    /// Seconds without a byte before a request fails (whole seconds, 1 to `longestTimeout`).
    package var timeoutSeconds: Int
    /// Seconds a whole answer may take, however steadily its bytes come: a server sending one
    /// byte a second never trips the idle timeout, so it trips this one.
    package var deadlineSeconds: Int { timeoutSeconds * Self.deadlineFactor }
    /// The first backoff delay in seconds; it doubles with every further failure of a request
    /// (1, 2, 4, 8 s by default). Used for 5xx, timeouts and lost connections, and for 429/418
    /// answers without a usable `Retry-After`.
    package var backoffSeconds: Double
    /// The longest single wait a server may ask for (`Retry-After`, a request-weight window);
    /// a longer one ends the fetch at once with an error instead of waiting.
    package var maxWaitSeconds: Double
    /// Sent as `User-Agent`.
    package var userAgent: String
    /// The local clock in milliseconds since 1970: the present the fetch never pages past;
    /// replaced in tests.
    package var clockMs: @Sendable () -> Int64
    /// Waits `seconds`; replaced in tests that check what is waited for without waiting.
    package var sleep: @Sendable (Double) -> Void
    /// The moment every request and wait must have ended by (a live session's end), nil for
    /// none: a request still without its whole answer then fails (`HTTPFailure.outOfTime`, not
    /// retried), and a backoff or rate-limit wait that would pass it is not begun.
    package var deadline: DispatchTime?

    /// The whole-answer deadline in timeouts (`deadlineSeconds`).
    package static let deadlineFactor = 4
    /// The longest idle timeout (a day).
    package static let longestTimeout = 86_400
    /// The longest `maxWaitSeconds` (a week): any wait a server asks for beyond it is refused.
    package static let longestMaxWait = 604_800.0
    /// The most bytes of one answer bt reads, after decompression (a page of 1,000 klines is
    /// under 300 kB, Alpha Vantage's whole daily history a few MB); a larger answer is refused.
    package static let largestAnswerBytes = 16 << 20

    package init(attempts: Int = 5, timeoutSeconds: Int = 30, backoffSeconds: Double = 1, maxWaitSeconds: Double = 300,
                userAgent: String = "bt", sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) },
                clockMs: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) {
        precondition(attempts >= 1, "at least one attempt")
        precondition((1...Self.longestTimeout).contains(timeoutSeconds), "timeouts are whole seconds from 1 to a day")
        precondition(backoffSeconds >= 0 && (0...Self.longestMaxWait).contains(maxWaitSeconds), "waits are not negative, at most a week")
        self.attempts = attempts
        self.timeoutSeconds = timeoutSeconds
        self.backoffSeconds = backoffSeconds
        self.maxWaitSeconds = maxWaitSeconds
        self.userAgent = userAgent
        self.sleep = sleep
        self.clockMs = clockMs
    }

    /// A policy of the values a front end was given (nil: the default), each checked.
    /// - Throws: `InputError` naming the setting out of its range.
    package static func checked(attempts: Int?, timeoutSeconds: Int?, maxWaitSeconds: Double?, backoffSeconds: Double,
                                userAgent: String) throws -> FetchPolicy {
        let attempts = attempts ?? 5, timeout = timeoutSeconds ?? 30, maxWait = maxWaitSeconds ?? 300
        guard attempts >= 1 else { throw InputError("must be at least 1", setting: .attempts, value: String(attempts)) }
        guard (1...longestTimeout).contains(timeout) else {
            throw InputError("must be whole seconds from 1 to \(longestTimeout) (a day)", setting: .timeout, value: String(timeout))
        }
        guard (0...longestMaxWait).contains(maxWait) else {
            throw InputError("must be seconds from 0 to \(Int(longestMaxWait)) (a week)", setting: .maxWait, value: NumberText.shortest(maxWait))
        }
        return FetchPolicy(attempts: attempts, timeoutSeconds: timeout, backoffSeconds: backoffSeconds, maxWaitSeconds: maxWait,
                           userAgent: userAgent)
    }

    /// The backoff before try `attempt + 1` after `attempt` failed tries (1-based).
    func backoff(after attempt: Int) -> Double {
        backoffSeconds * Double(1 << min(attempt - 1, 20))
    }
}

/// What a fetch reports while it runs, for a progress bar and notes.
package enum FetchEvent: Sendable {
    /// Page `number` (1-based) arrived; `estimatedPages` is the expected total when known.
    case page(number: Int, estimatedPages: Int?, bars: Int)
    /// The fetch waits `seconds` before its next request, for `reason`.
    case waiting(seconds: Double, reason: String)
}
