import Foundation
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Paths and scratch files for tests.
enum TestSupport {
    static func fixture(_ name: String) -> String {
        Repository.path("Tests/BacktestTests/Fixtures/import/\(name)")
    }

    static func repoFile(_ path: String) -> String { Repository.path(path) }

    /// A fresh empty directory under the system's temporary directory.
    static func scratchDirectory() -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bt-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes `text` to `name` in a fresh scratch directory and returns its path.
    static func write(_ text: String, named name: String, in dir: URL? = nil) -> String {
        let dir = dir ?? scratchDirectory()
        let url = dir.appendingPathComponent(name)
        try! Data(text.utf8).write(to: url)
        return url.path
    }

    /// The bytes of the store file and its WAL (when present), for unchanged-store checks.
    static func storeBytes(_ path: String) -> [Data] {
        [path, path + "-wal"].map { FileManager.default.contents(atPath: $0) ?? Data() }
    }

    /// Imports `paths` the way `bt data import` does: read everything, then write.
    @discardableResult
    static func importFiles(_ paths: [String], into store: CandleStore, options: ImportOptions = ImportOptions()) throws -> [ImportReport] {
        try store.write(Importer.read(paths: paths, options: options))
    }
}
