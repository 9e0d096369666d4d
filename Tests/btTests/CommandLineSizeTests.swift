import Foundation
import Testing
import TestSupport

/// The command-line target stays what CONTRIBUTING says it is: argument parsing, commands and
/// output, with the work in the library. Its size keeps that honest.
@Suite("Sources/bt stays small")
struct CommandLineSizeTests {
    /// 3,200 until `bt replay` (a new command) and the sweep's search, objective and screen
    /// Monte Carlo options came in: declarations and wiring, their work in the library.
    static let totalLimit = 3_300
    static let fileLimit = 200

    /// Every Swift file under Sources/bt with its number of lines.
    static func files() throws -> [(path: String, lines: Int)] {
        let root = Repository.root.appendingPathComponent("Sources/bt")
        let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var out: [(String, Int)] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            // Lines as `wc -l` counts them.
            out.append((url.path.replacingOccurrences(of: root.path + "/", with: ""), text.utf8.lazy.filter { $0 == 10 }.count))
        }
        return out
    }

    @Test("Sources/bt is at most 3,300 lines, and no file in it is over 200")
    func sizes() throws {
        let files = try Self.files()
        #expect(files.count > 40, "Sources/bt was not found or read")
        let total = files.map(\.lines).reduce(0, +)
        #expect(total <= Self.totalLimit, "Sources/bt has \(total) lines (at most \(Self.totalLimit)): move work into the library")
        for file in files where file.lines > Self.fileLimit {
            Issue.record("Sources/bt/\(file.path) has \(file.lines) lines (at most \(Self.fileLimit))")
        }
    }
}
