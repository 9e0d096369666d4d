import Foundation

/// Paths and scratch files for the library's test targets (Core, Analysis, IO).
package enum TestSupport {
    /// `Tests/Fixtures/import/<name>`: the importers' committed sample files.
    package static func fixture(_ name: String) -> String {
        Repository.path("Tests/Fixtures/import/\(name)")
    }

    package static func repoFile(_ path: String) -> String { Repository.path(path) }

    /// A fresh empty directory under the system's temporary directory.
    package static func scratchDirectory() -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bt-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes `text` to `name` in a fresh scratch directory and returns its path.
    package static func write(_ text: String, named name: String, in dir: URL? = nil) -> String {
        let dir = dir ?? scratchDirectory()
        let url = dir.appendingPathComponent(name)
        try! Data(text.utf8).write(to: url)
        return url.path
    }

    /// The bytes of the store file and its WAL (when present), for unchanged-store checks.
    package static func storeBytes(_ path: String) -> [Data] {
        [path, path + "-wal"].map { FileManager.default.contents(atPath: $0) ?? Data() }
    }
}
