import BacktestAnalysis
import BacktestCore
import Foundation

/// A whole input file in memory, as UTF-8 bytes without a leading byte-order mark.
///
/// The bytes live in one allocation owned by this object so importers can scan them through an
/// `UnsafeBufferPointer` without copying.
final class InputText {
    /// The file as the user named it, for error messages.
    let file: String
    private let storage: UnsafeMutableBufferPointer<UInt8>
    /// The content after any UTF-8 BOM.
    let bytes: UnsafeBufferPointer<UInt8>

    /// Reads `path` completely (`-`: standard input), decompressing gzip (recognised by its
    /// magic bytes).
    /// - Throws: `InputError` when the file cannot be read or is not valid gzip.
    convenience init(path: String) throws {
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            try self.init(file: Self.standardInput, compressed: [UInt8](data))
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError("no such file", at: path)
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw InputError("cannot read file", at: path)
        }
        try self.init(file: path, compressed: [UInt8](data))
    }

    /// The name standard input goes by in messages.
    static let standardInput = "(standard input)"

    /// `data`, decompressed first when it is gzip.
    convenience init(file: String, compressed data: [UInt8]) throws {
        self.init(file: file, data: Gzip.isCompressed(data) ? try Gzip.decompressed(data, file: file) : data)
    }

    init(file: String, data: [UInt8]) {
        self.file = file
        storage = .allocate(capacity: max(data.count, 1))
        _ = storage.initialize(from: data)
        var start = 0
        if data.count >= 3, data[0] == 0xEF, data[1] == 0xBB, data[2] == 0xBF { start = 3 }
        bytes = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(storage)[start..<data.count])
    }

    deinit { storage.deallocate() }

    func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[range]) }

    /// Calls `body` with each line's byte range (without `\n` or a trailing `\r`) and its 1-based
    /// number, skipping blank lines; stops early when `body` returns false.
    func forEachLine(_ body: (Range<Int>, Int) throws -> Bool) rethrows {
        for (range, line) in lines {
            if try !body(range, line) { return }
        }
    }

    /// The non-blank lines as (byte range without `\n` or a trailing `\r`, 1-based number), for
    /// loops whose body keeps state in local variables (no closure to capture them).
    var lines: Lines { Lines(bytes: bytes) }

    struct Lines: Sequence, IteratorProtocol {
        let bytes: UnsafeBufferPointer<UInt8>
        var start = 0
        var line = 1

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func next() -> (range: Range<Int>, line: Int)? {
            let b = bytes
            while start < b.count {
                var end = start
                while end < b.count, b[end] != 10 { end += 1 }
                var stop = end
                if stop > start, b[stop - 1] == 13 { stop -= 1 }
                var k = start
                while k < stop, b[k] == 32 || b[k] == 9 { k += 1 }
                let range = start..<stop, number = line
                start = end + 1
                line += 1
                if k < stop { return (range, number) }
            }
            return nil
        }
    }

    /// The first non-blank line.
    func firstLine() -> (range: Range<Int>, line: Int)? {
        var found: (Range<Int>, Int)?
        forEachLine { range, line in found = (range, line); return false }
        return found
    }
}
