#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole writes to a file descriptor: the one loop bt's files, partial results and standard
/// streams are written through.
package enum FileDescriptor {
    /// Writes all of `bytes` to `fd`, retrying interrupted and short writes; false when a write
    /// fails (`errno` says why).
    @discardableResult
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var p = bytes.baseAddress else { return true }
        var left = bytes.count
        while left > 0 {
            #if canImport(Glibc)
            let n = Glibc.write(fd, p, left)
            #else
            let n = Darwin.write(fd, p, left)
            #endif
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            p += n
            left -= n
        }
        return true
    }
}
