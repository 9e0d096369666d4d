import BacktestAnalysis
import BacktestCore
import BacktestData
import Foundation

/// A screen or sweep run as a Slurm job array, one shard per task, and a merge job that depends
/// on the array: the two sbatch scripts, the folders they write into, and their submission. The
/// command lines the jobs run are given by bt (only it knows their words).
public struct SlurmJob: Sendable {
    /// `screen` or `sweep`.
    public var name: String
    public var tasks: Int
    /// Where the merged report goes, and the folder of the shards' partial results (`OUT.parts`).
    public var out: String, parts: String
    /// The bt binary the nodes run, by absolute path, and the folder the jobs run in.
    public var executable: String, directory: String
    /// Task K's command line after the binary (it picks its shard from Slurm's array index).
    public var shardArguments: [String]
    /// The merge job's command line after the binary.
    public var mergeArguments: [String]
    public var partition: String?, time: String?, cpusPerTask: Int?
    /// Replace an existing report and the partial results of an earlier submission.
    public var force: Bool

    public init(name: String, tasks: Int, out: String, parts: String, executable: String, directory: String,
                shardArguments: [String], mergeArguments: [String], partition: String?, time: String?, cpusPerTask: Int?,
                force: Bool) {
        self.name = name; self.tasks = tasks; self.out = out; self.parts = parts; self.executable = executable
        self.directory = directory; self.shardArguments = shardArguments; self.mergeArguments = mergeArguments
        self.partition = partition; self.time = time; self.cpusPerTask = cpusPerTask; self.force = force
    }

    /// Slurm's time-limit forms: `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S`.
    public static func isTimeLimit(_ text: String) -> Bool {
        let dayParts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard dayParts.count <= 2, dayParts.allSatisfy({ !$0.isEmpty }) else { return false }
        let clock = dayParts.last!.split(separator: ":", omittingEmptySubsequences: false)
        let fields = (dayParts.count == 2 ? [dayParts[0]] : []) + clock
        return clock.count <= 3 && fields.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// Whether `text` is a partition list Slurm takes: letters, digits, `-`, `_`, `.` and `,`.
    public static func isPartition(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.,".contains($0)) }
    }

    var logs: String { ((directory as NSString).appendingPathComponent(parts) as NSString).appendingPathComponent("logs") }
    public var arrayPath: String { (parts as NSString).appendingPathComponent("array.sbatch") }
    public var mergePath: String { (parts as NSString).appendingPathComponent("merge.sbatch") }

    /// `#SBATCH` lines both jobs share.
    private var sharedDirectives: [String] {
        var lines = ["--chdir=\(directory)", "--export=ALL"]
        if let partition { lines.append("--partition=\(partition)") }
        if let time { lines.append("--time=\(time)") }
        if let cpusPerTask { lines.append("--cpus-per-task=\(cpusPerTask)") }
        return lines
    }

    public var arrayScript: String {
        Self.script(
            comment: "bt slurm \(name): task K of this array runs shard K of \(tasks) and writes \(parts)/shard-K-of-\(tasks).\n"
                + "Rerun one task with: sbatch --array=K \(parts)/array.sbatch",
            directives: ["--job-name=bt-\(name)", "--array=0-\(tasks - 1)", "--output=\(logs)/task-%A_%a.out"] + sharedDirectives,
            command: [executable] + shardArguments)
    }

    public var mergeScript: String {
        Self.script(
            comment: "bt slurm \(name): merges the shards in \(parts) into \(out) once every array task succeeded.",
            directives: ["--job-name=bt-merge", "--output=\(logs)/merge-%j.out"] + sharedDirectives,
            command: [executable] + mergeArguments)
    }

    /// The scripts and the sbatch commands, as `--dry-run` prints them.
    public var dryRun: String {
        "# \(arrayPath)\n\(arrayScript)\n# \(mergePath)\n\(mergeScript)\n"
            + "# submitted with:\nsbatch --parsable \(arrayPath)\n"
            + "sbatch --parsable --dependency=afterok:ARRAY_JOB_ID \(mergePath)\n"
    }

    static func script(comment: String, directives: [String], command: [String]) -> String {
        "#!/bin/sh\n" + comment.split(separator: "\n").map { "# \($0)\n" }.joined()
            + directives.map { "#SBATCH \($0)\n" }.joined()
            + "exec " + command.map(Self.quoted).joined(separator: " ") + "\n"
    }

    /// A word for `/bin/sh`, in single quotes.
    static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Writes both scripts, submits the array, then the merge after it, each with `sbatch`
    /// (which runs Slurm's sbatch with the arguments and returns the job id); the two job ids.
    /// - Throws: `InputError` when the folders are not ready (see `prepareFolders`), what
    ///   `sbatch` throws, `InternalError` when the array was submitted but the merge was not.
    public func submit(sbatch: ([String]) throws -> String) throws -> (array: String, merge: String) {
        try prepareFolders()
        try OutputDirectory.write(arrayScript, to: "array.sbatch", in: parts)
        try OutputDirectory.write(mergeScript, to: "merge.sbatch", in: parts)
        let arrayJob = try sbatch(["--parsable", arrayPath])
        do {
            return (arrayJob, try sbatch(["--parsable", "--dependency=afterok:\(arrayJob)", mergePath]))
        } catch {
            throw InternalError("the array job \(arrayJob) was submitted, but the merge job was not (\(error)); submit it with "
                                + "'sbatch --dependency=afterok:\(arrayJob) \(mergePath)' or cancel the array with 'scancel \(arrayJob)'")
        }
    }

    /// Checks `out` and the partial-results folder before anything is submitted: an existing
    /// report needs `force`, and so do partial results of an earlier submission, which `force`
    /// removes (only `shard-K-of-N` folders bt wrote).
    private func prepareFolders() throws {
        try OutputDirectory.check(out, force: force, what: "output directory")
        let fm = FileManager.default
        let old = ((try? fm.contentsOfDirectory(atPath: parts)) ?? []).filter {
            Shard(folderName: $0) != nil
                && fm.fileExists(atPath: ((parts as NSString).appendingPathComponent($0) as NSString).appendingPathComponent(PartialManifest.fileName))
        }
        if !old.isEmpty {
            guard force else {
                throw InputError(.outputExists, "holds partial results of an earlier run (\(old.sorted().joined(separator: ", "))); "
                                 + "nothing was submitted", file: parts)
            }
            for name in old { try fm.removeItem(atPath: (parts as NSString).appendingPathComponent(name)) }
        }
        do {
            try fm.createDirectory(atPath: logs, withIntermediateDirectories: true)
        } catch {
            throw InputError("cannot create the log folder (\(error.localizedDescription))", at: logs)
        }
    }
}
