/// Deterministic 64-bit generator for randomised tests with fixed seeds (Vigna's SplitMix64).
package struct SplitMix64: RandomNumberGenerator, Sendable {
    package var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform Double in [0, 1).
    package mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// An Int in `range` (modulo the count: close enough to uniform for test cases).
    package mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
}
