import Backtest

/// The options of shards, merges and clusters (`bt screen|sweep --shard`, `bt slurm`), declared
/// once as the rest are in `Options.swift`.
extension Option {
    static let shard = Option("shard", kind: .value, valueName: "K/N|auto",
                              help: "Run part K of N (from 0) and write it to --out DIR/shard-K-of-N; auto: from "
                                  + "SLURM_ARRAY_TASK_ID/COUNT, or JOB_COMPLETION_INDEX with --shards")
    static let shards = Option("shards", kind: .value, valueName: "N",
                               help: "With --shard auto: the number of shards (Kubernetes; reruns of one Slurm task)")
    static let tasks = Option("tasks", kind: .value, valueName: "N", help: "Array tasks, one shard each")
    static let partition = Option("partition", kind: .value, valueName: "P", help: "Slurm partition (default: the cluster's)")
    static let time = Option("time", kind: .value, valueName: "HH:MM:SS", help: "Time limit of each task and of the merge")
    static let cpusPerTask = Option("cpus-per-task", kind: .value, valueName: "C", help: "CPUs of each task and of the merge")
    static let dryRun = Option("dry-run", kind: .flag, help: "Print the job scripts and sbatch commands; submit nothing")
}
