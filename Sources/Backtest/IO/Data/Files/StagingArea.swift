import BacktestCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hidden folders and files bt writes before moving them into place (a report's
/// `.NAME.partial-...` folder, a shard's `.shard-K-of-N.partial-...`, a new store's
/// `.NAME.new-...`): their names, the lock their writer holds, the path a message shows for a
/// file inside one, and the cleaning up of those a killed run left behind.
///
/// A name ends in `TAG-PID-RANDOM`: TAG is 12 hex digits of the SHA-256 of the running kernel's
/// boot id (the same machine since its last start), PID the writing process, RANDOM 64 random
/// bits. A folder's writer holds a shared `flock` on it until it is moved into place or removed;
/// the kernel drops the lock when the process dies, however it dies. A later bt that writes the
/// same target removes a leftover only when all of these hold: it is a folder (a file, for a
/// store) of this user, not a link; its TAG is this kernel's, so its writer ran here since the
/// last boot; no process PID is alive here; and, for a folder, an exclusive `flock` on it is
/// granted at once, so no process on this kernel holds it, whatever its PID namespace (a new
/// store takes no lock: SQLite's POSIX locks on the file would share a process's locks with it,
/// and a store removed under a live writer only makes that writer fail to move it into place).
/// Anything else is left alone and
/// noted (`notes`): a TAG of another machine on a shared file system (a shard on another node
/// may still be writing), a name of a bt before these names, a file system whose locks cannot
/// be taken, and the `.NAME.replaced-...` folder an interrupted commit left, which holds the
/// output that was at NAME before.
package enum StagingArea {
    /// This kernel's tag; nil when its boot id cannot be read (nothing is then ever removed).
    package static let tag: String? = {
        guard let id = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8),
              !id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return String(SHA256.hex(Array(id.trimmingCharacters(in: .whitespacesAndNewlines).utf8)).prefix(12))
    }()

    /// `.NAME.KIND-TAG-PID-RANDOM` for `target` (whose last component is NAME), in its folder.
    static func name(for target: String, kind: String) -> String {
        let parent = FileName.parent(of: target)
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return ((parent.isEmpty ? "." : parent) as NSString).appendingPathComponent(
            ".\((target as NSString).lastPathComponent).\(kind)-\(tag ?? "unknown")-\(getpid())-"
                + String(repeating: "0", count: 16 - random.count) + random)
    }

    /// Takes the writer's shared lock on `path`; the descriptor to close once it is moved into
    /// place or removed, or -1 when the file system takes no locks (it is then never removed by
    /// another run, since that one cannot take the lock either).
    static func hold(_ path: String) -> Int32 {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return -1 }
        if flock(fd, LOCK_SH | LOCK_NB) != 0 {
            close(fd)
            return -1
        }
        return fd
    }

    // MARK: - Paths in messages

    private static let registry = Registry()

    /// From now until `forget`, a path inside `hidden` is shown as the same path inside `target`.
    static func register(_ hidden: String, as target: String) { registry.set(hidden, target) }

    static func forget(_ hidden: String) { registry.set(hidden, nil) }

    /// `path` as a message shows it: inside a staging folder being written, the path it will have
    /// once moved into place (`out/sweep.csv`, not `./.out.partial-.../sweep.csv`).
    package static func shown(_ path: String) -> String { registry.shown(path) }

    // MARK: - Leftovers

    /// Removes the leftovers of `kind` beside `target` that a dead run of this machine left (see
    /// the type's summary), and notes the others. `store`: the leftovers are files, a new store
    /// with its `-journal`, `-wal` and `-shm`; otherwise folders.
    static func clean(beside target: String, kind: String, store: Bool = false) {
        let parent = FileName.parent(of: target).isEmpty ? "." : FileName.parent(of: target)
        let base = "." + (target as NSString).lastPathComponent + "."
        guard let items = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for item in items.sorted() where item.hasPrefix(base) {
            let rest = item.dropFirst(base.count)
            let path = (parent as NSString).appendingPathComponent(item)
            if rest.hasPrefix("replaced-") && !store {
                note("\(path) holds what was at \(target) before an interrupted bt run replaced it; "
                     + "move it back or remove it")
                continue
            }
            guard rest.hasPrefix(kind + "-") else { continue }
            if store && ["-journal", "-wal", "-shm"].contains(where: { rest.hasSuffix($0) }) { continue }
            let why = removal(of: path, owner: rest.dropFirst(kind.count + 1), folder: !store)
            guard let why else { continue }
            note("\(path) was left by a bt run that was interrupted or is still running (\(why)); "
                 + "remove it once no bt run is writing \(target)")
        }
    }

    /// Removes `path` when its owner (`TAG-PID-RANDOM`) is a dead process of this machine; else
    /// why it was kept.
    private static func removal(of path: String, owner: Substring, folder: Bool) -> String? {
        let parts = owner.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let pid = Int32(parts[1]), pid > 0, parts[2].count == 16,
              parts[2].allSatisfy(\.isHexDigit) else { return "written by a bt before these names" }
        guard let tag, parts[0] == tag else { return "written on another machine, or before this one restarted" }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_uid == geteuid(),
              (info.st_mode & S_IFMT) == (folder ? S_IFDIR : S_IFREG) else { return "not a \(folder ? "folder" : "file") of this user" }
        if isRunning(pid) { return "process \(pid) is running" }
        guard folder else {
            for suffix in ["-journal", "-wal", "-shm", ""] { unlink(path + suffix) }
            return nil
        }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }  // gone meanwhile
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            return errno == EWOULDBLOCK ? "a process holds its lock" : "its lock cannot be tested on this file system"
        }
        try? FileManager.default.removeItem(atPath: path)
        return nil
    }

    /// Whether process `pid` of this machine is alive: it exists and has not exited (a zombie
    /// waiting for its parent has, and holds no files).
    private static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno != ESRCH else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).prefix(1)
        return state != "Z" && state != "X"
    }

    private static let noted = Registry()

    private static func note(_ text: String) { noted.append(text) }

    /// What `clean` left alone and why, one sentence each, for the command line to print; each
    /// is returned once.
    package static func notes() -> [String] { noted.drain() }

    /// A dictionary and a list behind a lock (staging folders are made from parallel jobs).
    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var targets: [String: String] = [:]
        private var list: [String] = []

        func set(_ hidden: String, _ target: String?) {
            lock.lock()
            targets[hidden] = target
            lock.unlock()
        }

        func shown(_ path: String) -> String {
            lock.lock()
            defer { lock.unlock() }
            for (hidden, target) in targets {
                if path == hidden { return target }
                if path.hasPrefix(hidden + "/") { return target + path.dropFirst(hidden.count) }
            }
            return path
        }

        func append(_ text: String) {
            lock.lock()
            if !list.contains(text) { list.append(text) }
            lock.unlock()
        }

        func drain() -> [String] {
            lock.lock()
            defer { list = []; lock.unlock() }
            return list
        }
    }
}
