import BacktestAnalysis
import BacktestCore
import Foundation

/// Report directories: created on demand, never silently overwritten, never left half-written.
///
/// Outputs are written into a hidden staging folder beside the target (`StagedDirectory`) and
/// renamed into place when complete, so a failure (a full disk, a crash, an error) leaves no
/// partial report behind, and a rerun is not refused because of one. `force` replaces an
/// existing directory, but only one that holds nothing but bt's own output files: bt never
/// deletes other files. Which names those are is the reports' knowledge: the functions here
/// take them (`knownFiles`), and `OutputDirectory+KnownFiles` (IO/Presentation/Reports) gives
/// the public `check`, `stage` and `prepare` with the names of every report.
public enum OutputDirectory {
    /// Throws unless `path` can take output: it does not exist, or it is a directory of bt
    /// output and `force` is true. Call it before a long run so a refusal costs nothing.
    /// - Parameters:
    ///   - what: the noun in the message ("report directory", "output directory").
    ///   - knownFiles: the names of bt's output files; a directory holding only these (and
    ///     folders of them) may be replaced.
    /// - Throws: `InputError` naming the directory: of kind `.outputExists` when it exists and
    ///   `force` is false; of setting `.output` for an empty path, a file, or a directory holding
    ///   files bt did not write.
    package static func check(_ path: String, force: Bool, what: String, knownFiles: Set<String>) throws {
        guard !path.isEmpty else { throw InputError("the \(what) path is empty", setting: .output, value: path) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw InputError("exists and is not a directory", at: path) }
        guard force else {
            throw InputError(.outputExists, "\(what) already exists; nothing was written", file: path)
        }
        if let foreign = foreignEntry(in: path, depth: 0, knownFiles: knownFiles) {
            throw InputError("\(what) holds \(Excerpt.quoted(foreign)), which bt did not write; bt replaces only folders "
                                 + "of its own output, so nothing was written", at: path)
        }
    }

