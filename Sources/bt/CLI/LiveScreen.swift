import Backtest
import Foundation

/// `bt live`'s dashboard on a terminal (stderr): the session only hands over its latest state;
/// a drawing thread of its own renders the newest one at most `fps` times a second. Redraws
/// are coalesced, never queued: a state that arrives before the previous one was drawn
/// replaces it, and a slow terminal slows only the drawing thread, never the session's.
final class LiveScreen: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: LiveStatus?
    private var events: [String] = []
    private var stopped = false
    private let indicators: [IndicatorSpec]
    private let fps: Double
    private let color: Bool
    private var thread: Thread?
    /// Frames drawn, for the summary's diagnostics.
    private(set) var frames = 0

    init(indicators: [IndicatorSpec], fps: Double, color: Bool) {
        self.indicators = indicators
        self.fps = fps
        self.color = color
    }

    /// Takes a session event: a status replaces the one waiting; other events become lines
    /// under the chart (the same text `LiveLines` prints).
    func report(_ event: LiveEvent) {
        if case .status(let s) = event {
            lock.lock(); latest = s; lock.unlock()
            return
        }
        guard let line = LiveLines.text(event) else { return }
        lock.lock()
        events.append(TerminalText.escaped(line, keepNewlines: false))
        if events.count > 20 { events.removeFirst(events.count - 20) }
        lock.unlock()
    }

    /// Switches to the terminal's alternate screen and starts drawing.
    func start() {
        write("\u{1B}[?1049h\u{1B}[?25l")
        let thread = Thread { [self] in loop() }
        thread.name = "bt-live-dashboard"
        self.thread = thread
        thread.start()
    }

    /// Stops drawing and gives the terminal back (the summary then prints on the normal screen).
    func stop() {
        lock.lock(); stopped = true; lock.unlock()
        while thread != nil && !thread!.isFinished { usleep(5_000) }
        write("\u{1B}[?25h\u{1B}[?1049l")
    }

    private func loop() {
        let period = 1 / fps
        while true {
            let began = Date()
            lock.lock()
            if stopped { lock.unlock(); return }
            let status = latest
            latest = nil
            let lines = events
            lock.unlock()
            if let status {
                let size = Environment.terminalSize(2)
                let frame = LiveDashboard.render(status, indicators: indicators, events: lines, width: size?.columns ?? 100,
                                                 height: size?.rows ?? 40, color: color)
                write("\u{1B}[H" + frame)
                frames += 1
            }
            let rest = period - Date().timeIntervalSince(began)
            if rest > 0 { usleep(UInt32(rest * 1_000_000)) }
        }
    }

    private func write(_ text: String) {
        var t = text
        _ = t.withUTF8 { FileDescriptor.write(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }
}
