import Backtest
import Foundation

extension Command {
    static let slurmScreen = Command(
        path: ["slurm", "screen"],
        help: SlurmSubmission.help("screen"),
        positionals: Command.screen.positionals,
        options: Command.screen.options.filter { !ShardOptions.all.contains($0) } + SlurmSubmission.options
    ) { args in
        try SlurmSubmission(args, command: .screen).submit()
    }

    static let slurmSweep = Command(
        path: ["slurm", "sweep"],
        help: SlurmSubmission.help("sweep"),
        positionals: Command.sweep.positionals,
        options: Command.sweep.options.filter { !ShardOptions.all.contains($0) } + SlurmSubmission.options
    ) { args in
        try SlurmSubmission(args, command: .sweep).submit()
    }
}

/// `bt slurm screen|sweep ARGS... --tasks N --out DIR`: checks the command line as `bt screen` or
/// `bt sweep` would, writes an sbatch array script (task K runs `--shard auto --shards N`, so
/// task K is shard K, and `sbatch --array=K` reruns one) and a merge script, and submits the
/// merge with `--dependency=afterok` on the array.
struct SlurmSubmission {
    static let options: [Option] = [
        .tasks.withHelp("Array tasks, one shard each (required)"),
        .partition, .time, .cpusPerTask, .dryRun,
    ]

    /// The help of `bt slurm COMMAND` (`Help/slurm.txt`, `{command}` standing for the command).
    static func help(_ command: String) -> String {
        EmbeddedAssets.slurmTXT.replacingOccurrences(of: "{command}", with: command)
    }

    let args: ParsedArguments
    let command: Command
    let tasks: Int
    let out: String
    let parts: String

    init(_ args: ParsedArguments, command: Command) throws {
        self.args = args
        self.command = command
        guard let tasks = try args.int(.tasks) else { throw UsageError("\(Option.tasks) N is required", command: args.command.name) }
        guard tasks >= 1, tasks <= Shard.maximumCount else {
            throw UsageError("\(Option.tasks) must be from 1 to \(Shard.maximumCount)", command: args.command.name)
        }
        guard let out = args.value(.out) else {
            throw UsageError("\(Option.out) DIR is required: the merged report goes there, the shards beside it in DIR.parts",
                             command: args.command.name)
        }
        self.tasks = tasks
        self.out = out
        parts = (out.hasSuffix("/") ? String(out.dropLast()) : out) + ".parts"
        if let p = args.value(.partition), !SlurmJob.isPartition(p) {
            throw UsageError("\(Option.partition) '\(p)': letters, digits, '-', '_', '.' and ',' only", command: args.command.name)
        }
        if let t = args.value(.time), !SlurmJob.isTimeLimit(t) {
            throw UsageError("\(Option.time) '\(t)': give HH:MM:SS (or Slurm's MM, MM:SS, D-HH, D-HH:MM, D-HH:MM:SS)",
                             command: args.command.name)
        }
        if let c = try args.int(.cpusPerTask), c < 1 {
            throw UsageError("\(Option.cpusPerTask) must be at least 1", command: args.command.name)
        }
    }

    /// What the command would do, checked as the command checks it (symbols, strategy, grid,
    /// options, the store), described for the summary line.
    func check() throws -> String {
        if command.path == Command.sweep.path {
            let (plan, symbols) = try SweepCommand.plan(args)
            let store = try args.openStore()
            if symbols.count == 1 {
                _ = try plan.prepare(symbol: symbols[0], store: store, args: args)
            } else {
                _ = (try args.timeframe, try args.dateRange, try args.double(.periodsPerYear))
                let first = (try? args.loadCandles(symbol: symbols[0], store: store)) ?? CandleSeries(symbol: symbols[0])
                _ = try args.executionConfig(symbol: symbols[0], candles: first, store: store, strategy: plan.strategy,
                                             parameters: plan.base)
            }
            _ = args.flag(.force)
            return "\(Format.grouped(plan.combos.count)) combinations" + (symbols.count > 1 ? " of \(symbols.count) symbols" : "")
        }
        let store = try args.openStore()
        let symbols = try args.screenSymbols(store: store)
        _ = args.flag(.force)
        if let condition = args.value(.where) {
            _ = try args.conditionScreen(condition, parameters: try args.values(.param).map(ExpressionAssignment.parse))
            _ = (args.value(.at), args.flag(.json), try args.timeframe, try args.dateRange)
        } else {
            _ = try StrategyScreenCommand.plan(args, symbols: symbols, store: store)
            _ = (try args.timeframe, try args.dateRange)
        }
        return "\(Format.grouped(symbols.count)) symbols"
    }

    /// The words of the shards' command line: the command, then the arguments as typed without
    /// this command's own options and `--out`.
    var shardArguments: [String] {
        let own = Set(Self.options.map(\.name) + ["out"])
        let valued = Set(Self.options.filter { $0.kind != .flag }.map(\.name) + ["out"])
        let typed = Array(args.commandLine.dropFirst(3))  // bt slurm screen|sweep
        var words = [command.path[0]] + CommandWords.removing(own, valued: valued, from: typed)
        let insert = words.firstIndex(of: "--") ?? words.endIndex
        words.insert(contentsOf: ["--shard", "auto", "--shards", String(tasks), "--out", parts], at: insert)
        return words
    }

    /// The running bt, by absolute path (the nodes run the same binary from a shared path).
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }

    func submit() throws {
        let what = try check()
        let name = command.path[0]
        let job = SlurmJob(name: name, tasks: tasks, out: out, parts: parts, executable: Self.executable,
                           directory: FileManager.default.currentDirectoryPath, shardArguments: shardArguments,
                           mergeArguments: ["merge", parts, "--out", out] + (args.flag(.force) ? ["--force"] : []),
                           partition: args.value(.partition), time: args.value(.time), cpusPerTask: try? args.int(.cpusPerTask),
                           force: args.flag(.force))
        if args.flag(.dryRun) {
            Output.write(job.dryRun)
            return
        }
        let (arrayJob, mergeJob) = try job.submit(sbatch: SlurmJob.sbatch)
        Output.line("Submitted array job \(arrayJob): \(tasks) tasks of bt \(name) over \(what), one shard each, into \(parts)")
        Output.line("Submitted merge job \(mergeJob), after the array succeeds: bt merge \(parts) --out \(out)")
        Output.line("Logs in \(parts)/logs; rerun a failed task with: sbatch --array=K \(job.arrayPath)")
    }
}
