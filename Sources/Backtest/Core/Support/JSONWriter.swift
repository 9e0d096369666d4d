/// JSON literals for machine output (the library's reports and the CLI's `--json`).
public enum JSONWriter {
    /// `s` as a JSON string literal, control characters escaped.
    public static func string(_ s: String) -> String {
        var out = "\""
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
        return out + "\""
    }

    /// A Double as JSON: whole numbers without a fraction, others in shortest round-trip text,
    /// `null` when not finite.
    public static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        return NumberText.shortest(v)
    }
}
