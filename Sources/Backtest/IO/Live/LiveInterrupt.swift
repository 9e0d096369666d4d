import Foundation

/// Ctrl-C ends a session cleanly: the handler only sets a flag the session polls.
package enum LiveInterrupt {
    // Shared with the signal handler on purpose: it only stores 1 in a sig_atomic_t (what a
    // handler may do), the session's thread only reads it.
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    package static func install() {
        flag = 0
        signal(SIGINT) { _ in LiveInterrupt.flag = 1 }
        signal(SIGTERM) { _ in LiveInterrupt.flag = 1 }
    }

    package static func uninstall() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    package static func requested() -> Bool { flag != 0 }
}
