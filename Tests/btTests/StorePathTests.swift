import Foundation
import Testing
import TestSupport

/// What `--db` may name, end to end with the real binary: a store in a read-only directory is
/// read and nothing is created beside it; another program's SQLite file is refused by every
/// command and left byte for byte; a FIFO is refused before it is opened (reading one would
/// hang); a path ending in `/` is a usage error that creates nothing.
@Suite("Store paths: read-only directories, other programs' files, FIFOs, directories", .serialized)
struct StorePathTests {
    @Test("a store in a read-only directory is readable, and nothing is created beside it")
    func readOnlyDirectory() throws {
        let dir = BT.scratchDirectory().appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let export = try BT.run(["data", "export", "GOOG", "--db", db]).stdout
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path) }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        // Root ignores permissions: run bt as nobody so the directory really is read-only to it.
        var prefix: [String] = []
        if getuid() == 0 {
            let setpriv = "/usr/bin/setpriv"
            try #require(FileManager.default.isExecutableFile(atPath: setpriv), "util-linux setpriv is needed to drop root")
            prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", BT.binary.path]
        }
        func run(_ args: [String]) throws -> BT.Result {
            prefix.isEmpty ? try BT.run(args) : try BT.runExecutable(prefix[0], Array(prefix.dropFirst()) + args)
        }
        let list = try run(["data", "list", "--db", db])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("GOOG"))
        #expect(try run(["data", "export", "GOOG", "--db", db]).stdout == export)
        let r = try run(["run", "ma-cross", "GOOG", "--db", db, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let write = try run(["data", "import", "data/EURUSD.csv", "--db", db])
        #expect(write.status == 1 && write.stderr.contains(db), "\(write.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == files)
    }

    @Test("another program's SQLite file: every command refuses it (exit 2) and leaves it byte for byte as it was")
    func foreignFile() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("app.db").path
        try RawDatabase.execute("CREATE TABLE notes(x); INSERT INTO notes VALUES ('keep me');", at: db)
        let before = try #require(FileManager.default.contents(atPath: db))
        let commands: [[String]] = [
            ["data", "list"], ["data", "list", "--json"], ["data", "import", "data/GOOG.csv"], ["data", "export", "GOOG"],
            ["data", "summary"], ["data", "remove", "GOOG"], ["data", "synth", "--symbols", "1", "--bars", "10"],
            ["run", "ma-cross", "GOOG"], ["chart", "GOOG"], ["screen", "ma-cross", "--all"],
        ]
        for args in commands {
            let r = try BT.run(args + ["--db", db])
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("not a bt store") && r.stderr.contains(db), "\(args): \(r.stderr)")
        }
        #expect(FileManager.default.contents(atPath: db) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["app.db"])
    }

    @Test("a FIFO given as --db is refused at once (exit 2), never read from")
    func fifoStore() throws {
        let dir = BT.scratchDirectory()
        let fifo = dir.appendingPathComponent("store.sqlite").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for args in [["data", "list"], ["run", "ma-cross", "GOOG"], ["data", "import", "data/GOOG.csv"]] {
            let r = try BT.runExecutable("/usr/bin/timeout", ["-s", "KILL", "20", BT.binary.path] + args + ["--db", fifo])
            #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("not a regular file"), "\(r.stderr)")
        }
    }

    @Test("--db naming a directory that does not exist yet (newdir/) is a usage error (exit 2), creating nothing")
    func directoryStorePath() throws {
        let dir = BT.scratchDirectory()
        let path = dir.appendingPathComponent("newdir").path + "/"
        let r = try BT.run(["data", "import", "data/GOOG.csv", "--db", path])
        #expect(r.status == 2, "\(r.status) \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("newdir").path))
    }
}
