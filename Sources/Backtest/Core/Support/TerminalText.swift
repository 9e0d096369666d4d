/// Text made safe to show on a terminal.
///
/// Untrusted text (symbols, file names, header fields, error reasons quoting input) can hold
/// bytes a terminal acts on: ESC starts CSI and OSC sequences that move the cursor, recolour,
/// retitle the window or write hyperlinks; C1 controls (U+0080...U+009F, among them the
/// one-byte CSI U+009B and OSC U+009D) do the same on some terminals; carriage return and
/// backspace overwrite what is already shown; bidirectional overrides reorder it. Each such
/// scalar is shown as a visible escape instead (`\x1b`, `\r`, `\u{202e}`), so the text prints as
/// exactly one inert run of characters.
package enum TerminalText {
    /// `text` with every control scalar escaped. Tab stays a tab; newline stays a newline when
    /// `keepNewlines` is true (multi-line messages), else it becomes `\n`.
    package static func escaped(_ text: String, keepNewlines: Bool = false) -> String {
        guard mayNeedEscape(text, keepNewlines: keepNewlines) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            guard needsEscape(s, keepNewlines: keepNewlines) else { out.append(s); continue }
            out.append(contentsOf: visible(s).unicodeScalars)
        }
        return String(out)
    }

    /// A fast byte scan: false when `text` surely holds nothing to escape (the usual case, for
    /// megabytes of CSV as for one line).
    static func mayNeedEscape(_ text: String, keepNewlines: Bool) -> Bool {
        var text = text
        return text.withUTF8 { b in
            for byte in b {
                // C0 controls and DEL; 0xC2 leads C1 controls, 0xE2 the bidi controls, 0xD8 U+061C.
                if byte < 0x20 {
                    if byte == 0x09 || (byte == 0x0A && keepNewlines) { continue }
                    return true
                }
                if byte == 0x7F || byte == 0xC2 || byte == 0xE2 || byte == 0xD8 { return true }
            }
            return false
        }
    }

    /// True for scalars a terminal may interpret: C0 controls (except tab, and newline when
    /// kept), DEL, C1 controls, and the bidirectional embedding, override and isolate controls.
    package static func needsEscape(_ s: Unicode.Scalar, keepNewlines: Bool = false) -> Bool {
        switch s.value {
        case 0x09: return false
        case 0x0A: return !keepNewlines
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: return true
        default: return false
        }
    }

    /// `\n`, `\r`, `\x1b`, `\u{9b}`, `\u{202e}`.
    package static func visible(_ s: Unicode.Scalar) -> String {
        switch s {
        case "\n": return "\\n"
        case "\r": return "\\r"
        default:
            let hex = String(s.value, radix: 16)
            return s.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{" + hex + "}"
        }
    }
}
