import Foundation

/// A self-contained interactive report page (`report.html`): the stylesheet, the scripts and
/// the data inlined, nothing fetched. The data contract is `docs/reference/report-html-schema.md`.
package enum HTMLPage {
    /// Which page the data describes; the same names as the data's `kind`.
    package enum Kind: String, CaseIterable, Sendable {
        case run, sweep, screen, chart, replay
    }

    /// The complete page for `json`, a JSON object following the schema for `kind`.
    ///
    /// The JSON is inlined in `<script type="application/json" id="bt-data">` with `</` written
    /// as `<\/` and `<!--` as `<\u0021--`, so text from users can never close the element or
    /// change how it is parsed; both are JSON escapes, so the data parses unchanged. A
    /// Content-Security-Policy forbids every network request.
    /// - Complexity: O(n) in the length of `json`.
    package static func render(title: String, json: String, kind: Kind) -> String {
        var page = ""
        page.reserveCapacity(json.utf8.count + 160_000)
        page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        page += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(contentSecurityPolicy)\">\n"
        page += "<meta name=\"generator\" content=\"bt\">\n"
        page += "<title>" + HTML.escaped(title) + "</title>\n<style>\n" + HTMLAssets.style + "</style>\n</head>\n"
        page += "<body data-kind=\"\(kind.rawValue)\">\n<div id=\"bt-app\"><noscript>This report needs JavaScript to draw its charts; "
        page += "the same figures are in the CSV and Markdown files beside it.</noscript></div>\n"
        page += "<script type=\"application/json\" id=\"bt-data\">" + escapedForScript(json) + "</script>\n"
        page += "<script>\n" + HTMLAssets.script + "</script>\n</body>\n</html>\n"
        return page
    }

    // MARK: - Data encodings (docs/reference/report-html-schema.md, "Conventions")

    /// `{"f64":"<base64>"}`: the values as little-endian IEEE-754 doubles, exact and about 10.7
    /// bytes a value; NaN (undefined) stays NaN. The page reads it wherever a numeric array goes.
    package static func f64JSON(_ values: [Double]) -> String {
        #"{"f64":""# + f64Base64(values) + #""}"#
    }

    /// The base64 text of `values` as little-endian IEEE-754 doubles (the `f64` member).
    static func f64Base64(_ values: [Double]) -> String {
        let bits = values.map { $0.bitPattern.littleEndian }
        let data = bits.withUnsafeBufferPointer { Data(buffer: $0) }
        return data.base64EncodedString()
    }

    /// `[t0,d1,d2,...]` for `time_deltas`: the first bar's epoch seconds, then each bar's distance
    /// from the one before.
    package static func timeDeltasJSON(_ times: [Int64]) -> String {
        var out = "["
        out.reserveCapacity(times.count * 6 + 2)
        var previous: Int64 = 0
        for (i, t) in times.enumerated() {
            if i > 0 { out += "," }
            out += String(t &- previous)
            previous = t
        }
        return out + "]"
    }

    /// No fetch of any kind: only the inline style and script run, images only from `data:`.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

    /// `json` made safe inside a `<script>` element: `</` becomes `<\/` and `<!--` becomes
    /// `<\u0021--`. Outside JSON strings neither sequence can occur, so this only touches strings.
    static func escapedForScript(_ json: String) -> String {
        let lt = UInt8(ascii: "<")
        // Bytes, not characters: the sequences are ASCII and never part of a multi-byte scalar.
        // memchr finds each '<' and the runs between are copied whole, so long data stays fast.
        var source = json
        return source.withUTF8 { bytes -> String in
            guard let base = bytes.baseAddress, memchr(base, Int32(lt), bytes.count) != nil else { return json }
            var out = [UInt8]()
            out.reserveCapacity(bytes.count + 256)
            var i = 0
            while i < bytes.count {
                guard let hit = memchr(base + i, Int32(lt), bytes.count - i) else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i...]))
                    break
                }
                let j = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<j]))
                if j + 1 < bytes.count && bytes[j + 1] == UInt8(ascii: "/") {
                    out.append(contentsOf: #"<\/"#.utf8)
                    i = j + 2
                } else if j + 3 < bytes.count && bytes[j + 1] == UInt8(ascii: "!") && bytes[j + 2] == UInt8(ascii: "-")
                            && bytes[j + 3] == UInt8(ascii: "-") {
                    out.append(contentsOf: #"<\u0021--"#.utf8)
                    i = j + 4
                } else {
                    out.append(lt)
                    i = j + 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
