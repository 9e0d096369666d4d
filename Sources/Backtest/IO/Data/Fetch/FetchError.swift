import BacktestCore

/// A fetch that failed on the server's side or on the way: no answer after every attempt, an
/// answer that is not data, a rate limit. Nothing of the fetch is stored. Input errors (an
/// unknown symbol, a missing API key) are `InputError`s instead.
package struct FetchError: Error, CustomStringConvertible, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
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

    package var kind: Kind
    /// The request, with any API key hidden.
    package var url: String
    /// The 1-based page of a paged fetch, when the failure is tied to one.
    package var page: Int?
    /// Tries made for this request.
    package var attempts: Int
    package var reason: String

    package init(_ kind: Kind, url: String, page: Int? = nil, attempts: Int = 1, reason: String) {
        self.kind = kind
        self.url = url
        self.page = page
        self.attempts = attempts
        self.reason = reason
    }

    package var description: String {
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
