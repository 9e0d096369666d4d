import Foundation

extension FetchResult {
    /// `3 pages, 4 requests, 1 retry, waited 2 s`.
    package var tally: String {
        var parts = ["\(pages) page\(pages == 1 ? "" : "s")", "\(requests) request\(requests == 1 ? "" : "s")",
                     "\(retries) retr\(retries == 1 ? "y" : "ies")"]
        if waitedSeconds > 0 { parts.append("waited " + Self.seconds(waitedSeconds)) }
        return parts.joined(separator: ", ")
    }

    /// `2 s`, or `1.50 s` when not whole.
    package static func seconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int64(s)) s" : String(format: "%.2f s", s)
    }
}
