import Dispatch
import Foundation

/// Runs independent jobs on all cores and collects their results in input order.
public enum Parallel {
    /// `transform` applied to every index in `0..<count` with `DispatchQueue.concurrentPerform`,
    /// results in index order. Each job's error is captured in its slot, so one failure never
    /// aborts the rest. `progress` (if given) is called after each job with the number done,
    /// serially (never concurrently with itself).
    public static func map<T>(
        count: Int,
        progress: ((Int) -> Void)? = nil,
        _ transform: (Int) throws -> T
    ) -> [Result<T, Error>] {
        var results = [Result<T, Error>?](repeating: nil, count: count)
        let lock = NSLock()
        var done = 0
        results.withUnsafeMutableBufferPointer { slots in
            let base = slots.baseAddress!
            DispatchQueue.concurrentPerform(iterations: count) { i in
                let r: Result<T, Error>
                do { r = .success(try transform(i)) } catch { r = .failure(error) }
                base[i] = r
                lock.lock()
                done += 1
                progress?(done)
                lock.unlock()
            }
        }
        return results.map { $0! }
    }
}
