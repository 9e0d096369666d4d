import BacktestCore
import Foundation

extension SlurmJob {
    /// Runs Slurm's `sbatch ARGS` (found on PATH) and returns the job id it prints with
    /// `--parsable` (`12`, or `12;cluster`): what `submit(sbatch:)` runs on a cluster.
    public static func sbatch(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["sbatch"] + arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        do { try p.run() } catch {
            throw InputError("cannot run sbatch (\(error.localizedDescription)); bt slurm submits with Slurm's sbatch "
                             + "(or prints the scripts without submitting them)")
        }
        let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            let reason = e.trimmingCharacters(in: .whitespacesAndNewlines)
            if p.terminationStatus == 127 { throw InputError("sbatch was not found on PATH; bt slurm submits with Slurm's sbatch (or prints the scripts without submitting them)") }
            throw InputError("sbatch failed (exit \(p.terminationStatus)): \(reason.isEmpty ? o : reason)")
        }
        let id = o.split(separator: "\n").last.map { String($0.split(separator: ";")[0]) }?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else { throw InputError("sbatch printed no job id (\(o))") }
        return id
    }
}
