import Foundation
import Testing
import TestSupport

@Suite("bt bench kernel (make perf-check's workloads)")
struct BenchKernelCommandTests {
    @Test("--list names exactly the workloads Benchmarks/baseline.json counts")
    func listMatchesBaseline() throws {
        let r = try BT.run(["bench", "kernel", "--list"])
        #expect(r.status == 0, "\(r.stderr)")
        let listed = Set(r.stdout.split(separator: "\n").map(String.init))
        let baseline = try JSONSerialization.jsonObject(with: Data(Repository.text("Benchmarks/baseline.json").utf8)) as! [String: Any]
        let counted = Set((baseline["instructions"] as! [String: Int]).keys)
        #expect(listed.count == 18)
        #expect(listed == counted, "run 'make perf-baseline' after adding or renaming a workload")
    }

    @Test("a workload runs outside valgrind too, printing nothing")
    func runsOutsideValgrind() throws {
        let r = try BT.run(["bench", "kernel", "indicator_sma_20"])
        #expect(r.status == 0 && r.stdout.isEmpty, "\(r.stdout)\(r.stderr)")
    }

    @Test("an unknown workload is a usage error with a suggestion")
    func unknown() throws {
        let r = try BT.run(["bench", "kernel", "indicator_rsi_15"])
        #expect(r.status == 2 && r.stderr.contains("did you mean 'indicator_rsi_14'"), "\(r.stderr)")
    }
}
