import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestLive

/// Binance's stream frames and depth snapshots as `BinanceFrameParser` reads them; bad frames
/// are rejected with a reason, never a trap.
@Suite("Binance stream frames")
struct BinanceFramesTests {
    let parser = BinanceFrameParser(symbol: "btcusdt")

    func message(_ text: String) throws -> StreamMessage {
        try Array(text.utf8).withUnsafeBytes { try parser.message($0) }
    }

    func rejection(_ text: String) -> FrameRejection? {
        do { _ = try message(text); return nil } catch let e as FrameRejection { return e } catch { return nil }
    }

    @Test("a combined-stream trade frame (Binance's documented fields)")
    func trade() throws {
        let m = try message("""
            {"stream":"btcusdt@trade","data":{"e":"trade","E":1672515782136,"s":"BTCUSDT","t":12345,"p":"0.001","q":"100",\
            "T":1672515782134,"m":true,"M":true}}
            """)
        #expect(m == .trade(StreamTrade(id: 12345, eventMs: 1672515782136, timeMs: 1672515782134, price: 0.001, quantity: 100,
                                        buyerIsMaker: true)))
        if case .trade(let t) = m { #expect(t.print.side == .sell) }
    }

    @Test("a depth update, bare (single stream), with a removal")
    func depth() throws {
        let m = try message("""
            {"e":"depthUpdate","E":1672515782136,"s":"BTCUSDT","U":157,"u":160,"b":[["0.0024","10"],["0.0023","0.00000000"]],"a":[["0.0026","100"]]}
            """)
        #expect(m == .depth(DepthDiff(eventMs: 1672515782136, firstId: 157, lastId: 160,
                                      bids: [BookLevel(price: 0.0024, quantity: 10), BookLevel(price: 0.0023, quantity: 0)],
                                      asks: [BookLevel(price: 0.0026, quantity: 100)])))
    }

    @Test("a REST snapshot")
    func snapshot() throws {
        let text = #"{"lastUpdateId":1027024,"bids":[["4.00000000","431.00000000"]],"asks":[["4.00000200","12.00000000"]]}"#
        let s = try Array(text.utf8).withUnsafeBytes { try parser.snapshot($0) }
        #expect(s == DepthSnapshot(lastUpdateId: 1027024, bids: [BookLevel(price: 4, quantity: 431)],
                                   asks: [BookLevel(price: 4.000002, quantity: 12)]))
    }

    @Test("frames that are skipped, each with its reason", arguments: [
        ("", "malformed"),
        ("not json", "malformed"),
        (#"{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1","q":"1"}"#, "malformed"),   // no T
        (#"{"e":"trade","E":1,"s":"ETHUSDT","t":1,"p":"1","q":"1","T":1}"#, "foreign"),
        (#"{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1","q":"-1","T":1}"#, "number"),
        (#"{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"abc","q":"1","T":1}"#, "number"),
        (#"{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"0","q":"1","T":1}"#, "number"),
        (#"{"e":"trade","E":1,"s":"BTCUSDT","t":1.5,"p":"1","q":"1","T":1}"#, "number"),
        (#"{"e":"trade","E":-1,"s":"BTCUSDT","t":1,"p":"1","q":"1","T":1}"#, "number"),
        (#"{"e":"trade","E":99999999999999999999,"s":"BTCUSDT","t":1,"p":"1","q":"1","T":1}"#, "number"),
        (#"{"e":"depthUpdate","E":1,"s":"BTCUSDT","U":5,"u":4,"b":[],"a":[]}"#, "malformed"),
        (#"{"e":"depthUpdate","E":1,"s":"BTCUSDT","U":1,"u":4,"b":[["1","-2"]],"a":[]}"#, "number"),
        (#"{"e":"depthUpdate","E":1,"s":"BTCUSDT","U":1,"u":4,"b":[["nan","2"]],"a":[]}"#, "number"),
        (#"{"e":"depthUpdate","E":1,"s":"BTCUSDT","U":1,"u":4,"b":[["1"]],"a":[]}"#, "malformed"),
        (#"{"e":"kline","E":1,"s":"BTCUSDT"}"#, "ignored"),
        (#"{"result":null,"id":1}"#, "ignored"),
        (#"{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1","q":"1","T":1} x"#, "malformed"),
        (#"{"stream":"x","data":{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1","q":"1","T":1}"#, "malformed"),
        (String(repeating: "[", count: 100_000), "malformed"),
        (#"{"x":"# + String(repeating: "[", count: 100) + "}", "malformed"),
        // Numbers bt could not store or trade with: beyond the price range, subnormal, huge quantities.
        (#"{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1e300","q":"1","T":1}"#, "number"),
        (#"{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1e-320","q":"1","T":1}"#, "number"),
        (#"{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1e13","q":"1","T":1}"#, "number"),
        (#"{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1","q":"1e300","T":1}"#, "number"),
        (#"{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1","q":"1e-320","T":1}"#, "number"),
        (#"{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1","q":"0","T":1}"#, "number"),
        (#"{"e":"depthUpdate","E":1,"s":"BTCUSDT","U":1,"u":4,"b":[["1e300","2"]],"a":[]}"#, "number"),
        (#"{"e":"depthUpdate","E":1,"s":"BTCUSDT","U":1,"u":4,"b":[],"a":[["1","1e-320"]]}"#, "number"),
        (#"{"e":"depthUpdate","E":1,"s":"BTCUSDT","U":1,"u":4,"b":[],"a":[["1","1e16"]]}"#, "number"),
    ])
    func rejected(text: String, kind: String) {
        let r = rejection(text)
        switch (r, kind) {
        case (.malformed?, "malformed"), (.foreignSymbol?, "foreign"), (.badNumber?, "number"), (.ignored?, "ignored"): break
        default: Issue.record("\(Excerpt.quoted(text)): \(String(describing: r)), expected \(kind)")
        }
        #expect(r?.reason.isEmpty == false)
    }

    @Test("the ranges' edges are kept: the smallest and largest price and quantity, and a level's 0")
    func rangeEdges() throws {
        let m = try message(#"{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1e12","q":"1e-12","T":1}"#)
        #expect(m == .trade(StreamTrade(id: 1, eventMs: 1, timeMs: 1, price: 1e12, quantity: 1e-12, buyerIsMaker: false)))
        let d = try message(#"{"e":"depthUpdate","E":1,"s":"BTCUSDT","U":1,"u":1,"b":[["1e-12","1e15"]],"a":[["2","0"]]}"#)
        #expect(d == .depth(DepthDiff(eventMs: 1, firstId: 1, lastId: 1, bids: [BookLevel(price: 1e-12, quantity: 1e15)],
                                      asks: [BookLevel(price: 2, quantity: 0)])))
        let text = #"{"lastUpdateId":1,"bids":[["1e300","1"]],"asks":[]}"#
        #expect(throws: FrameRejection.badNumber(field: "bids price", text: "1e300")) {
            _ = try Array(text.utf8).withUnsafeBytes { try parser.snapshot($0) }
        }
    }

    @Test("an out-of-range integer is quoted whole in the reason, not cut at its 17th digit")
    func integersQuotedWhole() {
        let long = rejection(#"{"e":"trade","E":1,"s":"BTCUSDT","t":92233720368547758070,"p":"1","q":"1","T":1}"#)
        #expect(long == .badNumber(field: "t", text: "92233720368547758070"), "\(String(describing: long))")
        #expect(long?.reason.contains("'92233720368547758070'") == true, "\(long?.reason ?? "")")
        // Beyond 2^53 with 16 digits: the digits alone, not the comma after them.
        let over = rejection(#"{"e":"trade","E":1,"s":"BTCUSDT","t":9999999999999999,"p":"1","q":"1","T":1}"#)
        #expect(over == .badNumber(field: "t", text: "9999999999999999"), "\(String(describing: over))")
    }

    @Test("random mutations of valid frames parse or are rejected, never trap")
    func mutations() {
        var rng = SplitMix64(seed: 7)
        let seeds = [
            #"{"stream":"btcusdt@depth@100ms","data":{"e":"depthUpdate","E":1672515782136,"s":"BTCUSDT","U":157,"u":160,"b":[["0.0024","10"]],"a":[["0.0026","100"]]}}"#,
            #"{"stream":"btcusdt@trade","data":{"e":"trade","E":1672515782136,"s":"BTCUSDT","t":12345,"p":"0.001","q":"100","T":1672515782134,"m":true,"M":true}}"#,
        ].map { Array($0.utf8) }
        for k in 0..<20_000 {
            var bytes = seeds[k % seeds.count]
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.remove(at: at)
                default: bytes.insert(Array("{}[],:\"0-.e".utf8)[Int(rng.next() % 11)], at: at)
                }
                if bytes.isEmpty { break }
            }
            _ = try? bytes.withUnsafeBytes { try parser.message($0) }
            _ = try? bytes.withUnsafeBytes { try parser.snapshot($0) }
        }
    }
}
