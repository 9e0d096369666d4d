import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP answer, whatever its status.
package struct HTTPReply {
    package var status: Int
    package var body: [UInt8]
    private var response: HTTPURLResponse

    init(status: Int, body: [UInt8], response: HTTPURLResponse) {
        self.status = status
        self.body = body
        self.response = response
    }

    /// The header `name`, looked up case-insensitively as HTTP requires (servers on HTTP/2 send
    /// `x-mbx-used-weight-1m`, others `X-MBX-USED-WEIGHT-1M`).
    func header(_ name: String) -> String? { response.value(forHTTPHeaderField: name) }
}

/// Blocking GETs over one `URLSession` (so one kept-alive connection), for bt's synchronous
/// commands. No cache, no cookies; redirects are followed. Every request is bounded: an idle
/// timeout, a deadline for the whole answer, and a largest body (counted as it arrives, after
/// libcurl's gzip decoding, so neither a huge answer nor a gzip bomb is ever held whole).
final class HTTPClient {
    private let session: URLSession
    private let transfers = Transfers()
    let timeoutSeconds: Int
    let deadlineSeconds: Int
    let largestBody: Int

    /// - Parameters:
    ///   - timeoutSeconds: idle time without a byte before a request fails. Whole seconds:
    ///     FoundationNetworking truncates the timeout to seconds and 0 fails at once.
    ///   - deadlineSeconds: the longest a whole request may take.
    ///   - largestBody: the most bytes of a body read; a longer one fails the request.
    init(timeoutSeconds: Int, deadlineSeconds: Int, largestBody: Int, userAgent: String) {
        precondition(timeoutSeconds >= 1 && deadlineSeconds >= timeoutSeconds, "timeouts are whole seconds of at least 1")
        self.timeoutSeconds = timeoutSeconds
        self.deadlineSeconds = deadlineSeconds
        self.largestBody = largestBody
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
        config.urlCache = nil
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.httpAdditionalHeaders = ["User-Agent": userAgent]
        session = URLSession(configuration: config, delegate: transfers, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// Sends one GET and waits for its answer, until `deadlineSeconds` pass or `until`, whichever
    /// comes first. Call from synchronous code only: waiting on a semaphore inside async code
    /// would block one of the cooperative pool's few threads.
    /// - Throws: `HTTPFailure` when no whole HTTP answer arrived (`.deadline` after
    ///   `deadlineSeconds`, `.outOfTime` at `until`, `.tooLarge` past `largestBody`); statuses
    ///   >= 400 are answers.
    func get(_ url: URL, until: DispatchTime? = nil) throws -> HTTPReply {
        let task = session.dataTask(with: url)
        let transfer = transfers.begin(task, largestBody: largestBody)
        task.resume()
        let own = DispatchTime.now() + .seconds(deadlineSeconds)
        let caller = until.map { $0 < own } ?? false
        if transfer.done.wait(timeout: caller ? until! : own) == .timedOut {
            transfer.fail(caller ? .outOfTime : .deadline(seconds: deadlineSeconds))
        }
        let result = transfer.result
        // Cancelled here, not in the delegate: a cancel waits for libcurl's queue, and meanwhile
        // every chunk libcurl reads would pile up in the delegate's queue.
        if case .failure = result { task.cancel() }
        return try result.get()
    }
}

/// The state of each request in flight, fed by the session's delegate callbacks.
private final class Transfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var byTask: [Int: Transfer] = [:]

    func begin(_ task: URLSessionTask, largestBody: Int) -> Transfer {
        let t = Transfer(largestBody: largestBody)
        lock.withLock { byTask[task.taskIdentifier] = t }
        return t
    }

    private func transfer(_ task: URLSessionTask) -> Transfer? { lock.withLock { byTask[task.taskIdentifier] } }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let t = transfer(dataTask) else { return completionHandler(.cancel) }
        // A declared length over the limit is refused before a byte of the body is read.
        if response.expectedContentLength > Int64(t.largestBody) {
            t.fail(.tooLarge(limit: t.largestBody))
            completionHandler(.cancel)
            t.finish()
            return
        }
        t.lock.withLock { t.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let t = transfer(dataTask) else { return }
        let over = t.lock.withLock { () -> Bool in
            guard t.failure == nil else { return false }
            guard t.body.count + data.count <= t.largestBody else { return true }
            t.body.append(contentsOf: data)
            return false
        }
        if over {
            t.fail(.tooLarge(limit: t.largestBody))
            t.finish()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let t = lock.withLock({ byTask.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            t.fail(HTTPFailure(error))
        } else if !(t.lock.withLock { t.response is HTTPURLResponse }) {
            t.fail(.other(code: NSURLErrorBadServerResponse, "not an HTTP response"))
        }
        t.finish()
    }
}

/// One request's answer as it arrives: the first failure recorded wins.
private final class Transfer: @unchecked Sendable {
    let lock = NSLock()
    let largestBody: Int
    let done = DispatchSemaphore(value: 0)
    var response: URLResponse?
    var body: [UInt8] = []
    var failure: HTTPFailure?
    private var finished = false

    init(largestBody: Int) { self.largestBody = largestBody }

    func fail(_ f: HTTPFailure) { lock.withLock { if failure == nil { failure = f } } }

    /// Wakes the waiting request (once).
    func finish() {
        let first = lock.withLock { () -> Bool in
            defer { finished = true }
            return !finished
        }
        if first { done.signal() }
    }

    var result: Result<HTTPReply, HTTPFailure> {
        lock.withLock {
            if let failure { return .failure(failure) }
            guard let http = response as? HTTPURLResponse else {
                return .failure(.other(code: NSURLErrorBadServerResponse, "not an HTTP response"))
            }
            return .success(HTTPReply(status: http.statusCode, body: body, response: http))
        }
    }
}
