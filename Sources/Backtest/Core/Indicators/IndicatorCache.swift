import Foundation

/// Indicator outputs computed once and shared: a sweep evaluates thousands of parameter
/// combinations over one candle series, but only a few distinct indicator windows.
///
/// Keyed by the indicator (`IndicatorSpec`) and its input; one cache belongs to one candle
/// series. Thread-safe: concurrent combinations may ask for the same key; a value is computed at
/// most once per key (other askers wait for it).
public final class IndicatorCache: @unchecked Sendable {
    /// What a cached value is: an indicator and what it was computed from.
    public struct Key: Hashable, Sendable {
        public var spec: IndicatorSpec
        public var input: IndicatorSpec.Input

        /// - Parameter input: nil takes the spec's default (the close for indicators of one series).
        public init(_ spec: IndicatorSpec, input: IndicatorSpec.Input? = nil) {
            self.spec = spec
            self.input = input ?? spec.defaultInput
        }
    }

    private let lock = NSCondition()
    private var values: [Key: [[Double]]] = [:]
    private var computing: Set<Key> = []
    private var children: [String: IndicatorCache] = [:]

    public init() {}

    private var pairs: SpreadPairs?

    /// Every Corwin-Schultz pair of `candles` (the cache's series), computed the first time it
    /// is asked for (other askers wait): what every run at synthetic depth with an estimated
    /// spread reads, once per series however many runs share the cache.
    func spreadPairs(of candles: CandleSeries) -> SpreadPairs {
        lock.lock(); defer { lock.unlock() }
        if let pairs {
            precondition(pairs.count == candles.count, "an indicator cache belongs to one candle series")
            return pairs
        }
        let made = SpreadPairs(candles)
        pairs = made
        return made
    }

    /// Number of distinct keys computed so far.
    public var count: Int {
        lock.lock(); defer { lock.unlock() }
        return values.count
    }

    /// The cache of another candle series that belongs with this one (a portfolio's symbol),
    /// made the first time it is asked for; the same object for the same `name` afterwards.
    public func child(_ name: String) -> IndicatorCache {
        lock.lock(); defer { lock.unlock() }
        if let c = children[name] { return c }
        let c = IndicatorCache()
        children[name] = c
        return c
    }

    /// The outputs of `spec` on `input` of `candles` (`IndicatorSpec.compute(on:input:)`, one
    /// array per output column), computed the first time they are asked for.
    /// - Parameter input: nil takes the spec's default (the close for indicators of one series).
    public func outputs(_ spec: IndicatorSpec, of input: IndicatorSpec.Input? = nil,
                        on candles: CandleSeries) throws -> [[Double]] {
        let key = Key(spec, input: input)
        return try outputs(key) { try spec.compute(on: candles, input: key.input) }
    }

    /// The outputs stored under `key`, computing them with `compute` the first time.
    /// An error is not cached: the next asker computes again (and gets the same error).
    public func outputs(_ key: Key, _ compute: () throws -> [[Double]]) throws -> [[Double]] {
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
}
