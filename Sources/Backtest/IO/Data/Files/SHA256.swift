import BacktestAnalysis
import BacktestCore
import CCrypto

/// SHA-256 (FIPS 180-4) from OpenSSL's libcrypto (`EVP_sha256`), for the candle fingerprints in
/// report manifests and the checksums of shards. A value: copying a hasher copies its state
/// (`EVP_MD_CTX_copy_ex`) the first time either copy is updated.
public struct SHA256 {
    /// The digest context, freed with its last reference.
    private final class Context {
        let ctx: OpaquePointer

        init() {
            // Allocation failure of a few hundred bytes is not recoverable here.
            guard let ctx = EVP_MD_CTX_new(), EVP_DigestInit_ex(ctx, EVP_sha256(), nil) == 1 else {
                fatalError("libcrypto could not start a SHA-256 digest")
            }
            self.ctx = ctx
        }

        init(copying other: Context) {
            guard let ctx = EVP_MD_CTX_new(), EVP_MD_CTX_copy_ex(ctx, other.ctx) == 1 else {
                fatalError("libcrypto could not copy a SHA-256 digest")
            }
            self.ctx = ctx
        }

        deinit { EVP_MD_CTX_free(ctx) }
    }

    private var context = Context()

    public init() {}

    /// Adds bytes to the message.
    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        if !isKnownUniquelyReferenced(&context) { context = Context(copying: context) }
        let ctx = context.ctx
        if bytes.withContiguousStorageIfAvailable({ add($0, to: ctx) }) == nil {
            let copy = Array(bytes)
            copy.withUnsafeBufferPointer { add($0, to: ctx) }
        }
    }

    private func add(_ buffer: UnsafeBufferPointer<UInt8>, to ctx: OpaquePointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        guard EVP_DigestUpdate(ctx, base, buffer.count) == 1 else { fatalError("libcrypto refused SHA-256 input") }
    }

    /// Finishes and returns the digest as 64 lowercase hex digits; the hasher starts over.
    public mutating func hexDigest() -> String {
        if !isKnownUniquelyReferenced(&context) { context = Context(copying: context) }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context.ctx, &digest, &length) == 1, length == 32 else {
            fatalError("libcrypto could not finish a SHA-256 digest")
        }
        context = Context()
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for b in digest.prefix(32) { out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 0xf)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Digest of `bytes` in one call.
    public static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        var h = SHA256()
        h.update(bytes)
        return h.hexDigest()
    }
}

extension CandleSeries {
    /// SHA-256 of the bars as used: for each bar, time as Int64 then open, high, low, close,
    /// volume as IEEE-754 bit patterns, all little-endian. Independent of how the data was stored.
    public var sha256: String {
        var h = SHA256()
        // 48 bytes a bar, hashed a thousand bars at a time.
        let chunk = 1_000
        var words = [UInt64]()
        words.reserveCapacity(chunk * 6)
        var start = 0
        while start < count {
            let end = min(count, start + chunk)
            words.removeAll(keepingCapacity: true)
            for i in start..<end {
                words.append(UInt64(bitPattern: time[i]).littleEndian)
                for v in [open[i], high[i], low[i], close[i], volume[i]] { words.append(v.bitPattern.littleEndian) }
            }
            words.withUnsafeBytes { h.update($0) }
            start = end
        }
        return h.hexDigest()
    }
}
