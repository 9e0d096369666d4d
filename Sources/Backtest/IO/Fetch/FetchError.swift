import BacktestCore

/// A fetch that failed on the server's side or on the way: no answer after every attempt, an
/// answer that is not data, a rate limit. Nothing of the fetch is stored. Input errors (an
/// unknown symbol, a missing API key) are `InputError`s instead.
public struct FetchError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No HTTP answer (timeout, lost or refused connection, DNS, TLS).
        case network
        /// 5xx answers until the attempts ran out.
        case server
        /// 429, or Alpha Vantage's "Note", until the attempts ran out (or a wait too long).
        case rateLimited
        /// 418: the address is banned for a while.
        case banned
        /// An answer that is not valid data: broken JSON, a bar that fails validation.
        case badAnswer
        /// Alpha Vantage's "Information" answer (a daily limit, or a premium-only request).
        case information
    }

    public var kind: Kind
    /// The request, with any API key hidden.
    public var url: String
    /// The 1-based page of a paged fetch, when the failure is tied to one.
    public var page: Int?
    /// Tries made for this request.
    public var attempts: Int
    public var reason: String

    public init(_ kind: Kind, url: String, page: Int? = nil, attempts: Int = 1, reason: String) {
        self.kind = kind
        self.url = url
        self.page = page
        self.attempts = attempts
        self.reason = reason
    }

    public var description: String {
        let tries = attempts > 1 ? " after \(attempts) attempts" : ""
        let place = page.map { "page \($0) (\(url))" } ?? url
        return "\(place): \(reason)\(tries)"
    }
}

extension InputError {
    /// The message without its leading file name: a fetch names the URL and page itself.
    var detail: String {
        let text = message(naming: \.name)
        guard let file, text.hasPrefix(file + ": ") else { return text }
        return String(text.dropFirst(file.count + 2))
    }
}
