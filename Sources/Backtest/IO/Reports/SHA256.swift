import BacktestAnalysis
import BacktestCore

/// SHA-256 (FIPS 180-4), for the candle fingerprint in report manifests. Foundation on Linux has
/// no CryptoKit, so it is implemented here.
public struct SHA256 {
    private var state: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    public init() { buffer.reserveCapacity(64) }

    /// Adds bytes to the message.
    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        for b in bytes {
            buffer.append(b)
            length &+= 1
            if buffer.count == 64 { compress(); buffer.removeAll(keepingCapacity: true) }
        }
    }

    /// Pads, finishes and returns the digest as 64 lowercase hex digits.
    public mutating func hexDigest() -> String {
        let bits = length &* 8
        buffer.append(0x80)
        if buffer.count > 56 {
            while buffer.count < 64 { buffer.append(0) }
            compress(); buffer.removeAll(keepingCapacity: true)
        }
        while buffer.count < 56 { buffer.append(0) }
        for i in (0..<8).reversed() { buffer.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
        compress(); buffer.removeAll()
        let hex = Array("0123456789abcdef")
        var out = ""
        for word in state {
            for shift in stride(from: 28, through: 0, by: -4) { out.append(hex[Int((word >> UInt32(shift)) & 0xf)]) }
        }
        return out
    }

    /// Digest of `bytes` in one call.
    public static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        var h = SHA256()
        h.update(bytes)
        return h.hexDigest()
    }

    @inline(__always) private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    private mutating func compress() {
        var w = [UInt32](repeating: 0, count: 64)
        for i in 0..<16 {
            w[i] = UInt32(buffer[4 * i]) << 24 | UInt32(buffer[4 * i + 1]) << 16 | UInt32(buffer[4 * i + 2]) << 8 | UInt32(buffer[4 * i + 3])
        }
        for i in 16..<64 {
            let s0 = Self.rotr(w[i - 15], 7) ^ Self.rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = Self.rotr(w[i - 2], 17) ^ Self.rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var a = state[0], b = state[1], c = state[2], d = state[3]
        var e = state[4], f = state[5], g = state[6], h = state[7]
        for i in 0..<64 {
            let s1 = Self.rotr(e, 6) ^ Self.rotr(e, 11) ^ Self.rotr(e, 25)
            let ch = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ ch &+ Self.k[i] &+ w[i]
            let s0 = Self.rotr(a, 2) ^ Self.rotr(a, 13) ^ Self.rotr(a, 22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            h = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }
}

extension CandleSeries {
    /// SHA-256 of the bars as used: for each bar, time as Int64 then open, high, low, close,
    /// volume as IEEE-754 bit patterns, all little-endian. Independent of how the data was stored.
    public var sha256: String {
        var h = SHA256()
        var bytes = [UInt8]()
        bytes.reserveCapacity(48)
        for i in 0..<count {
            bytes.removeAll(keepingCapacity: true)
            func put(_ v: UInt64) { for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (UInt64(k) * 8))) } }
            put(UInt64(bitPattern: time[i]))
            for v in [open[i], high[i], low[i], close[i], volume[i]] { put(v.bitPattern) }
            h.update(bytes)
        }
        return h.hexDigest()
    }
}
