import Foundation
import Testing
import TestSupport

/// The layers' direction, checked on the sources: `Package.swift` makes a wrong import a build
/// error, and this test fails when someone widens a target's dependencies or imports a higher
/// layer, so the arrows keep pointing one way.
@Suite("Layers point one way")
struct LayerTests {
    /// Each library layer, its folder, and the bt modules it may import (lower layers only). The IO
    /// layer is four rooms, each a target: data in and files, then presentation (which may read
    /// data), then jobs (which use both, never the reverse), then the live runtime on top.
    static let layers: [(module: String, folder: String, allowed: Set<String>)] = [
        ("BacktestCore", "Sources/Backtest/Core", []),
        ("BacktestAnalysis", "Sources/Backtest/Analysis", ["BacktestCore"]),
        ("BacktestData", "Sources/Backtest/IO/Data", ["BacktestCore", "BacktestAnalysis"]),
        ("BacktestPresentation", "Sources/Backtest/IO/Presentation", ["BacktestCore", "BacktestAnalysis", "BacktestData"]),
        ("BacktestJobs", "Sources/Backtest/IO/Jobs", ["BacktestCore", "BacktestAnalysis", "BacktestData", "BacktestPresentation"]),
        ("BacktestLive", "Sources/Backtest/IO/Live",
         ["BacktestCore", "BacktestAnalysis", "BacktestData", "BacktestPresentation", "BacktestJobs"]),
        ("Backtest", "Sources/Backtest/Exports",
         ["BacktestCore", "BacktestAnalysis", "BacktestData", "BacktestPresentation", "BacktestJobs", "BacktestLive"]),
        ("Strategies", "Sources/Strategies", ["Backtest"]),
        ("BacktestBenchmarks", "Sources/Backtest/Benchmarks", ["Backtest"]),
        ("CBridge", "Sources/CBridge", ["Backtest", "Strategies"]),
    ]
    static let btModules: Set<String> = ["BacktestCore", "BacktestAnalysis", "BacktestData", "BacktestPresentation",
                                         "BacktestJobs", "BacktestLive", "Backtest", "Strategies", "BacktestBenchmarks",
                                         "CBridge", "bt"]

    @Test("every folder of Sources/Backtest/IO is one of the layers above")
    func ioRooms() throws {
        let rooms = try FileManager.default.contentsOfDirectory(atPath: Repository.path("Sources/Backtest/IO"))
            .filter { !$0.hasPrefix(".") }.map { "Sources/Backtest/IO/\($0)" }
        #expect(Set(rooms) == Set(Self.layers.map(\.folder).filter { $0.hasPrefix("Sources/Backtest/IO/") }))
    }

    @Test("no source file imports a higher layer", arguments: layers.map(\.module))
    func imports(module: String) throws {
        let layer = Self.layers.first { $0.module == module }!
        let files = try FileManager.default.subpathsOfDirectory(atPath: Repository.path(layer.folder))
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try Repository.text("\(layer.folder)/\(file)")
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                guard let i = words.firstIndex(of: "import"), i + 1 < words.count,
                      words[..<i].allSatisfy({ $0.hasPrefix("@") }) else { continue }
                let imported = words[i + 1]
                if Self.btModules.contains(imported) {
                    #expect(layer.allowed.contains(imported), "\(layer.folder)/\(file) imports \(imported)")
                }
            }
        }
    }

    @Test("Package.swift gives each layer only the dependencies below it", arguments: layers.map(\.module))
    func manifest(module: String) throws {
        let layer = Self.layers.first { $0.module == module }!
        let manifest = try Repository.text("Package.swift")
        let declaration = try #require(manifest.range(of: "name: \"\(module)\", dependencies: ["),
                                       "target \(module) not in Package.swift")
        let rest = manifest[declaration.upperBound...]
        let list = rest[..<rest.firstIndex(of: "]")!]
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        for name in names where Self.btModules.contains(name) {
            #expect(layer.allowed.contains(name), "\(module) depends on \(name)")
        }
    }
}
