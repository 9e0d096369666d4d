@testable import BacktestData
import TestSupport

extension TestSupport {
    /// Imports `paths` the way `bt data import` does: read everything, then write.
    @discardableResult
    static func importFiles(_ paths: [String], into store: CandleStore, options: ImportOptions = ImportOptions()) throws -> [ImportReport] {
        try store.write(Importer.read(paths: paths, options: options))
    }
}
