import BacktestCore

extension Shard {
    /// The shard of a task of a Slurm job array or a pod of a Kubernetes Indexed Job, from its
    /// environment.
    ///
    /// - Slurm: shard `SLURM_ARRAY_TASK_ID` of `SLURM_ARRAY_TASK_COUNT`. The task ID is the array
    ///   index itself, so the array must be numbered `0..N-1` with step 1 (`--array=0-3`;
    ///   `SLURM_ARRAY_TASK_MIN`, `_MAX` and `_STEP` are checked when set). With `count` given, the
    ///   task ID is the shard of `count` whatever the array holds, which is how one shard is run
    ///   again (`sbatch --array=3 ...` with `--shards 4`).
    /// - Kubernetes: shard `JOB_COMPLETION_INDEX` of `count` (the Job's `completions`, which the
    ///   pod's environment does not carry).
    /// - Throws: `InputError` (setting `.shard`) saying what is missing or inconsistent.
    public static func automatic(environment: [String: String], count: Int?) throws -> Shard {
        func number(_ name: String) throws -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let v = Int(text) else { throw InputError("\(name) is '\(text)', not a whole number", setting: .shard, value: "auto") }
            return v
        }
        if let task = try number("SLURM_ARRAY_TASK_ID") {
            if let count { return try Shard(index: task, count: count) }
            guard let tasks = try number("SLURM_ARRAY_TASK_COUNT") else {
                throw InputError("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give the number of shards "
                                 + "as well", setting: .shard, value: "auto")
            }
            let min = try number("SLURM_ARRAY_TASK_MIN"), max = try number("SLURM_ARRAY_TASK_MAX")
            let step = try number("SLURM_ARRAY_TASK_STEP")
            if (min.map { $0 != 0 } ?? false) || (step.map { $0 != 1 } ?? false) || (max.map { $0 != tasks - 1 } ?? false) {
                let shown = "\(min.map(String.init) ?? "?")-\(max.map(String.init) ?? "?")" + (step.map { $0 == 1 ? "" : ":\($0)" } ?? "")
                throw InputError("the Slurm job array is --array=\(shown) with \(tasks) tasks, but shard numbers are the task "
                                 + "IDs: submit it as --array=0-\(tasks - 1), or give the number of shards as well so that "
                                 + "each task ID is a shard of that many", setting: .shard, value: "auto")
            }
            return try Shard(index: task, count: tasks)
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            guard let count else {
                throw InputError("JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job), which gives no shard count: give the "
                                 + "number of shards (the Job's completions) as well", setting: .shard, value: "auto")
            }
            return try Shard(index: index, count: count)
        }
        throw InputError("neither SLURM_ARRAY_TASK_ID (a Slurm job array task) nor JOB_COMPLETION_INDEX (a Kubernetes "
                         + "Indexed Job) is set: give the shard as K/N instead", setting: .shard, value: "auto")
    }
}
