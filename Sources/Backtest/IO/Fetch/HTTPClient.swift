import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP answer, whatever its status.
struct HTTPReply {
    var status: Int
    var body: [UInt8]
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
/// commands. No cache, no cookies; redirects are followed.
final class HTTPClient {
    private let session: URLSession
    let timeoutSeconds: Int

    /// - Parameter timeoutSeconds: idle time without a byte before a request fails. Whole
    ///   seconds: FoundationNetworking truncates the timeout to seconds and 0 fails at once.
    init(timeoutSeconds: Int, userAgent: String) {
        precondition(timeoutSeconds >= 1, "timeouts are whole seconds of at least 1")
        self.timeoutSeconds = timeoutSeconds
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
        config.urlCache = nil
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.httpAdditionalHeaders = ["User-Agent": userAgent]
        session = URLSession(configuration: config)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends one GET and waits for its answer. Call from synchronous code only: waiting on a
    /// semaphore inside async code would block one of the cooperative pool's few threads.
    /// - Throws: `HTTPFailure` when no HTTP answer arrived; statuses >= 400 are answers.
    func get(_ url: URL) throws -> HTTPReply {
        final class Slot: @unchecked Sendable { var result: Result<HTTPReply, HTTPFailure>? }
        let slot = Slot()
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: url) { data, response, error in
            if let error {
                slot.result = .failure(HTTPFailure(error))
            } else if let http = response as? HTTPURLResponse {
                slot.result = .success(HTTPReply(status: http.statusCode, body: [UInt8](data ?? Data()), response: http))
            } else {
                slot.result = .failure(.other(code: NSURLErrorBadServerResponse, "not an HTTP response"))
            }
            done.signal()
        }.resume()
        done.wait()
        return try slot.result!.get()
    }
}
