import Foundation
import Testing
import TestSupport

/// Runs the built `bt` binary that sits next to the test bundle.
enum BT {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bt")
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
        let p = Process()
        p.executableURL = binary
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
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
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

struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
