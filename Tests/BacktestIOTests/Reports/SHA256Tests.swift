import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

@Suite("SHA-256")
struct SHA256Tests {
    @Test("FIPS 180-4 / NIST test vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("The quick brown fox jumps over the lazy dog", "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"),
    ])
    func vectors(message: String, digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }

    @Test("one million 'a' (crosses many blocks)")
    func million() {
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("candle fingerprint changes with any value")
    func candles() {
        var a = CandleSeries(symbol: "X")
        a.append(time: 0, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10)
        var b = a
        b.volume[0] = 11
        #expect(a.sha256 != b.sha256 && a.sha256.count == 64)
        var c = a
        c.time[0] = 1
        #expect(c.sha256 != a.sha256)
        let copy = CandleSeries(symbol: "Y", time: a.time, open: a.open, high: a.high, low: a.low, close: a.close,
                                volume: a.volume)
        #expect(copy.sha256 == a.sha256, "the fingerprint covers the bars only, not the symbol")
    }

    @Test("the shipped GOOG bars keep the fingerprint every earlier manifest and shard recorded")
    func stableFingerprint() throws {
        // 2,148 bars: two full chunks of 1,000 bars and a partial one. The digest is the one the
        // hand-written implementation wrote into manifests before libcrypto replaced it.
        #expect(try ShippedData.goog().sha256 == "50647e8d949b1e9356f6db5e0152ce2b4518402a6f48ee64962342348b709abb")
    }

    @Test("a hasher is a value: a copy continues on its own; a digest starts over; any sequence of bytes")
    func valueSemantics() {
        var a = SHA256()
        a.update(Array("abc".utf8))
        var b = a
        b.update(Array("dbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        #expect(a.hexDigest() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(b.hexDigest() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(a.hexDigest() == SHA256.hex([UInt8]()), "after a digest the hasher is empty")
        var c = SHA256()
        c.update("ab".utf8)
        c.update(CollectionOfOne(UInt8(ascii: "c")))
        c.update(Set<UInt8>())
        #expect(c.hexDigest() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
