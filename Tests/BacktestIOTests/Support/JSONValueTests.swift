import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

@Suite("JSON values: one writer, keys in order")
struct JSONValueTests {
    @Test("objects keep their keys in order; every case writes its JSON form")
    func compact() {
        let value: JSONValue = [
            "z": .int(-3), "a": .number(0.1), "whole": .number(252), "big": .number(1e20), "nan": .number(.nan),
            "inf": .number(-.infinity), "fixed": .numberLiteral("1.500"), "t": .bool(true), "f": .bool(false),
            "none": .null, "list": [.string("x"), .array([]), .object([])],
        ]
        #expect(value.serialized() == #"{"z":-3,"a":0.1,"whole":252,"big":1e+20,"nan":null,"inf":null,"fixed":1.500,"#
                + #""t":true,"f":false,"none":null,"list":["x",[],{}]}"#)
    }

    @Test("strings escape quotes, backslashes and control characters; other text passes through")
    func strings() {
        #expect(JSONValue.string("a\"b\\c\nd\re\tf\u{1}g é €").serialized() == #""a\"b\\c\nd\re\tf\u0001g é €""#)
        #expect(JSONValue.object([(key: "k\"", value: .string(""))]).serialized() == #"{"k\"":""}"#)
    }

    @Test("DEL, C1 and bidirectional controls are escaped on their own, not only beside a C0 control")
    func terminalControlsAlone() {
        #expect(JSONValue.string("a\u{7F}b").serialized() == #""a\u007fb""#)
        #expect(JSONValue.string("a\u{9B}2J").serialized() == #""a\u009b2J""#)
        #expect(JSONValue.string("abc\u{202E}cba").serialized() == #""abc\u202ecba""#)
        #expect(JSONValue.string("x\u{061C}\u{2066}y").serialized() == #""x\u061c\u2066y""#)
        // Their lead bytes also start harmless text, which passes through unchanged.
        #expect(JSONValue.string("é ¢ — ؠ").serialized() == "\"é ¢ — ؠ\"")
    }

    @Test("the spaced style puts a space after every colon and comma")
    func spaced() {
        let value: JSONValue = ["bars": .int(10), "results": ["sma_20": .numberLiteral("0.5"), "ema_20": .number(2)]]
        #expect(value.serialized(.spaced) == #"{"bars": 10, "results": {"sma_20": 0.5, "ema_20": 2}}"#)
    }

    @Test("what bt writes parses back to the same value")
    func roundTrip() throws {
        let value: JSONValue = ["a": [.number(1.25), .string("x\ny"), .bool(false), .null], "b": ["c": .number(-0.003)]]
        let text = value.serialized()
        let parsed = try Array(text.utf8).withUnsafeBufferPointer { try JSONParser.parse($0) }
        #expect(parsed == value)
    }
}
