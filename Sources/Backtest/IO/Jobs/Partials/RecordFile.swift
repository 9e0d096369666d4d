import BacktestAnalysis
import BacktestCore
import BacktestData
import Foundation

/// A binary file of partial results, written front to back: fixed-width little-endian integers
/// and IEEE-754 doubles (so every value reads back bit for bit, NaN, infinities and -0 included)
/// and length-prefixed UTF-8 strings. Each file starts with an 8-byte magic naming its kind.
final class RecordWriter {
    let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var bytesWritten = 0
    private var hash = SHA256()
    /// SHA-256 of everything written, once `close` returned (the manifest records it).
    private(set) var sha256 = ""

    init(path: String, magic: String) throws {
        precondition(magic.utf8.count == 8, "an 8-byte magic")
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)  // never through a link
        guard fd >= 0 else { throw InternalError("\(StagingArea.shown(path)): cannot create (\(String(cString: strerror(errno))))") }
        buffer.reserveCapacity(1 << 20)
        buffer.append(contentsOf: magic.utf8)
    }

    deinit { Glibc.close(fd) }

    func u8(_ v: UInt8) { buffer.append(v) }

    func int(_ v: Int) {
        let bits = UInt64(bitPattern: Int64(v))
        for k in 0..<8 { buffer.append(UInt8(truncatingIfNeeded: bits >> (8 * k))) }
    }

    func double(_ v: Double) {
        let bits = v.bitPattern
        for k in 0..<8 { buffer.append(UInt8(truncatingIfNeeded: bits >> (8 * k))) }
    }

    func doubles(_ values: [Double]) {
        int(values.count)
        for v in values { double(v) }
    }

    func string(_ s: String) {
        int(s.utf8.count)
        buffer.append(contentsOf: s.utf8)
    }

    func optionalString(_ s: String?) {
        u8(s == nil ? 0 : 1)
        if let s { string(s) }
    }

    /// Writes the buffer out when it holds more than `threshold` bytes.
    func flush(threshold: Int = 0) throws {
        guard buffer.count > threshold else { return }
        hash.update(buffer)
        guard buffer.withUnsafeBytes({ FileDescriptor.write(fd, $0) }) else {
            throw InternalError("\(StagingArea.shown(path)): cannot write (\(String(cString: strerror(errno))))")
        }
        bytesWritten += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and syncs the file to disk; returns its size.
    func close() throws -> Int {
        try flush()
        guard fsync(fd) == 0 else { throw InternalError("\(StagingArea.shown(path)): cannot sync (\(String(cString: strerror(errno))))") }
        sha256 = hash.hexDigest()
        return bytesWritten
    }
}

/// Reads a `RecordWriter` file front to back through a 1 MiB buffer; a file that ends early or
/// holds an impossible length is an `InputError` naming it.
final class RecordReader {
    let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var position = 0
    private var exhausted = false

    init(path: String, magic: String) throws {
        self.path = path
        guard let h = FileHandle(forReadingAtPath: path) else { throw InputError("cannot read this partial-result file", at: path) }
        handle = h
        let head = try bytes(8)
        guard head == Array(magic.utf8) else {
            throw InputError("is not a bt partial-result file of this kind (expected \(magic))", at: path)
        }
    }

    deinit { try? handle.close() }

    private func fill(_ needed: Int) throws {
        while buffer.count - position < needed && !exhausted {
            if position > 0 {
                buffer.removeFirst(position)
                position = 0
            }
            let chunk = try handle.read(upToCount: max(1 << 20, needed)) ?? Data()
            if chunk.isEmpty { exhausted = true } else { buffer.append(contentsOf: chunk) }
        }
        guard buffer.count - position >= needed else { throw InputError("ends early: the partial result is incomplete", at: path) }
    }

    private func bytes(_ n: Int) throws -> [UInt8] {
        try fill(n)
        defer { position += n }
        return Array(buffer[position..<(position + n)])
    }

