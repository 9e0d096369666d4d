import Backtest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process environment, standard streams and terminal facts.
enum Environment {
    static func value(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        let s = String(cString: p)
        return s.isEmpty ? nil : s
    }

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// True when colour may be used on `fd`: a terminal and `NO_COLOR` unset.
    static func colorAllowed(_ fd: Int32) -> Bool { isTerminal(fd) && getenv("NO_COLOR") == nil }

    /// The terminal's size, when `fd` is one.
    static func terminalSize(_ fd: Int32 = 1) -> (columns: Int, rows: Int)? {
        var ws = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return nil }
        return (Int(ws.ws_col), Int(ws.ws_row))
    }

    /// The width text output may use: the terminal's, else `COLUMNS`, else 120.
    static var columns: Int { terminalSize()?.columns ?? Int(value("COLUMNS") ?? "") ?? 120 }
}

/// Buffered standard output; data goes here. Flushed at exit by `main`. (Nothing in bt uses C's
/// buffered `stdout`/`stderr`, whose globals Swift 6 cannot prove safe.)
///
/// Everything written is passed through `TerminalText.escaped` (newlines kept), so no text from
/// a file, a store or an argument can send a terminal control sequence; only charts bt drew
/// itself, which colour with SGR codes, go out as they are (`write(chart:)`).
enum Output {
    nonisolated(unsafe) private static var buffer: [UInt8] = {
        var b = [UInt8]()
        b.reserveCapacity(1 << 16)
        return b
    }()

    static func write(_ s: String) {
        append(TerminalText.escaped(s, keepNewlines: true))
    }

    /// A chart rendered by bt: its colour codes pass; the text in it was escaped when drawn.
    static func write(chart s: String) {
        append(s)
    }

    /// A chart, and its thinning note on stderr (after the chart, so a combined log reads in order).
    static func write(chart drawing: ChartDrawing) {
        append(drawing.text)
        if let note = drawing.note { flush(); Diagnostics.line(note) }
    }

    private static func append(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    static func line(_ s: String = "") { write(s); write("\n") }

    static func flush() {
        guard !buffer.isEmpty else { return }
        _ = buffer.withUnsafeBytes { FileDescriptor.write(STDOUT_FILENO, $0) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Diagnostics and progress go to standard error, unbuffered, escaped as `Output` escapes.
enum Diagnostics {
    static func line(_ s: String) {
        var text = TerminalText.escaped(s, keepNewlines: true) + "\n"
        _ = text.withUTF8 { FileDescriptor.write(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }
}
