import Foundation

/// The repository's files, found from this source file's location, for every test target.
package enum Repository {
    /// The repository root (`Tests/TestSupport/Repository.swift` is three levels below it).
    package static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `relative` under the root, as a URL.
    package static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// `relative` under the root, as a path.
    package static func path(_ relative: String) -> String { url(relative).path }

    /// The bytes of a committed file; a missing file is an error naming it, never an empty result.
    package static func data(_ relative: String) throws -> Data {
        let url = url(relative)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw MissingFixture(path: url.path) }
        return data
    }

    /// The text of a committed UTF-8 file; a missing file is an error naming it.
    package static func text(_ relative: String) throws -> String {
        String(decoding: try data(relative), as: UTF8.self)
    }
}

/// A committed fixture or golden file that is not where the tests expect it.
package struct MissingFixture: Error, CustomStringConvertible {
    package var path: String
    package init(path: String) { self.path = path }
    package var description: String { "missing fixture file \(path): goldens and fixtures are committed; restore it" }
}
