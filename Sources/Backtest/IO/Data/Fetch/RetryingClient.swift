import BacktestCore
import Dispatch
import Foundation

/// GETs with a bounded number of attempts: 5xx answers, timeouts and lost connections are
/// retried after an exponential backoff; 429 and 418 after the server's `Retry-After`; nothing
/// is waited for past the policy's deadline. Counts what it did for the fetch's summary.
package final class RetryingClient {
    private let http: HTTPClient
    package let policy: FetchPolicy
    private let events: (FetchEvent) -> Void
    /// Requests sent, retries included.
    private(set) var requests = 0
    /// Requests sent again after a failure or a rate limit.
    private(set) var retries = 0
    /// Seconds waited for backoff, `Retry-After` and request-weight windows.
    private(set) var waited = 0.0

    package init(policy: FetchPolicy, events: @escaping (FetchEvent) -> Void) {
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
            switch send(url, page: page, attempt: attempt) {
            case .success(let reply):
                return reply
            case .failure(let failure):
                guard let wait = failure.retryIn, attempt < policy.attempts else { throw failure.error }
                guard fitsBeforeDeadline(wait) else {
                    var e = failure.error
                    e.reason += ", and the time allowed runs out before the next try"
                    throw e
                }
                pause(wait, reason: failure.error.reason)
                retries += 1
            }
        }
    }

    /// A try that got no usable answer, and when another could be made.
    package struct Failure: Error {
        package var error: FetchError
        /// The wait before the next try; nil when another would not help (a failure that is not
        /// transient, or a wait longer than `FetchPolicy.maxWaitSeconds`).
        var retryIn: Double?
        /// The wait the server asked for (`Retry-After` of a 429 or 418), however long.
        package var asked: Double?
    }

    /// Sends GET `url` once (try number `attempt`, 1-based, for the backoff and the error):
    /// the answer, unless it is a 5xx or a rate limit or none came.
    package func send(_ url: URL, page: Int? = nil, attempt: Int) -> Result<HTTPReply, Failure> {
        requests += 1
        let reply: HTTPReply
        do {
            reply = try http.get(url, until: policy.deadline)
        } catch {
            let e = error as? HTTPFailure ?? .other(code: 0, "\(error)")
            let kind: FetchError.Kind = if case .tooLarge = e { .badAnswer } else { .network }
            let failure = FetchError(kind, url: url.shown, page: page, attempts: attempt,
                                     reason: e.describe(timeoutSeconds: policy.timeoutSeconds))
            return .failure(Failure(error: failure, retryIn: e.isTransient ? policy.backoff(after: attempt) : nil))
        }
        switch reply.status {
        case 429, 418:
            let banned = reply.status == 418
            let asked = NetworkNumber.retryAfter(reply.header("Retry-After"))
            let what = banned ? "banned (HTTP 418)" : "rate limited (HTTP 429)"
            var failure = FetchError(banned ? .banned : .rateLimited, url: url.shown, page: page, attempts: attempt,
                                     reason: what + (asked.map { ", asked to wait \(Self.seconds($0))" } ?? ""))
            let wait = asked ?? policy.backoff(after: attempt)
            if wait > policy.maxWaitSeconds {
                failure.reason += ", longer than the longest wait allowed (\(Self.seconds(policy.maxWaitSeconds)))"
                return .failure(Failure(error: failure, retryIn: nil, asked: asked))
            }
            return .failure(Failure(error: failure, retryIn: wait, asked: asked))
        case 500..<600:
            let failure = FetchError(.server, url: url.shown, page: page, attempts: attempt,
                                     reason: "server error (HTTP \(reply.status))")
            return .failure(Failure(error: failure, retryIn: policy.backoff(after: attempt)))
        default:
            return .success(reply)
        }
    }

    /// Whether a wait of `seconds` ends before the policy's deadline (always, without one).
    func fitsBeforeDeadline(_ seconds: Double) -> Bool {
        guard let deadline = policy.deadline else { return true }
        return DispatchTime.now() + seconds < deadline
    }

    /// Waits `seconds` (reported as an event first).
    func pause(_ seconds: Double, reason: String) {
        guard seconds > 0 else { return }
        events(.waiting(seconds: seconds, reason: reason))
        policy.sleep(seconds)
        waited += seconds
    }

    /// `3 s`, `0.25 s`.
    package static func seconds(_ s: Double) -> String {
        s == s.rounded() && s < 1e15 ? "\(Int64(s)) s" : s < 1e15 ? String(format: "%.2f s", s) : "\(NumberText.shortest(s)) s"
    }
}
