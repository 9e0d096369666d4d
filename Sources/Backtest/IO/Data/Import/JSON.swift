import BacktestAnalysis
import BacktestCore

extension JSONValue {
    /// The value of the first key in `names` that is present, for objects.
    package subscript(_ names: String...) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for name in names { if let m = members.first(where: { $0.key == name }) { return m.value } }
        return nil
    }

    /// A short description of the value's type for error messages.
    var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number, .int, .numberLiteral: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// A JSON syntax error at a byte offset.
package struct JSONSyntaxError: Error {
    package var offset: Int
    package var reason: String
}

/// A small recursive-descent JSON parser over UTF-8 bytes (RFC 8259), for the JSON importers.
/// - Complexity: O(n) in the input length.
package struct JSONParser {
    private let b: UnsafeBufferPointer<UInt8>
    private(set) var i: Int

    /// Parses exactly one value filling `bytes` (surrounding whitespace allowed).
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var p = JSONParser(b: bytes, i: 0)
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == bytes.count else { throw JSONSyntaxError(offset: p.i, reason: "unexpected text after the JSON value") }
        return v
    }

    private mutating func skipSpace() {
        while i < b.count, b[i] == 32 || b[i] == 9 || b[i] == 10 || b[i] == 13 { i += 1 }
    }

    private func fail(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(offset: i, reason: reason) }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth < 64 else { throw fail("JSON nested too deeply") }
        skipSpace()
        guard i < b.count else { throw fail("unexpected end of JSON") }
        switch b[i] {
        case 123: return try object(depth: depth)
        case 91: return try array(depth: depth)
        case 34: return .string(try string())
        case 116: try literal("true"); return .bool(true)
        case 102: try literal("false"); return .bool(false)
        case 110: try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func literal(_ word: String) throws {
        for c in word.utf8 {
            guard i < b.count, b[i] == c else { throw fail("invalid JSON literal (expected \(word))") }
            i += 1
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        i += 1
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if i < b.count, b[i] == 125 { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < b.count, b[i] == 34 else { throw fail("expected a quoted key in JSON object") }
            let key = try string()
            skipSpace()
            guard i < b.count, b[i] == 58 else { throw fail("expected ':' after key \(Excerpt.quoted(key, limit: 40))") }
            i += 1
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard i < b.count else { throw fail("unterminated JSON object") }
            if b[i] == 44 { i += 1; continue }
            if b[i] == 125 { i += 1; return .object(members) }
            throw fail("expected ',' or '}' in JSON object")
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < b.count, b[i] == 93 { i += 1; return .array(items) }
        while true {
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard i < b.count else { throw fail("unterminated JSON array") }
            if b[i] == 44 { i += 1; continue }
            if b[i] == 93 { i += 1; return .array(items) }
            throw fail("expected ',' or ']' in JSON array")
        }
    }

    private mutating func string() throws -> String {
        i += 1
        let start = i
        var simple = true
        while i < b.count, b[i] != 34 {
            if b[i] == 92 { simple = false; i += 2 } else { i += 1 }
        }
        guard i < b.count else { throw fail("unterminated JSON string") }
        let raw = UnsafeBufferPointer(rebasing: b[start..<i])
        i += 1
        if simple { return String(decoding: raw, as: UTF8.self) }
        var out = [UInt8]()
        var k = 0
        while k < raw.count {
            let c = raw[k]
            k += 1
            guard c == 92, k < raw.count else { out.append(c); continue }
            let e = raw[k]
            k += 1
            switch e {
            case 110: out.append(10)
            case 116: out.append(9)
            case 114: out.append(13)
            case 98: out.append(8)
            case 102: out.append(12)
            case 117:
                guard k + 4 <= raw.count, let code = UInt32(String(decoding: UnsafeBufferPointer(rebasing: raw[k..<k + 4]), as: UTF8.self), radix: 16)
                else { throw fail("invalid \\u escape in JSON string") }
                k += 4
                out.append(contentsOf: String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8)
            default: out.append(e)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func number() throws -> Double {
        let start = i
        while i < b.count, b[i] == 45 || b[i] == 43 || b[i] == 46 || b[i] == 101 || b[i] == 69 || b[i] &- 48 < 10 { i += 1 }
        guard i > start, case .success(let v) = DecimalParsing.double(UnsafeBufferPointer(rebasing: b[start..<i])) else {
            throw fail("invalid JSON value")
        }
        return v
    }
}

extension JSONSyntaxError {
    /// The error as an `InputError` naming the file and the 1-based line of `offset`
    /// counted from `firstLine` at the start of `bytes`.
    func inputError(file: String, bytes: UnsafeBufferPointer<UInt8>, firstLine: Int = 1) -> InputError {
        var line = firstLine
        for k in 0..<min(offset, bytes.count) where bytes[k] == 10 { line += 1 }
        return InputError("invalid JSON: \(reason)", file: file, line: line)
    }
}
