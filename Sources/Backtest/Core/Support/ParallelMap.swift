import Dispatch
import Foundation

/// Runs independent jobs on all cores and collects their results in input order.
package enum Parallel {
    /// `transform` applied to every index in `0..<count` with `DispatchQueue.concurrentPerform`,
    /// results in index order. Each job's error is captured in its slot, so one failure never
    /// aborts the rest. `progress` (if given) is called after each job with the number done,
    /// serially (never concurrently with itself).
    package static func map<T>(
        count: Int,
        progress: ((Int) -> Void)? = nil,
        _ transform: (Int) throws -> T
    ) -> [Result<T, Error>] {
        var results = [Result<T, Error>?](repeating: nil, count: count)
        let done = Counter()
        results.withUnsafeMutableBufferPointer { slots in
            // The jobs share `transform` and `progress` (callers pass work that is safe to run
            // concurrently: the contract above) and write disjoint slots.
            withoutActuallyEscaping(transform) { transform in
                nonisolated(unsafe) let transform = transform, progress = progress, base = slots.baseAddress!
                DispatchQueue.concurrentPerform(iterations: count) { i in
                    let r: Result<T, Error>
                    do { r = .success(try transform(i)) } catch { r = .failure(error) }
                    base[i] = r
                    done.increment { progress?($0) }
                }
            }
        }
        return results.map { $0! }
    }

    /// Jobs finished so far, counted under a lock; `then` runs under it too (serially).
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        func increment(then: (Int) -> Void) {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            then(value)
        }
    }
}
