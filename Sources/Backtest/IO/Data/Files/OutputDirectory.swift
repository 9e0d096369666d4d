import BacktestAnalysis
import BacktestCore
import Foundation

/// Report directories: created on demand, never silently overwritten, never left half-written.
///
/// Outputs are written into a hidden staging folder beside the target (`StagedDirectory`) and
/// renamed into place when complete, so a failure (a full disk, a crash, an error) leaves no
/// partial report behind, and a rerun is not refused because of one. `force` replaces an
/// existing directory, but only one that holds nothing but bt's own output files: bt never
/// deletes other files.
public enum OutputDirectory {
    /// Every file name bt writes into an output directory (reports, sweeps, screens, sweep
    /// summaries); a directory holding only these (and folders of them) may be replaced.
    public static let knownFiles: Set<String> = Set(Report.files).union(PortfolioReport.files).union([
        "sweep.csv", "sweep.md", "heatmap.svg", "walk_forward.csv", "walk_forward_equity.svg",
        "screen.csv", "screen.md", "summary.md", "summary.csv",
    ])

    /// Throws unless `path` can take output: it does not exist, or it is a directory of bt
    /// output and `force` is true. Call it before a long run so a refusal costs nothing.
    /// - Parameter what: the noun in the message ("report directory", "output directory").
    /// - Throws: `InputError` naming the directory: of kind `.outputExists` when it exists and
    ///   `force` is false; of setting `.output` for an empty path, a file, or a directory holding
    ///   files bt did not write.
    public static func check(_ path: String, force: Bool, what: String = "output directory") throws {
        guard !path.isEmpty else { throw InputError("the \(what) path is empty", setting: .output, value: path) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw InputError("exists and is not a directory", at: path) }
        guard force else {
            throw InputError(.outputExists, "\(what) already exists; nothing was written", file: path)
        }
        if let foreign = foreignEntry(in: path, depth: 0) {
            throw InputError("\(what) holds \(Excerpt.quoted(foreign)), which bt did not write; bt replaces only folders "
                                 + "of its own output, so nothing was written", at: path)
        }
    }

