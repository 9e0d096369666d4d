import BacktestCore
import BacktestPresentation
import Foundation

/// `bt live`'s dashboard on a terminal (stderr): the session only hands over its latest state,
/// which a `CoalescedDrawing` renders on a thread of its own at most `fps` times a second, so
/// a slow terminal never slows the session.
package final class LiveScreen: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    private let indicators: [IndicatorSpec]
    private let color: Bool
    private var drawing: CoalescedDrawing<LiveStatus>!
    /// The terminal's columns and rows, asked at each frame (nil: 100 x 40).
    private let terminalSize: @Sendable () -> (columns: Int, rows: Int)?

    package init(indicators: [IndicatorSpec], fps: Double, color: Bool,
                 terminalSize: @escaping @Sendable () -> (columns: Int, rows: Int)?) {
        self.indicators = indicators
        self.color = color
        self.terminalSize = terminalSize
        drawing = CoalescedDrawing(fps: fps) { [unowned self] in draw($0) }
    }

    /// Takes a session event: a status replaces the one waiting; other events become lines
    /// under the chart (the same text `LiveEventText` gives `LiveLines`).
    package func report(_ event: LiveEvent) {
        if case .status(let s) = event {
            drawing.offer(s)
            return
        }
        guard let line = LiveEventText.line(event) else { return }
        lock.lock()
        events.append(TerminalText.escaped(line, keepNewlines: false))
        if events.count > 20 { events.removeFirst(events.count - 20) }
        lock.unlock()
    }

    /// Switches to the terminal's alternate screen and starts drawing.
    package func start() {
        write("\u{1B}[?1049h\u{1B}[?25l")
        drawing.start()
    }

    /// Stops drawing and gives the terminal back (the summary then prints on the normal screen).
    package func stop() {
        drawing.stop()
        write("\u{1B}[?25h\u{1B}[?1049l")
    }

    private func draw(_ status: LiveStatus) {
        lock.lock()
        let lines = events
        lock.unlock()
        let size = terminalSize()
        write("\u{1B}[H" + LiveDashboard.render(status, indicators: indicators, events: lines, width: size?.columns ?? 100,
                                               height: size?.rows ?? 40, color: color))
    }

    private func write(_ text: String) {
        var t = text
        _ = t.withUTF8 { FileDescriptor.write(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }
}
