import Foundation
import FuzzSupport
import Testing

/// The fuzz targets inside the test suite: every seed, every committed input that once failed
/// (`Tests/Fixtures/fuzz/<target>/`), and a fixed number of seeded mutations of the seeds. A
/// failed check stops the test process with the target's message, as libFuzzer would report
/// it. `BT_FUZZ_MUTATIONS` raises the number of mutations (scripts/fuzz.sh does so when the
/// toolchain has no libFuzzer).
@Suite("Fuzz targets: seeds, regressions and seeded mutations")
struct FuzzRegressionTests {
    static let mutations = ProcessInfo.processInfo.environment["BT_FUZZ_MUTATIONS"].flatMap(Int.init) ?? 4000

    @Test("every target survives its seeds, its regression inputs and seeded mutations",
          arguments: FuzzTargets.all.map(\.name))
    func target(name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let seeds = try target.seedInputs()
        #expect(!seeds.isEmpty)
        func run(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { target.run($0) } }
        for seed in seeds { run(seed) }
        for input in try target.regressionInputs() { run(input.bytes) }
        var mutator = Mutator(seed: 0xB7F0_0000 &+ UInt64(name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        // Mutations stack: each input is a mutation of a seed or of an earlier mutation.
        var pool = seeds.map { Array($0.prefix(1024)) }
        for k in 0..<Self.mutations {
            let input = mutator.mutate(pool[k % pool.count])
            run(input)
            if pool.count < 64 { pool.append(input) } else { pool[k % 64] = input }
        }
    }

    @Test("every target's seeds exist, seeds.txt names exactly the targets, each has its regression folder")
    func manifest() throws {
        for target in FuzzTargets.all {
            for path in try target.seeds {
                #expect(FileManager.default.fileExists(atPath: FuzzTargets.root.appendingPathComponent(path).path), "\(path)")
            }
        }
        let manifest = try String(contentsOf: FuzzTargets.root.appendingPathComponent("Fuzz/seeds.txt"), encoding: .utf8)
        let names = Set(manifest.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(names == Set(FuzzTargets.all.map(\.name)))
        for target in FuzzTargets.all { #expect(throws: Never.self) { _ = try target.regressionInputs() } }
        let missing = FuzzTarget(name: "no-such-target") { _ in }
        #expect(throws: FuzzSetupError.self) { _ = try missing.regressionInputs() }
        // One libFuzzer program serves every target: no per-target copies to keep in step.
        let programs = try FileManager.default.contentsOfDirectory(atPath: FuzzTargets.root.appendingPathComponent("Fuzz/Sources").path)
        #expect(Set(programs) == ["CFuzzer", "fuzz"])
    }
}
