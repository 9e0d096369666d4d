import BacktestAnalysis
import BacktestCore
import Foundation

/// Report directories: created on demand, never silently overwritten.
public enum OutputDirectory {
    /// Throws unless `path` can take output: it does not exist, or it is a directory and `force`
    /// is true. Call it before a long run so a refusal costs nothing.
    /// - Parameter what: the noun in the message ("report directory", "output directory").
    /// - Throws: `InputError` naming the directory, of kind `.outputExists` when it exists and
    ///   `force` is false.
    public static func check(_ path: String, force: Bool, what: String = "output directory") throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw InputError("exists and is not a directory", at: path) }
        guard force else {
            throw InputError(.outputExists, "\(what) already exists; nothing was written", file: path)
        }
    }

    /// Checks `path` as `check` does, then creates it (and its parents).
    /// - Throws: `InputError` when it is refused or cannot be created.
    public static func prepare(_ path: String, force: Bool, what: String = "output directory") throws {
        try check(path, force: force, what: what)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw InputError("cannot create the \(what) (\(error.localizedDescription))", at: path)
        }
    }

    /// Writes `text` to `name` inside `directory`; returns the path.
    @discardableResult
    public static func write(_ text: String, to name: String, in directory: String) throws -> String {
        let path = (directory as NSString).appendingPathComponent(name)
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw InternalError("\(path): cannot write (\(error.localizedDescription))")
        }
        return path
    }

    /// `notebooks-out/<kind>-<names...>-<YYYYMMDDTHHMMSSZ>` with every name sanitised.
    public static func timestamped(_ names: [String], at time: Int64) -> String {
        let stamp = UTCTime.iso(time).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        return "notebooks-out/" + (names.map(FileName.sanitized) + [stamp]).joined(separator: "-")
    }
}

/// A file written row by row, so large outputs never sit in memory.
public final class StreamingFile {
    private let handle: FileHandle
    private var buffer = ""
    public let path: String

    /// Creates (truncating) `name` inside `directory`.
    public init(_ name: String, in directory: String) throws {
        path = (directory as NSString).appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let h = FileHandle(forWritingAtPath: path) else {
            throw InternalError("\(path): cannot create")
        }
        handle = h
    }

    public func write(_ text: String) throws {
        buffer += text
        if buffer.utf8.count >= 1 << 16 { try flush() }
    }

    public func flush() throws {
        guard !buffer.isEmpty else { return }
        do { try handle.write(contentsOf: Data(buffer.utf8)) } catch {
            throw InternalError("\(path): cannot write (\(error.localizedDescription))")
        }
        buffer = ""
    }

    public func close() throws {
        try flush()
        try handle.close()
    }
}
