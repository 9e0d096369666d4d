import Foundation

/// Indicator outputs computed once and shared: a sweep evaluates thousands of parameter
/// combinations over one candle series, but only a few distinct indicator windows.
///
/// Keys name the indicator, its input and its parameters (`"sma:close:20"`); one cache belongs to
/// one candle series. Thread-safe: concurrent combinations may ask for the same key; a value is
/// computed at most once per key (other askers wait for it).
public final class IndicatorCache: @unchecked Sendable {
    private let lock = NSCondition()
    private var values: [String: [[Double]]] = [:]
    private var computing: Set<String> = []

    public init() {}

    /// Number of distinct keys computed so far.
    public var count: Int {
        lock.lock(); defer { lock.unlock() }
        return values.count
    }

    /// The outputs stored under `key`, computing them with `compute` the first time.
    /// An error is not cached: the next asker computes again (and gets the same error).
    public func outputs(_ key: String, _ compute: () throws -> [[Double]]) throws -> [[Double]] {
        lock.lock()
        while true {
            if let v = values[key] { lock.unlock(); return v }
            if !computing.contains(key) { break }
            lock.wait()
        }
        computing.insert(key)
        lock.unlock()
        let result: Result<[[Double]], Error> = Result { try compute() }
        lock.lock()
        computing.remove(key)
        if case .success(let v) = result { values[key] = v }
        lock.broadcast()
        lock.unlock()
        return try result.get()
    }

    /// A single-output indicator stored under `key`.
    public func series(_ key: String, _ compute: () throws -> [Double]) throws -> [Double] {
        try outputs(key) { [try compute()] }[0]
    }
}
