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
        var out = ""
        write(to: &out, style: style)
        return out
    }

    private func write(to out: inout String, style: Style) {
        let comma = style == .compact ? "," : ", "
        let colon = style == .compact ? ":" : ": "
        switch self {
        case .object(let members):
            out += "{"
            for (k, member) in members.enumerated() {
                if k > 0 { out += comma }
                Self.writeString(member.key, to: &out)
                out += colon
                member.value.write(to: &out, style: style)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (k, item) in items.enumerated() {
                if k > 0 { out += comma }
                item.write(to: &out, style: style)
            }
            out += "]"
        case .string(let s): Self.writeString(s, to: &out)
        case .number(let v): out += v.isFinite ? NumberText.shortest(v) : "null"
        case .int(let v): out += String(v)
        case .numberLiteral(let text): out += text
        case .bool(let v): out += v ? "true" : "false"
        case .null: out += "null"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        // Most strings (names, base64 data) need no escape: append them whole.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += s
            out += "\""
            return
        }
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // Control characters, DEL, C1 and bidirectional controls as \u escapes: valid
                // JSON, and inert when the JSON is printed on a terminal.
                if u.value < 0x20 || TerminalText.needsEscape(u) {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
