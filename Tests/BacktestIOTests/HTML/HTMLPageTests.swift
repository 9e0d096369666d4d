import Foundation
import Testing
import TestSupport
@testable import BacktestPresentation

@Suite("HTML report page")
struct HTMLPageTests {
    /// Data with every string a user could slip in to break out of the script element.
    static let hostileJSON = #"""
    {"schema":1,"kind":"run","title":"</script><script>alert(1)</script>","subtitle":["<!--<script>","</SCRIPT >","a</b","\u2028\u2029","quote \" backslash \\ slash \/"],
     "manifest":[["command","bt run x --param 'a=</script>'"]],
     "chart":{"series":{"symbol":"<img src=x onerror=alert(1)>","timeframe":"1d","time_deltas":[1092873600,86400,86400],
       "open":[100,101.01,0.1],"high":[104.06,109.08,1e-300],"low":[95.96,100.5,-0],"close":[100.34,108.31,123456789.12345679],
       "volume":[22351900,11428600,null]}}}
    """#

    static func dataElement(of page: String) throws -> String {
        let open = #"<script type="application/json" id="bt-data">"#
        let start = try #require(page.range(of: open)).upperBound
        let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
        return String(page[start..<end])
    }

    static func parsed(_ json: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary)
    }

    @Test("the data round-trips through the script element unchanged", arguments: HTMLPage.Kind.allCases)
    func roundTrip(kind: HTMLPage.Kind) throws {
        let page = HTMLPage.render(title: "t", json: Self.hostileJSON, kind: kind)
        let inlined = try Self.dataElement(of: page)
        #expect(try Self.parsed(inlined) == (try Self.parsed(Self.hostileJSON)))
        #expect(page.contains("<body data-kind=\"\(kind.rawValue)\">"))
    }

    @Test("text from users can neither close the data element nor open a comment in it")
    func escaping() throws {
        let page = HTMLPage.render(title: "t", json: Self.hostileJSON, kind: .run)
        let inlined = try Self.dataElement(of: page)
        #expect(!inlined.lowercased().contains("</script"))
        #expect(!inlined.contains("</"))
        #expect(!inlined.contains("<!--"))
        #expect(inlined.contains(#"<\/script>"#) && inlined.contains(#"<\u0021--"#))
        // exactly two elements end: the data and the code
        #expect(page.lowercased().components(separatedBy: "</script").count - 1 == 2)
        #expect(HTMLPage.escapedForScript("a<b<\u{e9}</x<!--y<!-") == #"a<b<é<\/x<\u0021--y<!-"#)
        #expect(HTMLPage.escapedForScript("no angle brackets") == "no angle brackets")
    }

    @Test("the title is escaped for HTML")
    func title() {
        let page = HTMLPage.render(title: #"<b>&"x"'y'</b>"#, json: "{}", kind: .chart)
        #expect(page.contains("<title>&lt;b&gt;&amp;&quot;x&quot;&#39;y&#39;&lt;/b&gt;</title>"))
    }

    @Test("nothing is fetched: no URL, no loader, and a policy forbidding requests")
    func noNetwork() throws {
        let page = HTMLPage.render(title: "t", json: Self.hostileJSON, kind: .sweep)
        for needle in ["http://", "https://", "//cdn", "@import", "url(", "<link", "fetch(", "XMLHttpRequest", "WebSocket",
                       "EventSource", "sendBeacon", "import(", "importScripts", "<iframe", "src=\"", ".src ="] {
            #expect(!HTMLAssets.script.contains(needle), "script contains \(needle)")
            #expect(!HTMLAssets.style.contains(needle), "style contains \(needle)")
        }
        #expect(!page.contains("http://") && !page.contains("https://"))
        #expect(page.contains(#"<meta http-equiv="Content-Security-Policy" content="default-src 'none';"#))
    }

    @Test("the assets cannot end their own elements early")
    func assets() {
        #expect(!HTMLAssets.script.lowercased().contains("</script"))
        #expect(!HTMLAssets.script.contains("<!--"))
        #expect(!HTMLAssets.style.lowercased().contains("</style"))
        #expect(HTMLAssets.script.hasPrefix("(function () {\n\"use strict\";\n"))
        #expect(HTMLAssets.script.hasSuffix("boot();})();\n"))
    }

    @Test("the binary carries the asset files byte for byte, every script in page order")
    func embedded() throws {
        let folder = "Sources/Backtest/IO/Presentation/HTML/Assets/"
        func file(_ name: String) throws -> String { try String(contentsOfFile: Repository.path(folder + name), encoding: .utf8) }
        let order = ["core.js", "chart.js", "panels.js", "pages.js"]
        #expect(HTMLAssets.scripts == (try order.map(file)))
        #expect(HTMLAssets.style == (try file("style.css")))
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Repository.path(folder)).filter { $0.hasSuffix(".js") }
        #expect(Set(onDisk) == Set(order), "every script file is in the page, and only those")
    }

    @Test("a long series passes through intact and quickly")
    func large() throws {
        let n = 100_000
        var json = #"{"kind":"chart","chart":{"series":{"symbol":"X","time_deltas":[0"#
        json.reserveCapacity(n * 30)
        for _ in 1..<n { json += ",60" }
        json += #"],"close":[1"#
        for i in 1..<n { json += ",\(Double(i) / 8)" }
        json += "]}},\"note\":\"</tail>\"}"
        let clock = ContinuousClock()
        var page = ""
        let elapsed = clock.measure { page = HTMLPage.render(title: "x", json: json, kind: .chart) }
        #expect(elapsed < .seconds(2), "render took \(elapsed)")
        print("HTMLPage.render of \(json.utf8.count) bytes: \(elapsed)")
        #expect(try Self.parsed(try Self.dataElement(of: page)) == (try Self.parsed(json)))
    }

    @Test("f64 arrays hold the exact doubles, NaN included, little-endian")
    func f64() throws {
        let values: [Double] = [1, 0.1, -0.0, 123456789.12345679, .nan, 1e-300, -.infinity]
        let json = HTMLPage.f64JSON(values)
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        let text = try #require(object?["f64"])
        let data = try #require(Data(base64Encoded: text))
        #expect(data.count == values.count * 8)
        #expect(Array(data.prefix(8)) == [0, 0, 0, 0, 0, 0, 0xf0, 0x3f])
        let decoded = (0..<values.count).map { k in
            Double(bitPattern: data[(8 * k)..<(8 * k + 8)].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) })
        }
        for (a, b) in zip(decoded, values) { #expect(a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)) }
        #expect(HTMLPage.f64JSON([]) == #"{"f64":""}"#)
    }

    @Test("time deltas sum back to the times")
    func timeDeltas() throws {
        let times: [Int64] = [1_092_873_600, 1_092_960_000, 1_093_219_200, 1_093_219_260]
        let json = HTMLPage.timeDeltasJSON(times)
        #expect(json == "[1092873600,86400,259200,60]")
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Int64]
        let deltas = try #require(parsed)
        var t: Int64 = 0
        #expect(deltas.map { t += $0; return t } == times)
        #expect(HTMLPage.timeDeltasJSON([]) == "[]")
    }
}
