import Foundation

/// A progress bar on standard error, drawn only when stderr is a terminal: items done, rate and
/// time left. Silent otherwise (logs and pipes get nothing).
final class ProgressBar {
    private let total: Int
    private let label: String
    private let enabled: Bool
    private let start = Date()
    private var lastDraw = Date.distantPast

    init(total: Int, label: String) {
        self.total = total
        self.label = label
        enabled = Environment.isTerminal(2) && total > 0
    }

    /// Redraws at most ten times a second, and always at the end.
    func update(_ done: Int) {
        guard enabled else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let elapsed = now.timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Double(total - done) / rate : 0
        let width = 30
        let filled = Int(Double(width) * Double(done) / Double(total))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = "\r\(label) [\(bar)] \(done)/\(total) " + String(format: "%.0f/s, %.0fs left ", rate, left)
        FileHandle.standardError.write(Data(line.utf8))
        if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
