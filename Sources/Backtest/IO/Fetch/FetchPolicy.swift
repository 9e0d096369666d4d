import Foundation

/// How patient a fetch is: attempts per request, the timeout, backoff and the longest wait a
/// rate limit may ask for.
public struct FetchPolicy: Sendable {
    /// Tries per request, the first included: 5xx answers, timeouts, lost connections and
    /// 429/418 answers each use one.
    public var attempts: Int
    /// Seconds without a byte before a request fails (whole seconds, at least 1).
    public var timeoutSeconds: Int
    /// The first backoff delay in seconds; it doubles with every further failure of a request
    /// (1, 2, 4, 8 s by default). Used for 5xx, timeouts and lost connections, and for 429/418
    /// answers without a usable `Retry-After`.
    public var backoffSeconds: Double
    /// The longest single wait a server may ask for (`Retry-After`, a request-weight window);
    /// a longer one ends the fetch at once with an error instead of waiting.
    public var maxWaitSeconds: Double
    /// Sent as `User-Agent`.
    public var userAgent: String
    /// Waits `seconds`; replaced in tests that check what is waited for without waiting.
    public var sleep: @Sendable (Double) -> Void

    public init(attempts: Int = 5, timeoutSeconds: Int = 30, backoffSeconds: Double = 1, maxWaitSeconds: Double = 300,
                userAgent: String = "bt", sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }) {
        precondition(attempts >= 1, "at least one attempt")
        precondition(timeoutSeconds >= 1, "timeouts are whole seconds of at least 1")
        precondition(backoffSeconds >= 0 && maxWaitSeconds >= 0, "waits are not negative")
        self.attempts = attempts
        self.timeoutSeconds = timeoutSeconds
        self.backoffSeconds = backoffSeconds
        self.maxWaitSeconds = maxWaitSeconds
        self.userAgent = userAgent
        self.sleep = sleep
    }

    /// The backoff before try `attempt + 1` after `attempt` failed tries (1-based).
    func backoff(after attempt: Int) -> Double {
        backoffSeconds * Double(1 << min(attempt - 1, 20))
    }
}

/// What a fetch reports while it runs, for a progress bar and notes.
public enum FetchEvent: Sendable {
    /// Page `number` (1-based) arrived; `estimatedPages` is the expected total when known.
    case page(number: Int, estimatedPages: Int?, bars: Int)
    /// The fetch waits `seconds` before its next request, for `reason`.
    case waiting(seconds: Double, reason: String)
}
