import Foundation

/// Draws the newest state it was offered, on a thread of its own, at most `fps` times a second:
/// `bt live`'s dashboard and `bt bench live`'s measure of it. Redraws are coalesced, never
/// queued: a state offered before the previous one was drawn replaces it, and a slow `draw` (a
/// slow terminal) slows only this thread, never the one that offers.
package final class CoalescedDrawing<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: State?
    private var stopped = false
    private var frames = 0
    private var thread: Thread?
    private let fps: Double
    private let draw: (State) -> Void

    package init(fps: Double, draw: @escaping (State) -> Void) {
        precondition(fps > 0, "fps must be positive")
        self.fps = fps
        self.draw = draw
    }

    /// Hands over `state`; it replaces one not drawn yet.
    package func offer(_ state: State) {
        lock.lock(); latest = state; lock.unlock()
    }

    package func start() {
        let thread = Thread { [self] in loop() }
        thread.name = "bt-live-dashboard"
        self.thread = thread
        thread.start()
    }

    /// Stops drawing (after the frame in progress); returns the frames drawn.
    @discardableResult
    package func stop() -> Int {
        lock.lock(); stopped = true; lock.unlock()
        while let t = thread, !t.isFinished { usleep(1_000) }
        lock.lock(); defer { lock.unlock() }
        return frames
    }

    private func loop() {
        while true {
            let began = Date()
            lock.lock()
            if stopped { lock.unlock(); return }
            let state = latest
            latest = nil
            lock.unlock()
            if let state {
                draw(state)
                lock.lock(); frames += 1; lock.unlock()
            }
            let rest = 1 / fps - Date().timeIntervalSince(began)
            if rest > 0 { usleep(UInt32(rest * 1_000_000)) }
        }
    }
}
