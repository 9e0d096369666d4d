/// The page's stylesheet and scripts, as raw string literals (compiled in about a second, where
/// SwiftPM's `.embedInCode` resources took minutes). Written for bt; no third-party code.
enum HTMLAssets {
    /// Every script, in order, wrapped in one strict-mode function so nothing leaks to `window`
    /// except the documented test hooks.
    static var script: String {
        "(function () {\n\"use strict\";\n" + coreScript + chartScript + panelsScript + pagesScript + "})();\n"
    }
}

/// A self-contained interactive report page (`report.html`): the stylesheet, the scripts and
/// the data inlined, nothing fetched. The data contract is `docs/report-html-schema.md`.
public enum HTMLPage {
    /// Which page the data describes; the same names as the data's `kind`.
    public enum Kind: String, CaseIterable, Sendable {
        case run, sweep, screen, chart
    }

    /// The complete page for `json`, a JSON object following the schema for `kind`.
    ///
    /// The JSON is inlined in `<script type="application/json" id="bt-data">` with `</` written
    /// as `<\/` and `<!--` as `<\u0021--`, so text from users can never close the element or
    /// change how it is parsed; both are JSON escapes, so the data parses unchanged. A
    /// Content-Security-Policy forbids every network request.
    /// - Complexity: O(n) in the length of `json`.
    public static func render(title: String, json: String, kind: Kind) -> String {
        var page = ""
        page.reserveCapacity(json.utf8.count + 160_000)
        page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        page += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(contentSecurityPolicy)\">\n"
        page += "<meta name=\"generator\" content=\"bt\">\n"
        page += "<title>" + escapedText(title) + "</title>\n<style>\n" + HTMLAssets.style + "</style>\n</head>\n"
        page += "<body data-kind=\"\(kind.rawValue)\">\n<div id=\"bt-app\"><noscript>This report needs JavaScript to draw its charts; "
        page += "the same figures are in the CSV and Markdown files beside it.</noscript></div>\n"
        page += "<script type=\"application/json\" id=\"bt-data\">" + escapedForScript(json) + "</script>\n"
        page += "<script>\n" + HTMLAssets.script + "</script>\n</body>\n</html>\n"
        return page
    }

    /// No fetch of any kind: only the inline style and script run, images only from `data:`.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

    /// `json` made safe inside a `<script>` element: `</` becomes `<\/` and `<!--` becomes
    /// `<\u0021--`. Outside JSON strings neither sequence can occur, so this only touches strings.
    static func escapedForScript(_ json: String) -> String {
        let lt = UInt8(ascii: "<")
        guard json.utf8.contains(lt) else { return json }
        // Bytes, not characters: the sequences are ASCII and never part of a multi-byte scalar.
        let bytes = Array(json.utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + 64)
        let comment = Array("!--".utf8), escapedComment = Array("<\\u0021--".utf8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == lt && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/") {
                out += [lt, UInt8(ascii: "\\"), UInt8(ascii: "/")]
                i += 2
            } else if b == lt && i + 3 < bytes.count && Array(bytes[(i + 1)...(i + 3)]) == comment {
                out += escapedComment
                i += 4
            } else {
                out.append(b)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Text for an HTML element or attribute: `& < > " '` escaped.
    static func escapedText(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