    /// The first entry of `directory` that is neither a known output file nor a folder of them.
    static func foreignEntry(in directory: String, depth: Int, knownFiles: Set<String>) -> String? {
        guard let items = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return directory }
        for item in items.sorted() {
            let full = (directory as NSString).appendingPathComponent(item)
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                if depth >= 2 { return full }
                if let inner = foreignEntry(in: full, depth: depth + 1, knownFiles: knownFiles) { return inner }
            } else if !knownFiles.contains(item) {
                return full
            }
        }
        return nil
    }

    /// Checks `path` as `check` does, then starts writing it: the returned staging folder takes
    /// the files, and `commit()` puts it in place (checking the target again).
    package static func stage(_ path: String, force: Bool, what: String, knownFiles: Set<String>) throws -> StagedDirectory {
        try check(path, force: force, what: what, knownFiles: knownFiles)
        return try StagedDirectory(target: path, what: what, replacing: .output(force: force, knownFiles: knownFiles))
    }

    /// Checks `path` as `check` does, then creates it (and its parents), for outputs written in
    /// place (temporary benchmark folders, folders inside a staging folder).
    /// - Throws: `InputError` when it is refused or cannot be created.
    package static func prepare(_ path: String, force: Bool, what: String, knownFiles: Set<String>) throws {
        try check(path, force: force, what: what, knownFiles: knownFiles)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw InputError("cannot create the \(what) (\(error.localizedDescription))", at: path)
        }
    }

    /// Writes `text` to `name` inside `directory` as `writeFile` does; returns the path.
    /// - Throws: `WriteFailure` (exit 1) with the system's reason (`No space left on device`).
    @discardableResult
    public static func write(_ text: String, to name: String, in directory: String) throws -> String {
        let path = (directory as NSString).appendingPathComponent(name)
        try writeFile(Array(text.utf8), to: path)
        return path
    }

    /// Writes `text` to the file `path` as `writeFile` does (`calibrate --out`, `chart --html`).
    /// - Throws: `WriteFailure` (exit 1) with the system's reason.
    public static func write(_ text: String, toFile path: String) throws {
        try writeFile(Array(text.utf8), to: path)
    }

    /// A file that could not be created or written, with the system's reason (`errno`). The
    /// path is the one the user gave: a file inside a staging folder is named where it would have
    /// been (`StagingArea.shown`).
    package struct WriteFailure: Error, CustomStringConvertible {
        package var path: String
        package var verb: String
        package var reason: String

        init(path: String, verb: String) {
            reason = String(cString: strerror(errno))
            self.path = StagingArea.shown(path)
            self.verb = verb
        }

        package var description: String { "\(path): cannot \(verb) (\(reason))" }
    }

    /// Writes `bytes` to `path` atomically: into a new file of `exclusiveTemporary` beside it,
    /// renamed over `path` when complete, so a failure leaves `path` as it was, and a link
    /// planted at `path` or at any temporary name is replaced or refused, never written through.
    static func writeFile(_ bytes: [UInt8], to path: String) throws {
        try bytes.withUnsafeBytes { try writeFile(raw: $0, to: path) }
    }

    /// `writeFile` of a text's UTF-8 bytes, without copying them out of the `String`.
    static func writeFile(_ text: String, to path: String) throws {
        var text = text
        try text.withUTF8 { try writeFile(raw: UnsafeRawBufferPointer($0), to: path) }
    }

    private static func writeFile(raw bytes: UnsafeRawBufferPointer, to path: String) throws {
        try writeFile(to: path) { try append(bytes, to: $0, path: path) }
    }

    /// `writeFile` of a file made in pieces: `pieces` hands each piece to the function it is
    /// given, which appends it, so a long file is never whole in memory.
    static func writeFile(pieces: (_ append: ([UInt8]) throws -> Void) throws -> Void, to path: String) throws {
        try writeFile(to: path) { fd in try pieces { try append($0, to: fd, path: path) } }
    }

    /// `write` fills the new temporary file's descriptor; then the file is renamed into place.
    private static func writeFile(to path: String, _ write: (Int32) throws -> Void) throws {
        let (fd, temporary) = try exclusiveTemporary(beside: path)
        do {
            defer { close(fd) }
            try write(fd)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let failure = WriteFailure(path: path, verb: "move the written file into place")
            unlink(temporary)
            throw failure
        }
    }

    /// Creates `path` for writing only when nothing, not even a dangling link, is there
    /// (`O_CREAT | O_EXCL | O_NOFOLLOW`); -1 with `errno` set otherwise.
    static func openExclusive(_ path: String) -> Int32 {
        open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    }

    /// A new, empty file beside `path` (`.NAME.partial-` and 16 random hex digits), opened for
    /// writing with `O_CREAT | O_EXCL | O_NOFOLLOW`: an existing file or link of that name,
    /// planted or not, is never opened (another random name is tried).
    /// - Returns: the descriptor and the file's path.
    /// - Throws: `WriteFailure` when no file can be created there.
    static func exclusiveTemporary(beside path: String) throws -> (fd: Int32, path: String) {
        let parent = FileName.parent(of: path)
        let name = ".\((path as NSString).lastPathComponent).partial-"
        for _ in 0..<16 {
            let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let temporary = (parent.isEmpty ? "" : parent.hasSuffix("/") ? parent : parent + "/")
                + name + String(repeating: "0", count: 16 - random.count) + random
            let fd = openExclusive(temporary)
            if fd >= 0 { return (fd, temporary) }
            if errno != EEXIST { break }
        }
        throw WriteFailure(path: path, verb: "create")
    }

    /// Writes all of `bytes` to `fd`.
    static func append(_ bytes: [UInt8], to fd: Int32, path: String) throws {
        try bytes.withUnsafeBytes { try append($0, to: fd, path: path) }
    }

    private static func append(_ bytes: UnsafeRawBufferPointer, to fd: Int32, path: String) throws {
        guard FileDescriptor.write(fd, bytes) else { throw WriteFailure(path: path, verb: "write") }
    }

    /// `notebooks-out/<kind>-<names...>-<YYYYMMDDTHHMMSSZ>` with every name sanitised.
    public static func timestamped(_ names: [String], at time: Int64) -> String {
        let stamp = UTCTime.iso(time).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        return "notebooks-out/" + (names.map(FileName.sanitized) + [stamp]).joined(separator: "-")
    }
}

/// A file written row by row, so large outputs never sit in memory.
public final class StreamingFile {
    private let fd: Int32
    private var buffer: [UInt8] = []
    public let path: String

    /// Creates (truncating) `name` inside `directory`.
    public init(_ name: String, in directory: String) throws {
        path = (directory as NSString).appendingPathComponent(name)
        // A link at `path` is refused (ELOOP), never written through.
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputDirectory.WriteFailure(path: path, verb: "create") }
        buffer.reserveCapacity(1 << 16)
    }

    deinit { Glibc.close(fd) }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try OutputDirectory.append(buffer, to: fd, path: path)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered; the file is closed when the object goes away.
    public func close() throws {
        try flush()
    }
}
