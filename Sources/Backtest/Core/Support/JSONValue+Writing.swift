extension JSONValue {
    /// Layout of written JSON.
    public enum Style: Sendable {
        /// No spaces: `{"a":1,"b":[1,2]}`.
        case compact
        /// A space after every `:` and `,`: `{"a": 1, "b": [1, 2]}`.
        case spaced
    }

    /// The value as JSON text on one line: strings with `"`, `\` and control characters
    /// (C0, DEL, C1, bidirectional controls) escaped, numbers as their case says, object keys in order.
    public func serialized(_ style: Style = .compact) -> String {
        var out = TextBytes()
        write(to: &out, style: style)
        return out.string
    }

    /// Appends the value's JSON text to `out` (bytes written in one buffer: a report page's
    /// million-number arrays took most of a second as `String` appends).
    package func write(to out: inout TextBytes, style: Style) {
        switch self {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (k, member) in members.enumerated() {
                if k > 0 { Self.separate(&out, style) }
                Self.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                if style == .spaced { out.append(UInt8(ascii: " ")) }
                member.value.write(to: &out, style: style)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { Self.separate(&out, style) }
                item.write(to: &out, style: style)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let s): Self.writeString(s, to: &out)
        case .number(let v): if v.isFinite { out.append(shortest: v) } else { out.append("null") }
        case .int(let v): out.append(integer: Int64(v))
        case .numberLiteral(let text): out.append(text)
        case .bool(let v): out.append(v ? "true" : "false")
        case .null: out.append("null")
        }
    }

    @inline(__always)
    private static func separate(_ out: inout TextBytes, _ style: Style) {
        out.append(UInt8(ascii: ","))
        if style == .spaced { out.append(UInt8(ascii: " ")) }
    }

    /// True when no byte can start something `writeString` escapes: C0 controls, `"`, `\\`,
    /// DEL, and the lead bytes of the C1 controls (0xC2), U+061C (0xD8) and the bidirectional
    /// controls (0xE2). A false answer only sends the string through the scalar loop.
    /// - Complexity: O(bytes), one pass without allocation.
    private static func needsNoEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Branch-free, so the loop runs in SIMD lanes (base64 data makes up most of a page).
        var special: UInt8 = 0
        for b in bytes {
            special |= (b < 0x20 ? 1 : 0) | (b == 0x22 ? 1 : 0) | (b == 0x5C ? 1 : 0) | (b == 0x7F ? 1 : 0)
                | (b == 0xC2 ? 1 : 0) | (b == 0xD8 ? 1 : 0) | (b == 0xE2 ? 1 : 0)
        }
        return special == 0
    }

    private static func needsNoEscape(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer(needsNoEscape)
    }

    private static func writeString(_ s: String, to out: inout TextBytes) {
        out.append(UInt8(ascii: "\""))
        // Most strings (names, base64 data) need no escape: append them whole.
        let plain = s.utf8.withContiguousStorageIfAvailable(Self.needsNoEscape) ?? Self.needsNoEscape(Array(s.utf8))
        if plain {
            out.append(s)
            out.append(UInt8(ascii: "\""))
            return
        }
        for u in s.unicodeScalars {
            switch u {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            default:
                // Control characters, DEL, C1 and bidirectional controls as \u escapes: valid
                // JSON, and inert when the JSON is printed on a terminal.
                if u.value < 0x20 || TerminalText.needsEscape(u) {
                    let hex = String(u.value, radix: 16)
                    out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    out.append(String(u))
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
