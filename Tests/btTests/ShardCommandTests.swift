import Foundation
import Testing
import TestSupport

@Suite("bt screen/sweep --shard, bt merge and bt slurm end to end")
struct ShardCommandTests {
    /// A store with GOOG and 12 synthetic symbols.
    static func store() throws -> String {
        let db = BT.scratchStore()
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        #expect(try BT.run(["data", "synth", "--symbols", "12", "--bars", "700", "--db", db]).status == 0)
        return db
    }

    static func run(_ args: [String], in dir: URL, environment: [String: String] = [:]) throws -> BT.Result {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return try BT.run(args, environment: environment, directory: dir)
    }

    /// Every file under `dir`, relative, sorted.
    static func files(_ dir: URL) -> [String] {
        let e = FileManager.default.enumerator(atPath: dir.path)
        var out: [String] = []
        while let f = e?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent(f).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                out.append(f)
            }
        }
        return out.sorted()
    }

    /// Runs `args` in one process (in `work/single`) and in `count` shards merged by `bt merge`
    /// (in `work/merged`, the shards' folders given in `order`), both with `--out result`, and
    /// checks every file is byte for byte the same, and so is what both print.
    static func expectSameAsOneProcess(_ args: [String], shards count: Int, order: [Int]? = nil,
                                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let work = BT.scratchDirectory()
        let single = try run(args + ["--out", "result"], in: work.appendingPathComponent("single"))
        #expect(single.status == 0, "\(single.stderr)", sourceLocation: sourceLocation)
        let merged = work.appendingPathComponent("merged")
        for k in 0..<count {
            let r = try run(args + ["--shard", "\(k)/\(count)", "--out", "parts"], in: merged)
            #expect(r.status == 0, "\(r.stderr)", sourceLocation: sourceLocation)
            #expect(r.stdout.contains("Shard \(k)/\(count) of the"), sourceLocation: sourceLocation)
        }
        let dirs = (order ?? Array(0..<count)).map { "parts/shard-\($0)-of-\(count)" }
        let m = try run(["merge"] + dirs + ["--out", "result"], in: merged)
        #expect(m.status == 0, "\(m.stderr)", sourceLocation: sourceLocation)
        #expect(m.stdout == single.stdout, sourceLocation: sourceLocation)
        let a = work.appendingPathComponent("single/result"), b = merged.appendingPathComponent("result")
        #expect(files(a) == files(b), sourceLocation: sourceLocation)
        #expect(!files(a).isEmpty, sourceLocation: sourceLocation)
        for f in files(a) {
            let same = FileManager.default.contentsEqual(atPath: a.appendingPathComponent(f).path, andPath: b.appendingPathComponent(f).path)
            #expect(same, "\(f) differs", sourceLocation: sourceLocation)
        }
    }

    @Test("a sweep in 3 shards merged in any order writes every file of the single-process run, byte for byte")
    func sweep() throws {
        let db = try Self.store()
        let args = ["sweep", "ma-cross", "GOOG", "--db", db, "--grid", "fast=5:30:5", "--grid", "slow=20:80:20",
                    "--walk-forward", "3", "--pbo-blocks", "8", "--depth", "none"]
        try Self.expectSameAsOneProcess(args, shards: 3, order: [2, 0, 1])
        // More shards than combinations that pass --where: empty shards merge too.
        try Self.expectSameAsOneProcess(["sweep", "ma-cross", "SYN0003", "--db", db, "--grid", "fast=10,20", "--grid", "slow=30",
                                         "--walk-forward", "2"], shards: 5)
    }

    @Test("a multi-symbol sweep with a symbol that cannot be swept merges into the same summary and folders")
    func multiSymbolSweep() throws {
        let db = try Self.store()
        try Self.expectSameAsOneProcess(["sweep", "--entry", "cross_above(sma(close, $f), sma(close, 30))",
                                         "--exit", "cross_below(sma(close, $f), sma(close, 30))",
                                         "--symbols", "SYN0001,NOPE,SYN0002", "--db", db, "--grid", "f=5:25:5", "--rank", "sortino"],
                                        shards: 2)
    }

    @Test("strategy and condition screens in 4 shards merge into the single-process files, byte for byte")
    func screens() throws {
        let db = try Self.store()
        try Self.expectSameAsOneProcess(["screen", "ma-cross", "--all", "--db", db, "--min-trades", "8", "--rank", "calmar"],
                                        shards: 4, order: [3, 1, 0, 2])
        try Self.expectSameAsOneProcess(["screen", "rsi", "--symbols", "SYN0004,GOOG,MISSING,SYN0002", "--db", db], shards: 2)
        try Self.expectSameAsOneProcess(["screen", "--all", "--where", "close > sma(close, 50)", "--show", "rsi(close, 14)",
                                         "--show", "close > open", "--db", db], shards: 3)
    }

    @Test("bt merge: missing, duplicated and mismatched shards are errors naming them (exit 2); a rerun shard replaces its folder")
    func mergeErrors() throws {
        let db = try Self.store()
        let work = BT.scratchDirectory()
        let args = ["screen", "ma-cross", "--all", "--db", db]
        for k in [0, 2] { #expect(try Self.run(args + ["--shard", "\(k)/3", "--out", "parts"], in: work).status == 0) }
        var r = try Self.run(["merge", "parts", "--out", "result"], in: work)
        #expect(r.status == 2)
        #expect(r.stderr.contains("missing shard 1 of 3 (no parts/shard-1-of-3); rerun it with: bt screen ma-cross --all --db \(db) "
                                  + "--out parts --shard 1/3"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("result").path))
        #expect(try Self.run(args + ["--min-trades", "2", "--shard", "1/3", "--out", "parts"], in: work).status == 0)
        r = try Self.run(["merge", "parts", "--out", "result"], in: work)
        #expect(r.status == 2)
        #expect(r.stderr.contains("parts/shard-1-of-3 is not part of the same run as parts/shard-0-of-3: its command line is "
                                  + "`bt screen ma-cross --all --db \(db) --min-trades 2`"), "\(r.stderr)")
        // Rerunning the shard with the right command line replaces its folder.
        try "x".write(to: work.appendingPathComponent("parts/shard-1-of-3/stray.txt"), atomically: true, encoding: .utf8)
        #expect(try Self.run(args + ["--shard", "1/3", "--out", "parts"], in: work).status == 0)
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("parts/shard-1-of-3/stray.txt").path))
        r = try Self.run(["merge", "parts", "parts/shard-2-of-3", "--out", "result"], in: work)
        #expect(r.status == 2 && r.stderr.contains("shard 2 of 3 is given twice: parts/shard-2-of-3 and parts/shard-2-of-3"))
        #expect(try Self.run(["merge", "parts", "--out", "result"], in: work).status == 0)
        // The output folder is a report folder: an existing one needs --force.
        r = try Self.run(["merge", "parts", "--out", "result"], in: work)
        #expect(r.status == 2 && r.stderr.contains("already exists"))
        #expect(try Self.run(["merge", "parts", "--out", "result", "--force"], in: work).status == 0)
        // Another bt version's shard.
        let manifest = work.appendingPathComponent("parts/shard-0-of-3/partial.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "\"bt_version\": \"", with: "\"bt_version\": \"9.").write(to: manifest, atomically: true, encoding: .utf8)
        r = try Self.run(["merge", "parts", "--out", "other"], in: work)
        #expect(r.status == 2 && r.stderr.contains("parts/shard-0-of-3 was written by bt 9."), "\(r.stderr)")
        r = try Self.run(["merge", "--out", "other"], in: work)
        #expect(r.status == 2 && r.stderr.contains("missing DIR"))
        r = try Self.run(["merge", "nothing-here", "--out", "other"], in: work)
        #expect(r.status == 2 && r.stderr.contains("nothing-here: is not a folder of partial results"))
    }

    @Test("shards and merges leave the store's file as it was (they open it read-only)")
    func storeUntouched() throws {
        let db = try Self.store()
        // A rollback-journal store: a writable opening switches it to WAL (bt's stores are WAL),
        // which changes the file's header, so any write-capable opening shows below.
        try RawDatabase.execute("PRAGMA journal_mode=DELETE", at: db)
        let work = BT.scratchDirectory()
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let sweep = ["sweep", "ma-cross", "GOOG", "--db", db, "--grid", "fast=5,10", "--grid", "slow=30,40", "--walk-forward", "2"]
        let screen = ["screen", "ma-cross", "--all", "--db", db]
        for k in 0..<2 {
            #expect(try Self.run(sweep + ["--shard", "\(k)/2", "--out", "sw"], in: work).status == 0)
            #expect(try Self.run(screen + ["--shard", "\(k)/2", "--out", "sc"], in: work).status == 0)
        }
        #expect(try Self.run(["merge", "sw", "--out", "a"], in: work).status == 0)
        #expect(try Self.run(["merge", "sc", "--out", "b"], in: work).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: db + "-wal"))) ?? Data()
        #expect(wal.isEmpty, "a reader wrote \(wal.count) bytes of log")
    }

    @Test("a store on read-only media whose write-ahead log holds writes is refused, not read stale")
    func staleLogRefused() throws {
        let work = BT.scratchDirectory()
        #expect(try Self.run(["data", "synth", "--symbols", "2", "--bars", "300", "--db", "src.sqlite"], in: work).status == 0)
        let ro = work.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: ro, withIntermediateDirectories: true)
        // Copies of the file and of its log taken while a writer still holds writes in the log.
        try RawDatabase.whileOpen("PRAGMA wal_autocheckpoint=0; CREATE TABLE scratch(x); INSERT INTO scratch VALUES (1);",
                                  at: work.appendingPathComponent("src.sqlite").path) {
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(at: work.appendingPathComponent("src.sqlite" + suffix),
                                                 to: ro.appendingPathComponent("s.sqlite" + suffix))
            }
        }
        let db = ro.appendingPathComponent("s.sqlite").path
        let wal = try #require(try FileManager.default.attributesOfItem(atPath: db + "-wal")[.size] as? Int)
        #expect(wal > 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: ro.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: ro.path) }
        // Root ignores permissions: run bt as nobody so the directory really is read-only to it.
        var prefix: [String] = []
        if getuid() == 0 {
            let setpriv = "/usr/bin/setpriv"
            try #require(FileManager.default.isExecutableFile(atPath: setpriv), "util-linux setpriv is needed to drop root")
            prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", BT.binary.path]
        }
        let out = work.appendingPathComponent("out")  // writable by nobody: only the store is read-only
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: out.path)
        let args = ["screen", "ma-cross", "--all", "--db", db, "--shard", "0/2", "--out", out.appendingPathComponent("parts").path]
        let r = prefix.isEmpty ? try BT.run(args) : try BT.runExecutable(prefix[0], Array(prefix.dropFirst()) + args)
        #expect(r.status != 0 && r.stderr.contains("write-ahead log"), "\(r.status) \(r.stderr)")
    }

    @Test("one-character paths for the store, the shards' folder and the outputs")
    func oneCharacterPaths() throws {
        let work = BT.scratchDirectory()
        #expect(try Self.run(["data", "synth", "--symbols", "3", "--bars", "300", "--db", "s"], in: work).status == 0)
        let sweep = ["sweep", "ma-cross", "SYN0001", "--db", "s", "--grid", "fast=5,10", "--grid", "slow=30"]
        #expect(try Self.run(sweep + ["--out", "x"], in: work).status == 0)
        for k in 0..<2 { #expect(try Self.run(sweep + ["--shard", "\(k)/2", "--out", "p"], in: work).status == 0) }
        let m = try Self.run(["merge", "p", "--out", "y"], in: work)
        #expect(m.status == 0, "\(m.stderr)")
        #expect(try Self.run(["screen", "ma-cross", "--all", "--db", "s", "--out", "z"], in: work).status == 0)
        for name in ["s", "x/sweep.csv", "y/sweep.csv", "z/screen.csv"] {
            #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(name).path), "\(name)")
        }
    }

    @Test("bt merge refuses shards whose store changed since they ran")
    func storeChanged() throws {
        let db = try Self.store()
        let work = BT.scratchDirectory()
        let sweep = ["sweep", "ma-cross", "SYN0001", "--db", db, "--grid", "fast=5,10", "--grid", "slow=30"]
        for k in 0..<2 { #expect(try Self.run(sweep + ["--shard", "\(k)/2", "--out", "sw"], in: work).status == 0) }
        let screen = ["screen", "ma-cross", "--all", "--db", db]
        for k in 0..<2 { #expect(try Self.run(screen + ["--shard", "\(k)/2", "--out", "sc"], in: work).status == 0) }
        let csv = BT.scratchDirectory().appendingPathComponent("x.csv")
        try "time,open,high,low,close,volume\n2030-01-01,1,2,0.5,1.5,10\n".write(to: csv, atomically: true, encoding: .utf8)
        #expect(try BT.run(["data", "import", csv.path, "--symbol", "SYN0001", "--db", db]).status == 0)
        var r = try Self.run(["merge", "sw", "--out", "a"], in: work)
        #expect(r.status == 2 && r.stderr.contains("the store changed since the shards ran: SYN0001's candles"), "\(r.stderr)")
        r = try Self.run(["merge", "sc", "--out", "b"], in: work)
        #expect(r.status == 2 && r.stderr.contains("the store changed since the shards ran"), "\(r.stderr)")
    }

    @Test("--shard needs --out; --shard auto reads Slurm's or Kubernetes' environment or says what is missing")
    func shardOptions() throws {
        let db = try Self.store()
        let work = BT.scratchDirectory()
        let screen = ["screen", "ma-cross", "--symbols", "SYN0001,SYN0002,GOOG", "--db", db]
        var r = try Self.run(screen + ["--shard", "0/2"], in: work)
        #expect(r.status == 2 && r.stderr.contains("--shard writes its part into --out DIR"))
        r = try Self.run(screen + ["--shard", "2/2", "--out", "p"], in: work)
        #expect(r.status == 2 && r.stderr.contains("--shard '2/2': the shard index must be from 0 to 1"), "\(r.stderr)")
        r = try Self.run(screen + ["--shard", "auto", "--out", "p"], in: work)
        #expect(r.status == 2 && r.stderr.contains("neither SLURM_ARRAY_TASK_ID"), "\(r.stderr)")
        r = try Self.run(screen + ["--shard", "auto", "--out", "p"], in: work,
                         environment: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_MIN": "1",
                                       "SLURM_ARRAY_TASK_MAX": "2"])
        #expect(r.status == 2 && r.stderr.contains("--array=0-1"), "\(r.stderr)")
        r = try Self.run(screen + ["--shard", "auto", "--out", "p"], in: work,
                         environment: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_MIN": "0",
                                       "SLURM_ARRAY_TASK_MAX": "1"])
        #expect(r.status == 0 && r.stdout.contains("Shard 1/2 of the screen"), "\(r.stderr)")
        r = try Self.run(screen + ["--shard", "auto", "--shards", "2", "--out", "p"], in: work, environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(r.status == 0 && r.stdout.contains("Shard 0/2 of the screen"), "\(r.stderr)")
        #expect(try Self.run(["merge", "p", "--out", "result"], in: work).status == 0)
        r = try Self.run(screen + ["--shards", "2", "--out", "p"], in: work)
        #expect(r.status == 2 && r.stderr.contains("--shards goes with --shard auto"))
        r = try Self.run(screen + ["--shard", "0/2", "--shards", "2", "--out", "p"], in: work)
        #expect(r.status == 2 && r.stderr.contains("--shards goes with --shard auto"))
        // Portfolio sweeps run whole: refused as shards and by bt slurm, before anything runs.
        let portfolio = ["ma-cross", "--portfolio", "--symbols", "SYN0001,SYN0002", "--db", db, "--grid", "fast=5,10"]
        for args in [["sweep"] + portfolio + ["--shard", "0/2", "--out", "pp"],
                     ["slurm", "sweep"] + portfolio + ["--tasks", "2", "--out", "pp", "--dry-run"]] {
            r = try Self.run(args, in: work)
            #expect(r.status == 2 && r.stderr.contains("--portfolio sweeps run in one process"), "\(args): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("pp").path))
    }

    @Test("bt slurm --dry-run prints an array of --tasks tasks running --shard auto and an afterok merge")
    func slurmDryRun() throws {
        let db = try Self.store()
        let work = BT.scratchDirectory()
        let r = try Self.run(["slurm", "sweep", "ma-cross", "GOOG", "--db", db, "--grid", "fast=5:20:5", "--tasks", "3",
                              "--out", "res", "--partition", "short", "--time", "01:30:00", "--cpus-per-task", "2", "--dry-run"],
                             in: work)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        let dir = work.resolvingSymlinksInPath().path
        for line in ["#SBATCH --array=0-2", "#SBATCH --job-name=bt-sweep", "#SBATCH --partition=short", "#SBATCH --time=01:30:00",
                     "#SBATCH --cpus-per-task=2", "#SBATCH --chdir=", "res.parts/logs/task-%A_%a.out",
                     "'sweep' 'ma-cross' 'GOOG' '--db' '\(db)' '--grid' 'fast=5:20:5' '--shard' 'auto' '--shards' '3' '--out' 'res.parts'",
                     "'merge' 'res.parts' '--out' 'res'", "#SBATCH --job-name=bt-merge",
                     "sbatch --parsable --dependency=afterok:ARRAY_JOB_ID res.parts/merge.sbatch"] {
            #expect(r.stdout.contains(line), "no \(line) in\n\(r.stdout)")
        }
        _ = dir
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("res.parts").path), "a dry run writes nothing")
        // The command line is checked before anything is written or submitted.
        var bad = try Self.run(["slurm", "sweep", "ma-cros", "GOOG", "--db", db, "--grid", "fast=5", "--tasks", "2", "--out", "r"], in: work)
        #expect(bad.status == 2 && bad.stderr.contains("did you mean 'ma-cross'"))
        bad = try Self.run(["slurm", "screen", "ma-cross", "--all", "--db", db, "--out", "r"], in: work)
        #expect(bad.status == 2 && bad.stderr.contains("--tasks N is required"))
        bad = try Self.run(["slurm", "screen", "ma-cross", "--all", "--db", db, "--tasks", "2", "--out", "r", "--time", "1h"], in: work)
        #expect(bad.status == 2 && bad.stderr.contains("--time '1h'"))
        bad = try Self.run(["slurm", "screen", "ma-cross", "--all", "--db", db, "--tasks", "2", "--out", "r", "--shard", "0/2"], in: work)
        #expect(bad.status == 2 && bad.stderr.contains("unknown option '--shard'"))
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("r.parts").path))
    }

    @Test("bt slurm submits the array, then the merge with --dependency=afterok on it, and prints both ids")
    func slurmSubmit() throws {
        let db = try Self.store()
        let work = BT.scratchDirectory()
        // A stand-in sbatch that records its arguments and answers as a multi-cluster sbatch does.
        let bin = work.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let log = work.appendingPathComponent("sbatch.log").path
        let fake = bin.appendingPathComponent("sbatch")
        try """
            #!/bin/sh
            echo "$@" >> '\(log)'
            n=$(wc -l < '\(log)')
            echo "$((40 + n));cluster1"
            """.write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let env = ["PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        let args = ["slurm", "screen", "ma-cross", "--all", "--db", db, "--tasks", "4", "--out", "out/screen"]
        let r = try Self.run(args, in: work, environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Submitted array job 41: 4 tasks of bt screen over 13 symbols"), "\(r.stdout)")
        #expect(r.stdout.contains("Submitted merge job 42, after the array succeeds: bt merge out/screen.parts --out out/screen"))
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(calls == ["--parsable out/screen.parts/array.sbatch",
                          "--parsable --dependency=afterok:41 out/screen.parts/merge.sbatch"])
        let script = try String(contentsOf: work.appendingPathComponent("out/screen.parts/array.sbatch"), encoding: .utf8)
        #expect(script.contains("#SBATCH --array=0-3"))
        #expect(script.contains("'screen' 'ma-cross' '--all' '--db' '\(db)' '--shard' 'auto' '--shards' '4' '--out' 'out/screen.parts'"))
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("out/screen.parts/logs").path))
        // Partial results of an earlier submission are not mixed with a new one.
        #expect(try Self.run(["screen", "ma-cross", "--all", "--db", db, "--shard", "0/4", "--out", "out/screen.parts"], in: work).status == 0)
        var again = try Self.run(args, in: work, environment: env)
        #expect(again.status == 2 && again.stderr.contains("holds partial results of an earlier run (shard-0-of-4)"), "\(again.stderr)")
        again = try Self.run(args + ["--force"], in: work, environment: env)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("out/screen.parts/shard-0-of-4").path))
        let merge = try String(contentsOf: work.appendingPathComponent("out/screen.parts/merge.sbatch"), encoding: .utf8)
        #expect(merge.contains("'merge' 'out/screen.parts' '--out' 'out/screen' '--force'"))
        // sbatch failing is an error with its message.
        try "#!/bin/sh\necho 'sbatch: error: invalid partition specified: nope' >&2\nexit 1\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        again = try Self.run(args + ["--force"], in: work, environment: env)
        #expect(again.status == 2 && again.stderr.contains("sbatch failed (exit 1): sbatch: error: invalid partition"), "\(again.stderr)")
    }
}
