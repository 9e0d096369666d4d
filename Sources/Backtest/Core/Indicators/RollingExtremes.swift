/// Rolling maximum and minimum over a window, the core of Donchian, Williams %R and Stochastic.
///
/// Monotonic deque of candidate indices (Lemire's "streaming maximum-minimum filter"): each index
/// enters and leaves once, so the cost is O(n) whatever the data, with one `period`-sized index
/// ring allocated per call.
enum RollingExtremes {
    /// `out[i] = max(x[i-p+1...i])` (or min when `maximum` is false) for `i >= p - 1`. Writes
    /// nothing before `p - 1`.
    static func extreme(
        _ x: UnsafePointer<Double>, count n: Int, period p: Int, maximum: Bool, into out: UnsafeMutablePointer<Double>
    ) {
        guard n >= p else { return }
        let ring = UnsafeMutablePointer<Int>.allocate(capacity: p)
        defer { ring.deallocate() }
        var head = 0, size = 0  // deque ring[head ..< head+size] (mod p), values monotone
        for i in 0..<n {
            let v = x[i]
            // Drop the front when it leaves the window (keeps size <= p before the push).
            if size > 0 && ring[head] <= i - p {
                head = (head + 1) % p
                size -= 1
            }
            // Drop candidates dominated by v from the back.
            while size > 0 {
                let back = x[ring[(head + size - 1) % p]]
                if maximum ? back <= v : back >= v { size -= 1 } else { break }
            }
            ring[(head + size) % p] = i
            size += 1
            if i >= p - 1 { out[i] = x[ring[head]] }
        }
    }
}
