import Backtest
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How the whole `bt run ma-cross --out` grows with the series, for `bt bench scale`: each size
/// is a separate child process (this same executable), so its peak memory is its own (the
/// kernel's maximum resident set of that child, `wait4`) and its time is the whole command's,
/// start-up, store read, statistics, cost table, terminal output and every report file included.
package enum ScaleBenchmark {
    /// The sizes run for a base of `bars`: 1x, 3x and 10x (1M, 3M, 10M by default).
    package static let multiples = [1, 3, 10]

    package struct Point: Sendable {
        package var bars: Int
        /// Wall time of the child, from spawn to exit.
        package var seconds: Double
        /// The child's peak resident memory in bytes.
        package var peakBytes: Int
        /// Bytes of the report folder it wrote.
        package var reportBytes: Int
    }

    package struct Result: Sendable {
        package var points: [Point]
        /// The 1-minute load average when the runs ended (other work on the machine slows them).
        package var loadAverage: Double
    }

    /// Writes each size's synthetic 1m candles (seed 1, symbol BENCH) to a store in `directory`,
    /// runs `bt run ma-cross BENCH --out` on it in a child process of `executable`, and removes
    /// the store and the report after. A child that fails is an error quoting its stderr's end.
    package static func run(bars: Int, executable: String = Self.currentExecutable,
                            directory: String = NSTemporaryDirectory()) throws -> Result {
        precondition(bars > 1, "bars > 1")
        var points: [Point] = []
        for m in multiples {
            let n = bars * m
            let work = (directory as NSString).appendingPathComponent("bt-bench-scale-\(getpid())-\(n)")
            defer { try? FileManager.default.removeItem(atPath: work) }
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            let db = (work as NSString).appendingPathComponent("bench.sqlite"), out = (work as NSString).appendingPathComponent("report")
            do {
                let store = try CandleStore(path: db)
                try store.write([.generated(Synth.series(symbol: "BENCH", bars: n, seed: 1, timeframe: .minute1), source: "bench")])
                try store.checkpoint()
            }
            let child = try ChildRun.run(executable, ["run", "ma-cross", "BENCH", "--db", db, "--out", out, "--width", "100", "--height", "24"],
                                         stderr: (work as NSString).appendingPathComponent("stderr.txt"))
            points.append(Point(bars: n, seconds: child.seconds, peakBytes: child.peakBytes, reportBytes: try folderBytes(out)))
        }
        var load = [Double](repeating: .nan, count: 1)
        _ = getloadavg(&load, 1)
        return Result(points: points, loadAverage: load[0])
    }

    /// The running executable (Linux: `/proc/self/exe`), else argv[0].
    package static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    private static func folderBytes(_ path: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: path).reduce(0) { sum, name in
            let attributes = try FileManager.default.attributesOfItem(atPath: (path as NSString).appendingPathComponent(name))
            return sum + ((attributes[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}

extension ScaleBenchmark.Result {
    package var json: JSONValue {
        ["load_average": .number(loadAverage),
         "sizes": .array(points.map { ["bars": .int($0.bars), "seconds": .number($0.seconds), "peak_bytes": .int($0.peakBytes),
                                       "report_bytes": .int($0.reportBytes)] })]
    }

    /// One line per size with its time and peak memory as multiples of the smallest size's.
    package var text: String {
        guard let first = points.first else { return "" }
        var s = "bt run ma-cross --out on synthetic 1m bars, whole command in a child process (load average \(String(format: "%.2f", loadAverage))):\n"
            + "        bars   seconds   peak MB  report MB   time x  memory x  (x: of \(first.bars) bars; linear growth is the bars' ratio)\n"
        for p in points {
            s += String(format: "  %10d  %8.2f  %8.0f  %9.0f  %7.2f  %8.2f\n", p.bars, p.seconds, Double(p.peakBytes) / 1e6,
                        Double(p.reportBytes) / 1e6, p.seconds / first.seconds, Double(p.peakBytes) / Double(first.peakBytes))
        }
        return s
    }
}

/// A child process run to its end, with its wall time and peak resident memory.
enum ChildRun {
    struct Outcome {
        var seconds: Double
        var peakBytes: Int
    }

    /// Runs `executable` with `arguments`, stdout to /dev/null and stderr to the file `stderr`;
    /// throws when it cannot start or exits other than 0.
    static func run(_ executable: String, _ arguments: [String], stderr: String) throws -> Outcome {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw InternalError("bench scale: cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw InternalError("bench scale: waiting for \(executable): \(String(cString: strerror(errno)))") }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // WIFEXITED and WEXITSTATUS are macros: exited normally when the low 7 bits are 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            let tail = ((try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "").suffix(600)
            throw InternalError("bench scale: \(arguments.prefix(3).joined(separator: " ")) failed (wait status \(status)): \(tail)")
        }
        return Outcome(seconds: seconds, peakBytes: usage.ru_maxrss * 1024)  // ru_maxrss is in KiB on Linux
        #else
        throw InternalError("bench scale needs Linux (posix_spawn and wait4)")
        #endif
    }
}