    /// The first entry of `directory` that is neither a known output file nor a folder of them.
    static func foreignEntry(in directory: String, depth: Int) -> String? {
        guard let items = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return directory }
        for item in items.sorted() {
            let full = (directory as NSString).appendingPathComponent(item)
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                if depth >= 2 { return full }
                if let inner = foreignEntry(in: full, depth: depth + 1) { return inner }
            } else if !knownFiles.contains(item) {
                return full
            }
        }
        return nil
    }

    /// Checks `path` as `check` does, then starts writing it: the returned staging folder takes
    /// the files, and `commit()` puts it in place.
    public static func stage(_ path: String, force: Bool, what: String = "output directory") throws -> StagedDirectory {
        try check(path, force: force, what: what)
        return try StagedDirectory(target: path, force: force, what: what)
    }

    /// Checks `path` as `check` does, then creates it (and its parents), for outputs written in
    /// place (temporary benchmark folders, folders inside a staging folder).
    /// - Throws: `InputError` when it is refused or cannot be created.
    public static func prepare(_ path: String, force: Bool, what: String = "output directory") throws {
        try check(path, force: force, what: what)
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
    struct WriteFailure: Error, CustomStringConvertible {
        var path: String
        var verb: String
        var reason: String

        init(path: String, verb: String) {
            reason = String(cString: strerror(errno))
            self.path = StagingArea.shown(path)
            self.verb = verb
        }

        var description: String { "\(path): cannot \(verb) (\(reason))" }
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
        let (fd, temporary) = try exclusiveTemporary(beside: path)
        do {
            defer { close(fd) }
            try append(bytes, to: fd, path: path)
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

/// An output directory being written: files go into `path`, a hidden folder beside `target`;
/// `commit()` renames it to `target` (replacing an existing target, which `check` allowed).
/// Until then nothing is visible at `target`; when the object goes away uncommitted, the
/// staging folder and any parent folders made for it are removed.
public final class StagedDirectory {
    /// Where the output will be.
    public let target: String
    /// Where to write it now.
    public let path: String
    private let force: Bool
    private let what: String
    private var createdParents: [String] = []
    private var finished = false
    /// The writer's lock on `path` (`StagingArea.hold`), -1 without one.
    private var lock: Int32 = -1

    init(target: String, force: Bool, what: String) throws {
        self.target = target
        self.force = force
        self.what = what
        let parent = FileName.parent(of: target)
        var missing: [String] = []
        var d = parent
        while !d.isEmpty, d != "/", !FileManager.default.fileExists(atPath: d) {
            missing.append(d)
            d = FileName.parent(of: d)
        }
        if missing.isEmpty { StagingArea.clean(beside: target, kind: "partial") }
        path = StagingArea.name(for: target, kind: "partial")
        do {
            for m in missing.reversed() {
                try FileManager.default.createDirectory(atPath: m, withIntermediateDirectories: false)
                createdParents.append(m)
            }
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        } catch {
            discard()
            throw InputError("cannot create the \(what) (\(error.localizedDescription))", at: target)
        }
        lock = StagingArea.hold(path)
        StagingArea.register(path, as: target)
    }

    deinit { if !finished { discard() } }

    /// Writes `text` to `name` in the staging folder; on failure the staging folder is removed
    /// and the error names the target: nothing was written.
    public func write(_ text: String, to name: String) throws {
        do {
            try writeFile(.text(text), to: name)
        } catch {
            discard()
            throw error
        }
    }

    /// Writes `bytes` to `name` in the staging folder, leaving the folder as it is on failure
    /// (files written from several threads at once: the caller discards once all are done).
    /// - Throws: `InternalError` naming the target, as `write(_:to:)` does.
    func writeFile(_ content: ReportFiles.Content, to name: String) throws {
        let file = (path as NSString).appendingPathComponent(name)
        do {
            switch content {
            case .bytes(let bytes): try OutputDirectory.writeFile(bytes, to: file)
            case .text(let text): try OutputDirectory.writeFile(text, to: file)
            }
        } catch {
            let reason = (error as? OutputDirectory.WriteFailure)?.reason ?? "\(error)"
            throw InternalError("\(target): cannot write \(name) (\(reason)); nothing was written")
        }
    }

    /// Puts the written folder at `target`, replacing what `check` allowed to be replaced.
    /// - Throws: `InputError` when the target appeared meanwhile (without `force`) or holds
    ///   foreign files; `InternalError` when a rename fails. The staging folder is then removed.
    public func commit() throws {
        precondition(!finished, "committed or discarded twice")
        do {
            if FileManager.default.fileExists(atPath: target) {
                try OutputDirectory.check(target, force: force, what: what)
                let aside = path.replacingOccurrences(of: ".partial-", with: ".replaced-")
                guard rename(target, aside) == 0 else { throw renameError(target, aside) }
                guard rename(path, target) == 0 else {
                    let e = renameError(path, target)
                    rename(aside, target)
                    throw e
                }
                try? FileManager.default.removeItem(atPath: aside)
            } else {
                guard rename(path, target) == 0 else { throw renameError(path, target) }
            }
            finished = true
            release()
        } catch {
            discard()
            throw error
        }
    }

    /// Drops the writer's lock and the staging folder's name for messages.
    private func release() {
        StagingArea.forget(path)
        if lock >= 0 { close(lock) }
        lock = -1
    }

    /// Removes the staging folder and the parents made for it (when empty).
    public func discard() {
        finished = true
        try? FileManager.default.removeItem(atPath: path)
        release()
        for d in createdParents.reversed() {
            if let items = try? FileManager.default.contentsOfDirectory(atPath: d), items.isEmpty {
                try? FileManager.default.removeItem(atPath: d)
            }
        }
    }

    private func renameError(_ from: String, _ to: String) -> Error {
        InternalError("\(target): cannot move the finished \(what) into place (\(String(cString: strerror(errno))))")
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
