import BacktestCore
import Foundation

/// What a fetch brought back, ready to be written, and what it took.
package struct FetchResult: Sendable {
    /// The validated bars to write (`CandleStore.write`), nil when there was nothing new.
    package var file: ImportedFile?
    /// Pages (answers with data) read.
    package var pages: Int
    /// Requests sent, retries included.
    package var requests: Int
    /// Requests sent again after a failure or a rate limit.
    package var retries: Int
    /// Seconds spent waiting (backoff, `Retry-After`, request-weight windows).
    package var waitedSeconds: Double
    /// The last stored bar the fetch continued after, when it resumed a stored series.
    package var resumedAfter: Int64?
    /// The symbol's instrument settings the service gives (`BinanceFuturesInstrument`), to store
    /// over the stored ones (`CandleStore.write(fetched:symbol:)`); empty from the other sources.
    package var instrument: [Setting: ExecutionValue] = [:]

    /// Bars fetched.
    package var bars: Int {
        guard case .candles(let s)? = file?.content else { return 0 }
        return s.count
    }
}

/// Settings shared by the sources.
package enum FetchSettings {
    /// `text` as a base URL: http or https with a host (a mirror, or a local server in tests).
    /// - Throws: `InputError` (setting `.baseURL`).
    package static func baseURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.query == nil
        else {
            throw InputError("must be an http:// or https:// URL with a host and no query, e.g. https://api.binance.com",
                             setting: .baseURL, value: text)
        }
        return url
    }

    /// The stored series `symbol` `timeframe`, if any.
    static func stored(_ store: CandleStore?, symbol: String, timeframe: Timeframe) throws -> CandleStore.SeriesInfo? {
        try store?.list().first { $0.symbol == symbol && $0.timeframe == timeframe.rawValue && $0.bars > 0 }
    }

    /// A 4xx answer as the user's mistake: the service's own words (Binance's `{"code", "msg"}`,
    /// else the start of the body), with `secret` (an API key the server echoed) masked.
    package static func refusal(_ reply: HTTPReply, url: URL, service: String, secret: String? = nil) -> InputError {
        InputError("\(service) refused the request with HTTP \(reply.status): \(refusalWords(reply.body, secret: secret))",
                   at: url.shown)
    }

    /// The words of a refusal's body: `"msg" (code N)` when it is Binance's JSON (the code only
    /// when it is a whole number in ±`largestErrorCode`), else the body's start, quoted.
    package static func refusalWords(_ body: [UInt8], secret: String? = nil) -> String {
        var words = Excerpt.quoted(String(decoding: body.prefix(4096), as: UTF8.self).masking(secret), limit: 200)
        if let root = try? body.withUnsafeBufferPointer({ try JSONParser.parse($0) }), case .string(let msg)? = root["msg"] {
            var code = ""
            if case .number(let c)? = root["code"],
               let n = try? NetworkNumber.integer(c, "code", in: -largestErrorCode...largestErrorCode) { code = " (code \(n))" }
            words = "\"\(Excerpt.shortened(msg.masking(secret), limit: 200))\"\(code)"
        }
        return words
    }

    /// The largest error code shown (Binance's are four or five digits, negative).
    static let largestErrorCode: Int64 = 1_000_000_000
}
