import Foundation
import Testing
import TestSupport

/// Runs the built `bt` binary that sits next to the test bundle.
enum BT {
    /// The `bt` built next to the test bundle, or `BT_TEST_BINARY` (to run the end-to-end tests
    /// against another build, e.g. to see a test fail on the code before a fix).
    static let binary = ProcessInfo.processInfo.environment["BT_TEST_BINARY"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bt")
    static let root = Repository.root

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `bt args` from the repository root with `NO_COLOR` set and `BT_DB` unset.
    static func run(_ args: [String]) throws -> Result {
        try run(args, environment: [:], directory: root)
    }

    /// Runs `bt args` in `directory` with `NO_COLOR` set, `BT_DB` and `BT_STRATEGIES` unset, then
    /// `environment` applied.
    static func run(_ args: [String], environment: [String: String], directory: URL) throws -> Result {
        guard FileManager.default.fileExists(atPath: binary.path) else {
            throw CLIError("bt binary not found at \(binary.path); build with 'swift build --build-tests'")
        }
        return try runExecutable(binary.path, args, environment: environment, directory: directory)
    }

    /// Runs `script` with /bin/sh from the repository root (for `ulimit`), environment as `run`.
    static func shell(_ script: String) throws -> Result {
        try runExecutable("/bin/sh", ["-c", script])
    }

    /// `s` single-quoted for /bin/sh.
    static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs any executable as `run` runs bt (a wrapper such as setpriv, a shell).
    static func runExecutable(_ path: String, _ args: [String], environment: [String: String] = [:],
                              directory: URL = root) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        p.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env.removeValue(forKey: "BT_DB")
        env.removeValue(forKey: "BT_STRATEGIES")
        env.merge(environment) { _, new in new }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Both pipes are drained at once: a process filling one while the other is read would
        // block forever (a huge error message must fail a test, not hang it).
        let stderrData = DataBox()
        let reader = Thread { stderrData.value = err.fileHandleForReading.readDataToEndOfFile(); stderrData.done.signal() }
        reader.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        stderrData.done.wait()
        let e = stderrData.value
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// A path for a store in a fresh scratch directory (the file does not exist yet).
    static func scratchStore() -> String { scratchDirectory().appendingPathComponent("store.sqlite").path }

    static func scratchDirectory() -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bt-cli-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// Bytes read on another thread.
final class DataBox: @unchecked Sendable {
    var value = Data()
    let done = DispatchSemaphore(value: 0)
}

struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