    /// True when nothing is left to read.
    var atEnd: Bool {
        get throws {
            if buffer.count > position { return false }
            try? fill(1)
            return buffer.count <= position
        }
    }

    func u8() throws -> UInt8 {
        try fill(1)
        defer { position += 1 }
        return buffer[position]
    }

    private func word() throws -> UInt64 {
        try fill(8)
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(buffer[position + k]) << (8 * k) }
        position += 8
        return v
    }

    func int() throws -> Int { Int(Int64(bitPattern: try word())) }

    func double() throws -> Double { Double(bitPattern: try word()) }

    /// A count of at most `limit` (a guard against damaged files asking for huge allocations).
    func count(limit: Int) throws -> Int {
        let n = try int()
        guard n >= 0, n <= limit else { throw InputError("holds an impossible count (\(n))", at: path) }
        return n
    }

    func doubles(limit: Int = 1 << 24) throws -> [Double] {
        let n = try count(limit: limit)
        var out = [Double]()
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try double()) }
        return out
    }

    func string() throws -> String {
        let n = try count(limit: 1 << 24)
        return String(decoding: try bytes(n), as: UTF8.self)
    }

    func optionalString() throws -> String? {
        try u8() == 0 ? nil : try string()
    }

    /// Refuses the file unless `ok`: a value out of its range (`what`, as "a bars count of -1").
    func require(_ ok: Bool, _ what: @autoclosure () -> String) throws {
        if !ok { throw InputError("holds \(what()): not what a shard writes (edited or damaged?); rerun the shard", at: path) }
    }

    /// A whole number in `range`.
    func int(in range: ClosedRange<Int>, _ what: String) throws -> Int {
        let v = try int()
        try require(range.contains(v), "\(what) of \(v)")
        return v
    }

    /// A double that is NaN (undefined) or finite, within ±`largest`.
    func double(_ what: String, largest: Double = .greatestFiniteMagnitude) throws -> Double {
        let v = try double()
        try require(v.isNaN || abs(v) <= largest, "\(what) of \(v)")
        return v
    }

    /// `count` doubles, each NaN or finite within ±`largest`.
    func doubles(_ what: String, limit: Int = 1 << 24, largest: Double = .greatestFiniteMagnitude) throws -> [Double] {
        let values = try doubles(limit: limit)
        if let bad = values.first(where: { !($0.isNaN || abs($0) <= largest) }) { try require(false, "\(what) of \(bad)") }
        return values
    }

    /// The statistic `stat` as a run computes it: NaN (undefined) or a value in its unit's range.
    func statistic(_ stat: Stat, _ v: Double) throws {
        try require(Self.isPlausible(v, stat.unit), "a statistic \(stat.name) of \(v)")
    }

    /// NaN, or within the range of `unit`: a time a whole second within the supported dates,
    /// counts and durations non-negative up to 2^53, periods per year positive and finite; returns,
    /// ratios and money as a run computes them (a CAGR of a short run may overflow to infinity).
    static func isPlausible(_ v: Double, _ unit: Stat.Unit) -> Bool {
        if v.isNaN { return true }
        switch unit {
        case .time: return v == v.rounded() && Double(UTCTime.supportedRange.lowerBound) <= v
            && v <= Double(UTCTime.supportedRange.upperBound)
        case .bars, .count, .days: return v >= 0 && v <= 9_007_199_254_740_992
        case .perYear: return v > 0 && v.isFinite
        case .fraction, .ratio, .cash, .bps: return true
        }
    }
}

/// SHA-256 of the file at `path`, read in 1 MiB pieces; nil when it cannot be read.
func fileSHA256(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    var hash = SHA256()
    while true {
        let chunk: Data?
        do { chunk = try handle.read(upToCount: 1 << 20) } catch { return nil }
        guard let chunk, !chunk.isEmpty else { break }  // nil or empty at the end
        hash.update(chunk)
    }
    return hash.hexDigest()
}
