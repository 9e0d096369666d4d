import Foundation
import Testing
import TestSupport

/// Runs of bt beyond `BT.run` (under limits, in the background) and the store most end-to-end
/// tests start from.
extension BT {
    /// `bt args` under a 60 s timeout and a 1.5 GB address-space limit.
    static func bounded(_ args: [String]) throws -> Result {
        try runExecutable("/usr/bin/prlimit", ["--as=1500000000", "--", "/usr/bin/timeout", "60", binary.path] + args)
    }

    /// Starts `bt args` from the repository root, its output discarded, and returns the running
    /// process (to kill it, or to race it against another).
    static func launch(_ args: [String]) throws -> Process {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        p.currentDirectoryURL = root
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// A store holding GOOG, `s.sqlite` in `dir` (a new scratch directory by default): one
    /// self-contained file, since the import checkpoints and closes it.
    static func googStore(in dir: URL = scratchDirectory()) throws -> String {
        let db = dir.appendingPathComponent("s.sqlite").path
        let r = try run(["data", "import", "data/GOOG.csv", "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db + "-wal"))
        return db
    }
}
