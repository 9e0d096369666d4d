import BacktestAnalysis
import BacktestCore
import Foundation

/// Whether the write-ahead log beside a store (`PATH-wal`) is the store's own, read from the raw
/// files before SQLite opens either.
///
/// SQLite merges whatever log lies beside a database into it when it opens the database, another
/// database's log too: nothing of a log's header (magic, format, page size, checkpoint sequence,
/// salts, checksums) names the database it was written for, and the database header records no
/// salt. A bt store names itself: its schema holds a view, `store_identity`, whose text carries
/// 128 random bits chosen when the store was made (or first written by a bt that makes one),
/// and every bt write transaction writes page 1 (`PRAGMA user_version`), the page that holds the
/// schema. So each transaction in a bt store's log carries an image of page 1 naming the store.
///
/// The check reads page 1 of the file and then the log's frames (both through SQLite's file
/// layer, `SQLiteRawFile`, never a descriptor of bt's) as SQLite's recovery counts
/// them: from a header whose magic, version, page size and checksum are right, each frame whose
/// salts equal the header's and whose checksum continues the chain, up to the last commit
/// frame. The log belongs to the store when the first page-1 image in those frames that names
/// a store names this one (a log is written for one database, so the rest say the same), or
/// when no page 1 is there at all; pages 1 that name no store (another program's, or a
/// store's before it was named) are not its own. A store that names no
/// identity (made before it, or by a bt before versions) cannot be told from another and is
/// opened as before; a log SQLite would ignore (a bad header, no frame) is harmless.
enum StoreLog {
    /// The marker before the 32 hex digits of a store's identity in its schema's text.
    static let marker = Array("bt-store-".utf8)

    /// The view that names a store; `CREATE VIEW IF NOT EXISTS`, so it is made once.
    static func identityView() -> String {
        let random = (0..<2).map { _ in
            let s = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }.joined()
        return "CREATE VIEW IF NOT EXISTS store_identity AS SELECT 'bt-store-\(random)' AS id"
    }

    /// Refuses a store whose log is another database's, before anything reads or writes it.
    /// - Throws: `StoreError` (`.failed`: the store is not damaged, and is left so) naming both
    ///   files and what to do.
    static func check(store path: String) throws {
        let log = path + "-wal"
        // Most opens find no log (a store is one file once its last connection closes).
        guard let logSize = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? NSNumber)?.intValue,
              logSize > 32, let file = SQLiteRawFile(path: path, kind: .database) else { return }
        let head = file.read(count: 100, at: 0)
        guard head.count == 100 else { return }
        let size = Int(head[16]) << 8 | Int(head[17])
        let pageSize = size == 1 ? 65_536 : size
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else { return }
        let page1 = file.read(count: pageSize, at: 0)
        guard let own = identity(in: page1[...]) else { return }
        guard let wal = SQLiteRawFile(path: log, kind: .log) else { return }
        guard let (logged, names) = committedPageOnes(wal).map({ ($0.pageSize, $0.names) }), !names.isEmpty else { return }
        if logged != pageSize {
            throw foreign(path, log, "its pages are of \(logged) bytes, the store's of \(pageSize)")
        }
        if names.contains(where: { $0 != nil && $0 != own }) {
            throw foreign(path, log, "it holds the pages of another bt store")
        }
        if !names.contains(own) {
            throw foreign(path, log, "it holds the pages of a database that is not a bt store")
        }
    }

    private static func foreign(_ path: String, _ log: String, _ why: String) -> StoreError {
        StoreError(.failed, path: path, reason: "the write-ahead log beside it, \(log), is not this store's (\(why)); "
                   + "SQLite would merge it into the store and damage it, so bt opened neither file and changed nothing: "
                   + "if that log was copied or left there by mistake, move \(log) and \(path)-shm away and try again")
    }

    /// The identity named in a page-1 image (`bt-store-` and 32 hex digits), if any.
    static func identity(in page: ArraySlice<UInt8>) -> String? {
        let m = marker.count
        guard page.count >= m + 32 else { return nil }
        var i = page.startIndex
        let last = page.endIndex - m - 32
        while i <= last {
            if page[i] == marker[0] && page[i..<i + m].elementsEqual(marker) {
                let digits = page[(i + m)..<(i + m + 32)]
                if digits.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) {
                    return String(decoding: digits, as: UTF8.self)
                }
            }
            i += 1
        }
        return nil
    }

    /// The log's page size and the identity named by each page-1 image among its committed
    /// frames, as SQLite's recovery finds the frames; nil for a log it ignores (too short, a
    /// wrong magic, version, page size or header checksum).
    private static func committedPageOnes(_ wal: SQLiteRawFile) -> (pageSize: Int, names: [String?])? {
        let header = wal.read(count: 32, at: 0)
        guard header.count == 32 else { return nil }
        func word(_ b: [UInt8], _ at: Int) -> UInt32 { b[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        let magic = word(header, 0)
        guard magic & 0xFFFF_FFFE == 0x377F_0682, word(header, 4) == 3_007_000 else { return nil }
        let bigEndian = magic & 1 == 1
        let pageSize = Int(word(header, 8))
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { return nil }
        var sum = (UInt32(0), UInt32(0))
        checksum(header[0..<24], &sum, bigEndian: bigEndian)
        guard sum == (word(header, 24), word(header, 28)) else { return nil }
        let salts = (word(header, 16), word(header, 20))
        var committed: [String?] = []
        var pending: [String?] = []
        var offset: Int64 = 32
        while true {
            let frame = wal.read(count: 24 + pageSize, at: offset)
            offset += Int64(24 + pageSize)
            guard frame.count == 24 + pageSize, (word(frame, 8), word(frame, 12)) == salts else { break }
            checksum(frame[0..<8], &sum, bigEndian: bigEndian)
            checksum(frame[24...], &sum, bigEndian: bigEndian)
            guard sum == (word(frame, 16), word(frame, 20)) else { break }
            if word(frame, 0) == 1 { pending.append(identity(in: frame[24...])) }
            if word(frame, 4) != 0 {
                committed += pending
                pending = []
                // A log is written for one database: its first page 1 that names a store decides
                // (a live writer's log may be gigabytes long).
                if committed.contains(where: { $0 != nil }) { break }
            }
        }
        return (pageSize, committed)
    }

    /// SQLite's WAL checksum of `bytes` (a multiple of 8), continuing `sum`: over 32-bit words in
    /// the log's byte order, s0 += x[i] + s1, s1 += x[i+1] + s0.
    private static func checksum(_ bytes: ArraySlice<UInt8>, _ sum: inout (UInt32, UInt32), bigEndian: Bool) {
        var (s0, s1) = sum
        bytes.withUnsafeBytes { raw in
            var i = 0
            while i + 8 <= raw.count {
                let a = raw.loadUnaligned(fromByteOffset: i, as: UInt32.self)
                let b = raw.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self)
                let x0 = bigEndian ? UInt32(bigEndian: a) : UInt32(littleEndian: a)
                let x1 = bigEndian ? UInt32(bigEndian: b) : UInt32(littleEndian: b)
                s0 = s0 &+ x0 &+ s1
                s1 = s1 &+ x1 &+ s0
                i += 8
            }
        }
        sum = (s0, s1)
    }
}
