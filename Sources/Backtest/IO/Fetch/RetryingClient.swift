import BacktestCore
import Foundation

/// GETs with a bounded number of attempts: 5xx answers, timeouts and lost connections are
/// retried after an exponential backoff; 429 and 418 after the server's `Retry-After`. Counts
/// what it did for the fetch's summary.
final class RetryingClient {
    private let http: HTTPClient
    let policy: FetchPolicy
    private let events: (FetchEvent) -> Void
    /// Requests sent, retries included.
    private(set) var requests = 0
    /// Requests sent again after a failure or a rate limit.
    private(set) var retries = 0
    /// Seconds waited for backoff, `Retry-After` and request-weight windows.
    private(set) var waited = 0.0

    init(policy: FetchPolicy, events: @escaping (FetchEvent) -> Void) {
        self.policy = policy
        self.events = events
        http = HTTPClient(timeoutSeconds: policy.timeoutSeconds, deadlineSeconds: policy.deadlineSeconds,
                          largestBody: FetchPolicy.largestAnswerBytes, userAgent: policy.userAgent)
    }

    /// Sends GET `url` until it gets an answer that is neither a 5xx nor a rate limit, or the
    /// attempts run out. Other answers, 4xx included, are returned for the caller to read.
    /// - Throws: `FetchError` (`.network`, `.server`, `.rateLimited`, `.banned`).
    func get(_ url: URL, page: Int? = nil) throws -> HTTPReply {
        var attempt = 0
        while true {
            attempt += 1
            requests += 1
            let failure: FetchError
            let wait: Double
            let reply: HTTPReply
            do {
                reply = try http.get(url)
            } catch {
                let e = error as? HTTPFailure ?? .other(code: 0, "\(error)")
                let kind: FetchError.Kind = if case .tooLarge = e { .badAnswer } else { .network }
                let failure = FetchError(kind, url: url.shown, page: page, attempts: attempt,
                                         reason: e.describe(timeoutSeconds: policy.timeoutSeconds))
                guard e.isTransient, attempt < policy.attempts else { throw failure }
                pause(policy.backoff(after: attempt), reason: failure.reason)
                retries += 1
                continue
            }
            switch reply.status {
            case 429, 418:
                let banned = reply.status == 418
                let asked = NetworkNumber.retryAfter(reply.header("Retry-After"))
                let what = banned ? "banned (HTTP 418)" : "rate limited (HTTP 429)"
                failure = FetchError(banned ? .banned : .rateLimited, url: url.shown, page: page, attempts: attempt,
                                     reason: what + (asked.map { ", asked to wait \(Self.seconds($0))" } ?? ""))
                wait = asked ?? policy.backoff(after: attempt)
                if wait > policy.maxWaitSeconds {
                    var e = failure
                    e.reason += ", longer than the longest wait allowed (\(Self.seconds(policy.maxWaitSeconds)))"
                    throw e
                }
            case 500..<600:
                failure = FetchError(.server, url: url.shown, page: page, attempts: attempt,
                                     reason: "server error (HTTP \(reply.status))")
                wait = policy.backoff(after: attempt)
            default:
                return reply
            }
            guard attempt < policy.attempts else { throw failure }
            pause(wait, reason: failure.reason)
            retries += 1
        }
    }

    /// Waits `seconds` (reported as an event first).
    func pause(_ seconds: Double, reason: String) {
        guard seconds > 0 else { return }
        events(.waiting(seconds: seconds, reason: reason))
        policy.sleep(seconds)
        waited += seconds
    }

    /// `3 s`, `0.25 s`.
    static func seconds(_ s: Double) -> String {
        s == s.rounded() && s < 1e15 ? "\(Int64(s)) s" : s < 1e15 ? String(format: "%.2f s", s) : "\(NumberText.shortest(s)) s"
    }
}
