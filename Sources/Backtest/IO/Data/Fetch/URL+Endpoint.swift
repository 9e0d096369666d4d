import Foundation

extension URL {
    /// `path` under this base URL (a mirror may serve the API below a path of its own), with
    /// `query` percent-encoded.
    package func endpoint(_ path: String, query: [(String, String)]) -> URL {
        var components = URLComponents(url: appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
        return components.url!
    }

    /// The URL as bt shows it in messages: an `apikey` query value replaced by `***`.
    var shown: String {
        let raw = absoluteString
        guard let q = raw.firstIndex(of: "?") else { return raw }
        let items = raw[raw.index(after: q)...].split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 && parts[0].lowercased() == "apikey" ? "\(parts[0])=***" : String(item)
        }
        return String(raw[..<q]) + "?" + items.joined(separator: "&")
    }
}
