import Backtest
import BacktestBenchmarks
import CCallgrind
import Foundation
import Strategies

extension Command {
    static let benchKernel = Command(
        path: ["bench", "kernel"],
        help: EmbeddedAssets.benchKernelTXT,
        positionals: [PositionalSpec(name: "WORKLOAD", help: "A name from --list", optional: true)],
        options: [.list.withHelp("Print the workload names and exit")]
    ) { args in
        let workloads = PerfWorkload.all(maCross: .maCross, reword: ErrorMessage.reworded)
        if args.flag(.list) {
            for workload in workloads { Output.line(workload.name) }
            return
        }
        let name = try args.required(0)
        guard let workload = workloads.first(where: { $0.name == name }) else {
            let hint = Suggest.closest(to: name, among: workloads.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown workload '\(name)'\(hint); 'bt bench kernel --list' names them", command: "bench kernel")
        }
        guard bt_callgrind_compiled() == 1 else {
            throw InternalError("bt was built without valgrind's headers (valgrind/callgrind.h): install valgrind, touch Sources/CCallgrind/callgrind.c and rebuild")
        }
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("bt-bench-kernel-\(getpid())")
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let measured = try workload.prepare(directory)
        try measured()
        bt_callgrind_start()
        try measured()
        bt_callgrind_stop()
    }
}
