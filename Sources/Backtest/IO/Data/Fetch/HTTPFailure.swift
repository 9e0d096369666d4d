import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request that got no HTTP answer, classified by what a retry could change.
///
/// FoundationNetworking on Linux maps only a few curl results to specific codes; the rest
/// arrive as `NSURLErrorUnknown` with curl's message, which is split here by its text (see
/// docs/design/http-client-notes.md, "Error mapping").
enum HTTPFailure: Error, Equatable {
    /// No byte arrived for the timeout.
    case timedOut
    /// The whole answer did not arrive within `seconds` (bytes kept coming, too slowly).
    case deadline(seconds: Int)
    /// The caller's deadline (`FetchPolicy.deadline`) came before the whole answer.
    case outOfTime
    /// The body grew past `limit` bytes (after decompression): refused, never retried.
    case tooLarge(limit: Int)
    /// Reset, closed without an answer, or a body shorter than announced.
    case connectionLost(String)
    /// Refused, unreachable, or a proxy that is down.
    case cannotConnect(String)
    /// The host name does not resolve.
    case cannotFindHost(String)
    /// Certificate or handshake failure: never retried.
    case tls(String)
    case other(code: Int, String)

    /// True when the same request may well succeed if sent again.
    var isTransient: Bool {
        switch self {
        case .timedOut, .deadline, .connectionLost: true
        default: false
        }
    }

    init(_ error: Error) {
        let ns = error as NSError
        let text = ns.localizedDescription
        guard ns.domain == NSURLErrorDomain else { self = .other(code: ns.code, text); return }
        switch ns.code {
        case NSURLErrorTimedOut: self = .timedOut
        case NSURLErrorNetworkConnectionLost, NSURLErrorBadServerResponse: self = .connectionLost(text)
        case NSURLErrorCannotConnectToHost: self = .cannotConnect(text)
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: self = .cannotFindHost(text)
        case NSURLErrorUnknown where text.hasPrefix("transfer closed"): self = .connectionLost(text)
        case NSURLErrorUnknown where text.contains("SSL") || text.contains("certificate"): self = .tls(text)
        default: self = .other(code: ns.code, text)
        }
    }

    /// What happened, in words.
    func describe(timeoutSeconds: Int) -> String {
        switch self {
        case .timedOut: "no answer within \(timeoutSeconds) s"
        case .deadline(let s): "no whole answer within \(s) s (the bytes came too slowly)"
        case .outOfTime: "no whole answer before the time allowed ran out"
        case .tooLarge(let limit): "the answer is larger than \(limit >> 20) MiB, the most bt reads of one request"
        case .connectionLost(let s): "connection lost (\(s))"
        case .cannotConnect(let s): "cannot connect (\(s))"
        case .cannotFindHost(let s): "host not found (\(s))"
        case .tls(let s): "TLS failure (\(s))"
        case .other(let code, let s): "request failed (\(code): \(s))"
        }
    }
}
