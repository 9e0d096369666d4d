import Foundation
import Testing
import TestSupport

/// What the library shows a package outside bt: `public` only in the files of its API (below);
/// everything else the library's targets share with Strategies, bt and the tests is `package`.
/// `scripts/check-public-api.sh` checks the other side: that Strategies and
/// `examples/swift/tour.swift` compile against the public declarations alone.
@Suite("Public API")
struct PublicAPITests {
    /// Folders (ending in `/`) and files under `Sources/Backtest/` whose declarations may be
    /// public: candles, indicators, expressions and strategies, the engine and its cost model, the
    /// order book and portfolios; statistics, costs, sweeps, screens, overfitting and shards; the
    /// store, importers, charts, reports, jobs and partial results; the errors, times and JSON they
    /// use.
    static let api = [
        "Core/Candles/", "Core/Indicators/", "Core/Engine/", "Core/CostModel/", "Core/Execution/", "Core/Strategy/", "Core/Expressions/", "Core/Portfolio/",
        "Core/Book/", "Core/Support/BTError.swift", "Core/Support/Setting.swift", "Core/Support/UTCTime.swift",
        "Core/Support/Version.swift", "Core/Support/JSONValue.swift", "Core/Support/JSONValue+Writing.swift",
        "Core/Support/Suggest.swift",
        "Analysis/Stats/", "Analysis/Costs/", "Analysis/Sweep/", "Analysis/Screen/", "Analysis/Portfolio/",
        "Analysis/Overfitting/", "Analysis/Shards/",
        "IO/Data/Files/", "IO/Data/Store/", "IO/Data/Import/",
        "IO/Presentation/Reports/", "IO/Presentation/Charts/", "IO/Presentation/HTML/ChartIndicator.swift",
        "IO/Jobs/Jobs/", "IO/Jobs/Partials/",
    ]
    /// Files inside those folders that serve bt alone.
    static let notAPI: Set<String> = ["IO/Presentation/Reports/CalibrationText.swift"]

    static func isAPI(_ path: String) -> Bool {
        !notAPI.contains(path) && api.contains { $0.hasSuffix("/") ? path.hasPrefix($0) : path == $0 }
    }

    /// Whether `line` declares something `public` (after attributes and modifiers).
    static func declaresPublic(_ line: Substring) -> Bool {
        for word in line.split(separator: " ") {
            if word == "public" { return true }
            if word.hasPrefix("@") || ["final", "static", "nonisolated", "nonisolated(unsafe)", "override"].contains(word) { continue }
            return false
        }
        return false
    }

    @Test("declarations outside the API's files are package, not public")
    func packageOutsideTheAPI() throws {
        var offenders: [String] = []
        for folder in ["Core", "Analysis", "IO", "Benchmarks"] {
            let files = try FileManager.default.subpathsOfDirectory(atPath: Repository.path("Sources/Backtest/\(folder)"))
                .filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
            #expect(!files.isEmpty)
            for file in files where !Self.isAPI(file) {
                let text = try Repository.text("Sources/Backtest/\(file)")
                for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                    where Self.declaresPublic(line) {
                    offenders.append("Sources/Backtest/\(file):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        let list = offenders.prefix(20).joined(separator: "\n")
        #expect(offenders.isEmpty, "public outside the API (make them package, or add the file to PublicAPITests.api):\n\(list)")
    }

    @Test("the API's entries exist, and the scan sees a public declaration")
    func entriesExist() throws {
        for entry in Self.api + Self.notAPI {
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: Repository.path("Sources/Backtest/\(entry)"), isDirectory: &isDirectory),
                    "\(entry) does not exist")
            #expect(isDirectory.boolValue == entry.hasSuffix("/"), "\(entry): a folder ends in /, a file does not")
        }
        #expect(Self.declaresPublic("    @inlinable public func uniform() -> Double {"))
        #expect(Self.declaresPublic("public struct Stats: Sendable {"))
        #expect(!Self.declaresPublic("    package static func run() {"))
        #expect(!Self.declaresPublic("    /// public API"))
    }
}
