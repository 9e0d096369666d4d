import BacktestCore
import Foundation

/// A folder being written: files go into `path`, a hidden folder beside `target`
/// (`StagingArea`: `.NAME.partial-...`, holding its writer's lock); `commit()` renames it to
/// `target`, replacing what is there as `replacing` allows. Until then nothing is visible at
/// `target`; when the object goes away uncommitted, the staging folder and any parent folders
/// made for it are removed. An output directory (`OutputDirectory.stage`) and a shard's
/// partial result (`PartialWriter`) are both written this way.
public final class StagedDirectory {
    /// What `commit` may replace at the target.
    package enum Replacing {
        /// A folder of bt's output, as `OutputDirectory.check` allows with these arguments
        /// (checked again at the commit: the target may have appeared meanwhile).
        case output(force: Bool, knownFiles: Set<String>)
        /// Whatever is there: the folder an earlier run of the same writer left (a shard's
        /// `shard-K-of-N`, which a rerun of that shard replaces).
        case earlierRun
    }

    /// Where the output will be.
    public let target: String
    /// Where to write it now.
    public let path: String
    private let what: String
    private let replacing: Replacing
    private var createdParents: [String] = []
    private var finished = false
    /// The writer's lock on `path` (`StagingArea.hold`), -1 without one.
    private var lock: Int32 = -1

    /// Creates the staging folder beside `target` (and the missing folders above it, removed
    /// again with it), after removing the staging folders a killed writer of the same target
    /// left on this machine (`StagingArea.clean`: one on another node of a shared file system
    /// may still be writing, and is kept).
    /// - Parameter what: the noun in messages ("report directory", "partial-result folder").
    /// - Throws: `InputError` naming the target when a folder cannot be created.
    package init(target: String, what: String, replacing: Replacing) throws {
        self.target = target
        self.what = what
        self.replacing = replacing
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
            try writeFile(text, to: name)
        } catch {
            discard()
            throw error
        }
    }

    /// Writes `bytes` to `name` in the staging folder, leaving the folder as it is on failure
    /// (files written from several threads at once: the caller discards once all are done).
    /// - Throws: `InternalError` naming the target, as `write(_:to:)` does.
    package func writeFile(_ bytes: [UInt8], to name: String) throws {
        try writing(name) { try OutputDirectory.writeFile(bytes, to: $0) }
    }

    /// `writeFile` of a text, written from its own storage.
    package func writeFile(_ text: String, to name: String) throws {
        try writing(name) { try OutputDirectory.writeFile(text, to: $0) }
    }

    /// `writeFile` of a file made in pieces (`OutputDirectory.writeFile(pieces:to:)`).
    package func writeFile(pieces: (_ append: ([UInt8]) throws -> Void) throws -> Void, to name: String) throws {
        try writing(name) { try OutputDirectory.writeFile(pieces: pieces, to: $0) }
    }

    private func writing(_ name: String, _ write: (String) throws -> Void) throws {
        let file = (path as NSString).appendingPathComponent(name)
        do {
            try write(file)
        } catch {
            let reason = (error as? OutputDirectory.WriteFailure)?.reason ?? "\(error)"
            throw InternalError("\(target): cannot write \(name) (\(reason)); nothing was written")
        }
    }

    /// Puts the written folder at `target`, replacing what `replacing` allows.
    /// - Throws: `InputError` when an output directory's target appeared meanwhile (without
    ///   `force`) or holds foreign files; `InternalError` when a rename fails. The staging
    ///   folder is then removed.
    public func commit() throws { try commit(after: {}) }

    /// Runs `last` (which writes the folder's last file, such as a shard's manifest), then
    /// commits as `commit()` does; the staging folder is removed when either fails.
    package func commit(after last: () throws -> Void) throws {
        precondition(!finished, "committed or discarded twice")
        do {
            try last()
            if FileManager.default.fileExists(atPath: target) {
                if case .output(let force, let knownFiles) = replacing {
                    try OutputDirectory.check(target, force: force, what: what, knownFiles: knownFiles)
                }
                let aside = path.replacingOccurrences(of: ".partial-", with: ".replaced-")
                guard rename(target, aside) == 0 else { throw renameError() }
                guard rename(path, target) == 0 else {
                    let e = renameError()
                    rename(aside, target)
                    throw e
                }
                try? FileManager.default.removeItem(atPath: aside)
            } else {
                guard rename(path, target) == 0 else { throw renameError() }
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

    private func renameError() -> Error {
        InternalError("\(target): cannot move the finished \(what) into place (\(String(cString: strerror(errno))))")
    }
}
