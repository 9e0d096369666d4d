import Foundation
import Testing
import AnalysisTestSupport
import TestSupport
@testable import BacktestCore
@testable import BacktestPresentation
@testable import BacktestJobs
@testable import BacktestAnalysis

@Suite("Shards: the split of symbols and combinations, partial results, merging in any order")
struct ShardTests {
    // MARK: - The split

    @Test("K/N parses from 0 to N-1; anything else is a shard error", arguments: [
        ("0/1", 0, 1), ("3/4", 3, 4), ("9999/10000", 9999, 10000),
    ])
    func parsing(text: String, index: Int, count: Int) throws {
        let shard = try Shard(parsing: text)
        #expect(shard.index == index && shard.count == count)
        #expect(shard.description == text)
        #expect(Shard(folderName: shard.folderName) == shard)
    }

    @Test("bad shards are refused with the setting named", arguments: ["4/4", "-1/4", "0/0", "1/10001", "1", "a/b", "1/2/3", ""])
    func badShards(text: String) {
        #expect(throws: InputError.self) { try Shard(parsing: text) }
        do { _ = try Shard(parsing: text) } catch let e as InputError { #expect(e.setting == .shard) } catch { Issue.record("\(error)") }
        #expect(Shard(folderName: "shard-\(text)") == nil)
    }

    static let symbols = (1...2000).map { String(format: "SYN%04d", $0) } + ["GOOG", "EURUSD", "BTC-USD", "ÄPFEL", ""]

    @Test("every symbol is in exactly one shard, whatever the number of shards", arguments: [1, 2, 3, 4, 7, 16, 100])
    func symbolsExactlyOnce(count: Int) throws {
        let shards = try (0..<count).map { try Shard(index: $0, count: count) }
        for symbol in Self.symbols {
            #expect(shards.filter { $0.contains(symbol: symbol) }.count == 1, "\(symbol)")
        }
    }

    @Test("a symbol's shard does not depend on the order or the other symbols of the input")
    func symbolsStable() throws {
        var rng = SplitMix64(seed: 13)
        let count = 5
        let before = Dictionary(uniqueKeysWithValues: Self.symbols.map { ($0, Shard.index(ofSymbol: $0, count: count)) })
        for _ in 0..<5 {
            let shuffled = Self.symbols.shuffled(using: &rng).prefix(1500)
            for s in shuffled { #expect(Shard.index(ofSymbol: s, count: count) == before[s]) }
        }
    }

    @Test("the split is fixed across machines and versions: known assignments")
    func goldenAssignments() throws {
        // Partial results written by one bt are merged by another: the hash is FNV-1a + SplitMix64
        // over fixed bytes, never Swift's seeded Hasher. These values must not change.
        #expect(Self.symbols.prefix(8).map { Shard.index(ofSymbol: $0, count: 4) } == Self.goldenSymbols)
        let grid = ParameterGrid(axes: [.init(name: "fast", values: [5, 10]), .init(name: "slow", values: [20, 30.5])])
        #expect((0..<4).map { grid.shardKey.shard(of: grid.values(at: $0), count: 4) } == Self.goldenCombinations)
    }

    static let goldenSymbols = [2, 1, 2, 1, 0, 0, 1, 1]
    static let goldenCombinations = [1, 0, 3, 3]

    @Test("shards are balanced: 10,000 symbols in 4 shards within 5% of a quarter each")
    func balance() {
        var counts = [0, 0, 0, 0]
        for k in 0..<10_000 { counts[Shard.index(ofSymbol: "S\(k)", count: 4)] += 1 }
        #expect(counts.allSatisfy { abs($0 - 2_500) <= 125 }, "\(counts)")
    }

    @Test("every combination is in exactly one shard; reordering --grid axes or values moves none")
    func combinations() throws {
        let a = ParameterGrid(axes: [.init(name: "fast", values: [5, 10, 15, 20, -0.0]), .init(name: "slow", values: [20, 30, 40]),
                                     .init(name: "k", values: [1.5, 2])])
        // The same combinations, axes and values in other orders (and 0 for -0).
        let b = ParameterGrid(axes: [.init(name: "k", values: [2, 1.5]), .init(name: "slow", values: [40, 20, 30]),
                                     .init(name: "fast", values: [0, 20, 15, 10, 5])])
        for count in [1, 3, 4] {
            var shardOf: [[Double]: Int] = [:]
            for i in 0..<a.count {
                let v = a.values(at: i)
                let shard = a.shardKey.shard(of: v, count: count)
                #expect((0..<count).contains(shard))
                shardOf[[v[0] == 0 ? 0 : v[0], v[1], v[2]]] = shard
            }
            #expect(shardOf.count == a.count)
            for i in 0..<b.count {
                let v = b.values(at: i)  // k, slow, fast
                #expect(b.shardKey.shard(of: v, count: count) == shardOf[[v[2], v[1], v[0]]], "\(v)")
            }
        }
    }

    @Test("--shard auto: Slurm arrays numbered 0..N-1, reruns with --shards, Kubernetes with --shards")
    func automatic() throws {
        let slurm = ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0",
                     "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_STEP": "1"]
        #expect(try Shard.automatic(environment: slurm, count: nil) == Shard(index: 2, count: 4))
        #expect(try Shard.automatic(environment: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2"], count: nil)
                == Shard(index: 1, count: 2))
        // sbatch --array=3 reruns one task: count 1, min 3; --shards 4 makes it shard 3 of 4.
        let rerun = ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "3", "SLURM_ARRAY_TASK_MAX": "3"]
        #expect(try Shard.automatic(environment: rerun, count: 4) == Shard(index: 3, count: 4))
        #expect(try Shard.automatic(environment: ["JOB_COMPLETION_INDEX": "7"], count: 8) == Shard(index: 7, count: 8))
        func message(_ env: [String: String], _ count: Int? = nil) -> String {
            do { _ = try Shard.automatic(environment: env, count: count); return "" } catch { return "\(error)" }
        }
        #expect(message(rerun).contains("--array=0-0"))
        #expect(message(["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1",
                         "SLURM_ARRAY_TASK_MAX": "4"]).contains("--array=1-4 with 4 tasks"))
        #expect(message(["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0",
                         "SLURM_ARRAY_TASK_MAX": "5", "SLURM_ARRAY_TASK_STEP": "1"]).contains("--array=0-2"))
        #expect(message(["SLURM_ARRAY_TASK_ID": "2"]).contains("SLURM_ARRAY_TASK_COUNT is not"))
        #expect(message(["JOB_COMPLETION_INDEX": "1"]).contains("Kubernetes"))
        #expect(message([:]).contains("neither SLURM_ARRAY_TASK_ID"))
        #expect(message(["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"]).contains("not a whole number"))
        #expect(message(["JOB_COMPLETION_INDEX": "8"], 8).contains("from 0 to 7"))
    }

    // MARK: - Merging sweeps

    /// A 2-parameter grid of SMA windows; fast >= slow fails, as ma-cross does.
    static let grid = ParameterGrid(axes: [.init(name: "fast", values: [3, 5, 8, 12, 20, 30]),
                                           .init(name: "slow", values: [10, 15, 25, 40, 60])])

    static func evaluator() -> SweepEvaluator {
        let grid = Self.grid
        return SweepFixtures.evaluator((0..<grid.count).map { let v = grid.values(at: $0); return (Int(v[0]), Int(v[1])) },
                                    counter: SweepFixtures.Counter(),
                                    failing: Set((0..<grid.count).filter { grid.values(at: $0)[0] >= grid.values(at: $0)[1] }))
    }

    static func sweep() -> Sweep {
        var sweep = Sweep(rankStat: .sharpe)
        sweep.chunkSize = 4
        sweep.topCount = 6
        sweep.overfittingBlocks = 8
        sweep.maxOverfittingTrials = 9  // a subsample: every 4th combination enters CSCV (7 of them run)
        return sweep
    }

    /// Writes one shard's partial result of the sweep into `parent`.
    static func writeShard(_ shard: Shard, parent: String, candles: CandleSeries, walkForward: WalkForward) throws {
        let key = grid.shardKey
        let numbers = (0..<grid.count).filter { key.shard(of: grid.values(at: $0), count: shard.count) == shard.index }
        let manifest = PartialManifest(command: "sweep", arguments: ["sweep", "x", "--shard", shard.description, "--out", parent],
                                       shard: shard, items: grid.count, itemsSHA256: "items", assigned: numbers.count,
                                       dataSHA256: "data")
        let writer = try PartialWriter(parent: parent, manifest: manifest)
        let rows = try SweepRowsWriter("sweep-0.rows", in: writer)
        try sweep().evaluate(numbers, combinations: grid.count, evaluator: evaluator(), candles: candles) { try rows.write($0) }
        try rows.close()
        let choices = walkForward.choose(numbers, combinations: grid.count, evaluator: evaluator(), candles: candles, rankStat: .sharpe)
        try WalkForwardChoicesFile.write(choices, name: "sweep-0.folds", in: writer)
        try writer.commit()
    }

    static func bits(_ values: [Double]) -> [UInt64] { values.map(\.bitPattern) }

    @Test("a sweep run in 1, 3 or 5 shards and merged in any order summarises bit for bit as one process",
          arguments: [1, 3, 5])
    func sweepMerge(count: Int) throws {
        let candles = SweepFixtures.candles(500)
        let walkForward = try WalkForward(bars: candles.count, folds: 3)
        var csv = ""
        let single = try Self.sweep().run(combinations: Self.grid.count, evaluator: Self.evaluator(), candles: candles) { rows in
            csv += SweepReport.csvRows(rows, grid: Self.grid, combos: Array(0..<Self.grid.count))
        }
        let singleChoices = walkForward.choose(combinations: Self.grid.count, evaluator: Self.evaluator(), candles: candles,
                                               rankStat: .sharpe)
        #expect(single.failed > 0 && single.overfittingTrials == 7 && single.overfitting != nil)

        let parent = TestSupport.scratchDirectory().appendingPathComponent("parts").path
        for k in (0..<count).reversed() { try Self.writeShard(Shard(index: k, count: count), parent: parent, candles: candles,
                                                              walkForward: walkForward) }
        let folders = try PartialFolder.find(in: [parent])
        #expect(folders.count == count)
        var rng = SplitMix64(seed: UInt64(count))
        for _ in 0..<3 {
            let set = try PartialSet(folders.shuffled(using: &rng), commandLine: Self.commandLine)
            #expect(set.parts.map(\.manifest.shard.index) == Array(0..<count))
            let key = Self.grid.shardKey
            let merger = try set.sweepRows(file: "sweep-0.rows", combinations: Self.grid.count, chunkSize: 5) {
                key.shard(of: Self.grid.values(at: $0), count: count)
            }
            var summarizer = Sweep.Summarizer(Self.sweep(), combinations: Self.grid.count, length: candles.count)
            var mergedCSV = ""
            while true {
                let rows = try merger.nextChunk()
                if rows.isEmpty { break }
                summarizer.add(rows)
                mergedCSV += SweepReport.csvRows(rows, grid: Self.grid, combos: Array(0..<Self.grid.count))
            }
            let merged = summarizer.finish()
            #expect(mergedCSV == csv)
            #expect(merged.evaluated == single.evaluated && merged.failed == single.failed)
            #expect(merged.best == single.best)
            #expect(Self.bits(merged.bestStats!.values) == Self.bits(single.bestStats!.values))
            #expect(Self.bits(merged.rankValues) == Self.bits(single.rankValues))
            #expect(merged.top.map(\.combo) == single.top.map(\.combo))
            #expect(merged.sharpeVariance.bitPattern == single.sharpeVariance.bitPattern)
            #expect(merged.overfittingTrials == single.overfittingTrials)
            #expect(merged.overfitting?.pbo == single.overfitting?.pbo)
            #expect(Self.bits(merged.overfitting!.logits) == Self.bits(single.overfitting!.logits))
            #expect(merged.overfittingNote == single.overfittingNote)
            let choices = try set.walkForwardChoices(file: "sweep-0.folds", steps: walkForward.steps.count, rankStat: .sharpe)
            #expect(choices == singleChoices)
        }
    }

    @Test("merged walk-forward choices: best value, ties to the lowest combination, shards without a choice ignored")
    func choiceTies() {
        let a = WalkForward.Choice(combo: 7, value: 1.5), b = WalkForward.Choice(combo: 3, value: 1.5)
        let c = WalkForward.Choice(combo: 1, value: 0.5)
        #expect(WalkForward.Choice.best(of: [a, .none, b, c], rankStat: .sharpe) == b)
        #expect(WalkForward.Choice.best(of: [c, a], rankStat: .maxDrawdown) == a)  // higher drawdown is better
        #expect(WalkForward.Choice.best(of: [c, a], rankStat: .volatilityAnn) == c)  // lower is better
        #expect(WalkForward.Choice.best(of: [.none, .none], rankStat: .sharpe) == .none)
    }

    // MARK: - Merging screens

    static func screenRows(_ symbols: [String]) -> [Screen.Row] {
        var config = ExecutionConfig()
        config.depth = .none
        let screen = Screen(rankStat: .sortino, minTrades: 8)
        return screen.evaluate(symbols: symbols) { symbol in
            if symbol.hasPrefix("BAD") { throw InputError("no candles for \(symbol)") }
            let c = Synth.series(symbol: symbol, bars: 300, seed: UInt64(symbol.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
            let every = 20 + c.count % 17
            let entries = (0..<c.count).map { $0 % every == 3 }, exits = (0..<c.count).map { $0 % every == 11 }
            let result = try Engine.run(Engine.Request(c, signals: Signals(entries: entries, exits: exits), config: config))
            return (result, Stats(result))
        }
    }

    @Test("a screen split into shards and merged in any order ranks and writes as one process", arguments: [2, 4])
    func screenMerge(count: Int) throws {
        let symbols = (1...23).map { "S\($0)" } + ["BAD1", "S2", "BAD2"]   // S2 twice: both copies in one shard
        let screen = Screen(rankStat: .sortino, minTrades: 8)
        let report = { (rows: [Screen.Row]) in
            ScreenReport(strategy: "t", parameters: [], execution: [], commandLine: ["bt"], rankStat: .sortino, minTrades: 8,
                         top: 30, rows: rows)
        }
        let single = screen.ranked(Self.screenRows(symbols))
        let parent = TestSupport.scratchDirectory().appendingPathComponent("parts").path
        for k in 0..<count {
            let shard = try Shard(index: k, count: count)
            let positions = symbols.indices.filter { shard.contains(symbol: symbols[$0]) }
            let writer = try PartialWriter(parent: parent, manifest: PartialManifest(
                command: "screen", arguments: ["screen"], shard: shard, items: symbols.count, itemsSHA256: "i",
                assigned: positions.count, dataSHA256: "d"))
            try ScreenRowsFile.write(Array(zip(positions, Self.screenRows(positions.map { symbols[$0] }))), name: "screen.rows", in: writer)
            try writer.commit()
        }
        var rng = SplitMix64(seed: 99)
        for _ in 0..<3 {
            let set = try PartialSet(try PartialFolder.find(in: [parent]).shuffled(using: &rng), commandLine: Self.commandLine)
            let rows = try set.screenRows(file: "screen.rows") { Shard.index(ofSymbol: $0, count: count) }
            #expect(rows.map(\.symbol) == symbols)
            let merged = screen.ranked(rows)
            #expect(merged.map(\.rank) == single.map(\.rank))
            #expect(report(merged).csv() == report(single).csv())
            #expect(report(merged).markdown() == report(single).markdown())
            for (a, b) in zip(merged, single) {
                #expect(Self.bits(a.stats?.values ?? []) == Self.bits(b.stats?.values ?? []))
                #expect(Self.bits(a.equityShape) == Self.bits(b.equityShape) && a.bars == b.bars && a.error == b.error)
                #expect(a.stats?.periodsPerYear == b.stats?.periodsPerYear)
            }
        }
    }

    @Test("condition screen rows read back as written, undefined values and missing times included")
    func conditionRows() throws {
        let parent = TestSupport.scratchDirectory().path
        let shard = try Shard(index: 0, count: 1)
        let rows: [(position: Int, row: ConditionScreen.Row)] = [
            (0, .init(symbol: "A", status: .match, timeframe: "1d", time: 1_700_000_000, values: [1.5, .nan, -0.0, 1])),
            (1, .init(symbol: "B", status: .error, error: "too short: the condition needs 201 bars")),
            (2, .init(symbol: "C", status: .noMatch, timeframe: nil, time: 86_400, values: [.infinity])),
        ]
        let writer = try PartialWriter(parent: parent, manifest: PartialManifest(
            command: "screen", arguments: [], shard: shard, items: 3, itemsSHA256: "", assigned: 3, dataSHA256: ""))
        try ConditionRowsFile.write(rows, name: "condition.rows", in: writer)
        try writer.commit()
        let back = try ConditionRowsFile.read(parent + "/shard-0-of-1/condition.rows")
        #expect(back.map(\.position) == [0, 1, 2])
        for (a, b) in zip(back.map(\.row), rows.map(\.row)) {
            #expect(a.symbol == b.symbol && a.status == b.status && a.timeframe == b.timeframe && a.time == b.time && a.error == b.error)
            #expect(Self.bits(a.values) == Self.bits(b.values))
        }
    }

    // MARK: - Shard files are input

    /// One screen row, written into a fresh shard folder, then read back.
    static func readBack(_ row: Screen.Row, position: Int = 0) throws -> [(position: Int, row: Screen.Row)] {
        let parent = TestSupport.scratchDirectory().path
        let writer = try PartialWriter(parent: parent, manifest: PartialManifest(
            command: "screen", arguments: [], shard: try Shard(index: 0, count: 1), items: 1, itemsSHA256: "", assigned: 1,
            dataSHA256: ""))
        try ScreenRowsFile.write([(position, row)], name: "screen.rows", in: writer)
        try writer.commit()
        let folder = try PartialFolder(path: parent + "/shard-0-of-1")
        #expect(folder.manifest.checksums["screen.rows"]?.count == 64)
        return try ScreenRowsFile.read(folder.file("screen.rows"))
    }

    @Test("a shard file's values are read into their ranges: statistics by unit, bar counts, equity, times")
    func shardValueRanges() throws {
        let good = try #require(Self.screenRows(["S1"]).first)
        #expect(try Self.readBack(good).count == 1)
        func with(_ metric: Stat, _ v: Double) -> Screen.Row {
            var row = good
            var values = row.stats!.values
            values[Stat.allCases.firstIndex(of: metric)!] = v
            row.stats = Stats(values: values, periodsPerYear: row.stats!.periodsPerYear)
            return row
        }
        var hostile: [(Screen.Row, String)] = [
            (with(.start, .nan), ""), (with(.start, 1e300), "a statistic start of 1e+300"), (with(.end, -1), "a statistic end of -1.0"),
            (with(.trades, 1e300), "a statistic trades of 1e+300"), (with(.bars, -5), "a statistic bars of -5.0"),
            (with(.sharpe, .nan), ""), (with(.cagr, .infinity), ""),
        ]
        var row = good
        row.bars = Int.max
        hostile.append((row, "a bar count of \(Int.max)"))
        row = good
        row.equityShape = [1, 1e308, -1e308]
        hostile.append((row, "an equity value of 1e+308"))
        row = good
        row.stats = Stats(values: good.stats!.all.map(\.value), periodsPerYear: -1)
        hostile.append((row, "-1.0 periods per year"))
        for (row, reason) in hostile {
            do {
                _ = try Self.readBack(row)
                #expect(reason.isEmpty, "accepted: \(reason)")
            } catch let e as InputError {
                #expect(!reason.isEmpty && e.description.contains(reason) && e.description.contains("screen.rows"), "\(e)")
            }
        }
        let conditionParent = TestSupport.scratchDirectory().path
        let writer = try PartialWriter(parent: conditionParent, manifest: PartialManifest(
            command: "screen", arguments: [], shard: try Shard(index: 0, count: 1), items: 1, itemsSHA256: "", assigned: 1,
            dataSHA256: ""))
        try ConditionRowsFile.write([(0, .init(symbol: "A", status: .match, timeframe: "1d", time: Int64.min, values: []))],
                                    name: "condition.rows", in: writer)
        try writer.commit()
        #expect(throws: InputError.self) { try ConditionRowsFile.read(conditionParent + "/shard-0-of-1/condition.rows") }
    }

    @Test("a shard file changed after it was written is refused naming it; a manifest without checksums asks for a rerun")
    func shardChecksum() throws {
        let parent = try Self.shards(1)
        let file = parent + "/shard-0-of-1/screen.rows"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        bytes[bytes.count - 1] ^= 1
        try bytes.write(to: URL(fileURLWithPath: file))
        #expect(Self.problem([parent]).contains("\(file): does not match the checksum its shard recorded"), "\(Self.problem([parent]))")
        let manifest = parent + "/shard-0-of-1/partial.json"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        let old = try #require(text.range(of: ", \"files_sha256\""))
        try (String(text[..<old.lowerBound]) + "}\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        #expect(Self.problem([parent]).contains("lists no checksums of its files"), "\(Self.problem([parent]))")
    }

    // MARK: - Incomplete or mixed partial results

    /// `count` empty screen shards under a fresh folder, with `change` applied to shard `k`'s manifest.
    static func shards(_ count: Int, change: (Int, inout PartialManifest) -> Void = { _, _ in }) throws -> String {
        let parent = TestSupport.scratchDirectory().appendingPathComponent("parts").path
        for k in 0..<count {
            var manifest = PartialManifest(command: "screen", arguments: ["screen", "x", "--out", parent, "--shard", "\(k)/\(count)"],
                                           shard: try Shard(index: k, count: count), items: 0, itemsSHA256: "i", assigned: 0,
                                           dataSHA256: "d")
            change(k, &manifest)
            let writer = try PartialWriter(parent: parent, manifest: manifest)
            try ScreenRowsFile.write([], name: "screen.rows", in: writer)
            try writer.commit()
        }
        return parent
    }

    /// The command line's reading of the stored arguments, as bt supplies it: here every option
    /// is a shard or output option (bt's own words are tested in btTests' `ShardArgumentsTests`).
    static let commandLine = ShardCommandLine(identifying: { Array($0.prefix { !$0.hasPrefix("--") }) },
                                              rerun: { arguments, shard in ["rerun", shard.description] + arguments })

    static func problem(_ paths: [String]) -> String {
        do { _ = try PartialSet(try PartialFolder.find(in: paths), commandLine: commandLine); return "" } catch { return "\(error)" }
    }

    @Test("a missing shard is named, with the command the command line gives for rerunning it")
    func missing() throws {
        let parent = try Self.shards(4)
        try FileManager.default.removeItem(atPath: parent + "/shard-2-of-4")
        let message = Self.problem([parent])
        #expect(message.contains("missing shard 2 of 4 (no \(parent)/shard-2-of-4)"))
        #expect(message.contains("rerun it with: bt rerun 2/4 screen x --out \(parent) --shard 0/4"))
    }

    @Test("a shard given twice is named with both folders")
    func duplicate() throws {
        let parent = try Self.shards(2)
        let copy = TestSupport.scratchDirectory().appendingPathComponent("copy").path
        try FileManager.default.copyItem(atPath: parent + "/shard-1-of-2", toPath: copy)
        #expect(Self.problem([parent, copy]).contains("shard 1 of 2 is given twice: \(parent)/shard-1-of-2 and \(copy)"))
    }

    @Test("shards of another run are named with what differs", arguments: ["arguments", "count", "items", "data", "version"])
    func mismatch(what: String) throws {
        let parent = try Self.shards(3) { k, m in
            guard k == 1 else { return }
            switch what {
            case "arguments": m.arguments = ["screen", "y", "--shard", "1/3"]; m.itemsSHA256 = "other"; m.dataSHA256 = "other"
            case "count": m.shard = try! Shard(index: 1, count: 4)
            case "items": m.itemsSHA256 = "other"
            case "data": m.dataSHA256 = "other"
            default: m.version = "0.0.1"
            }
        }
        let message = Self.problem([parent])
        let expected = ["arguments": "its command line is `bt screen y`, not `bt screen x`", "count": "one of 4 shards, not 3",
                        "items": "it split another list of symbols", "data": "the store changed between the shards",
                        "version": "was written by bt 0.0.1"][what]!
        #expect(message.contains(expected), "\(message)")
        #expect(message.contains(parent + (what == "count" ? "/shard-1-of-4" : "/shard-1-of-3")))
        if what == "arguments" {  // another command line reads other items and data: not blamed on the store
            #expect(!message.contains("store changed") && !message.contains("another list"), "\(message)")
        }
    }

    @Test("a payload file cut short or missing is refused before anything is merged")
    func damaged() throws {
        let parent = try Self.shards(1)
        let rows = parent + "/shard-0-of-1/screen.rows"
        let data = try Data(contentsOf: URL(fileURLWithPath: rows))
        try data.prefix(data.count - 3).write(to: URL(fileURLWithPath: rows))
        #expect(Self.problem([parent]).contains("screen.rows holds \(data.count - 3) bytes, its manifest says \(data.count)"))
        try FileManager.default.removeItem(atPath: rows)
        #expect(Self.problem([parent]).contains("lacks screen.rows"))
        try "{\"format\": \"bt partial result 1\"".write(toFile: parent + "/shard-0-of-1/partial.json", atomically: true, encoding: .utf8)
        #expect(Self.problem([parent]).contains("is not valid JSON"))
        #expect(Self.problem([TestSupport.scratchDirectory().path]).contains("holds no partial results"))
    }

    @Test("rerunning a shard replaces its folder; a failed shard leaves nothing a merge reads")
    func rerunReplaces() throws {
        let parent = try Self.shards(2)
        try "stale".write(toFile: parent + "/shard-1-of-2/stale.txt", atomically: true, encoding: .utf8)
        let writer = try PartialWriter(parent: parent, manifest: PartialManifest(
            command: "screen", arguments: ["screen", "x"], shard: try Shard(index: 1, count: 2), items: 0, itemsSHA256: "i",
            assigned: 0, dataSHA256: "d"))
        try ScreenRowsFile.write([], name: "screen.rows", in: writer)
        try writer.commit()
        #expect(!FileManager.default.fileExists(atPath: parent + "/shard-1-of-2/stale.txt"))
        do {
            let unfinished = try PartialWriter(parent: parent, manifest: PartialManifest(
                command: "screen", arguments: [], shard: try Shard(index: 0, count: 2), items: 0, itemsSHA256: "i", assigned: 0,
                dataSHA256: "d"))
            try ScreenRowsFile.write([], name: "screen.rows", in: unfinished)
            // goes away without commit, as when the shard fails
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).sorted() == ["shard-0-of-2", "shard-1-of-2"])
    }

    @Test("a failed shard keeps the --out folder it made: the other shards write their folders there")
    func failedShardKeepsTheSharedFolder() throws {
        let parent = TestSupport.scratchDirectory().appendingPathComponent("new/out").path
        do {
            let unfinished = try PartialWriter(parent: parent, manifest: PartialManifest(
                command: "screen", arguments: [], shard: try Shard(index: 0, count: 2), items: 0, itemsSHA256: "i", assigned: 0,
                dataSHA256: "d"))
            try ScreenRowsFile.write([], name: "screen.rows", in: unfinished)
            // goes away without commit, as when the shard fails
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == [])
    }
}
