import Foundation
import Testing
import TestSupport

/// Thousands of take-profit targets, repeated `--tp` or a strategy file's `tp = ...` list. Two
/// paths were quadratic in the targets, from the command line and from a file alike: targets at one
/// level, all filled on the bar that reaches it (each fill looked for the nearest target from the
/// start of the sorted list, past every one already filled), and targets that are price expressions
/// (their plan merged equal subexpressions by comparing each new node with every node before it,
/// took a buffer by scanning every buffer, and each lookup of a target's values scanned the list).
/// In a debug build 2,000 targets took 11 s and 3 s, 20,000 about 1,000 s and 280 s. Each test runs
/// 20,000 under `timeout 60`: the linear code needs a few seconds (debug), the quadratic one was
/// killed; no wall-clock figure is asserted beyond that bound. The command line and the file give
/// the same run, to the byte of `--json`.
@Suite("Thousands of take-profit targets run in time linear in the targets, the same from --tp and a file", .serialized)
struct ManyTargetsTests {
    static let count = 20_000

    /// `bt args`, killed after 60 s (status 9, the signal).
    static func bounded(_ args: [String]) throws -> BT.Result {
        try BT.runExecutable("/usr/bin/timeout", ["-s", "KILL", "60", BT.binary.path] + args)
    }

    /// The run of `targets` as repeated `--tp`, and as a strategy file's `tp` list: both finish
    /// within the bound and print the same JSON.
    static func sameFromBothPlaces(_ targets: [String]) throws {
        let dir = BT.scratchDirectory()
        let db = try BT.googStore(in: dir)
        let options = ["--db", db, "--depth", "none", "--no-costs", "--json"]
        let cli = try bounded(["run", "ma-cross", "GOOG"] + options + targets.flatMap { ["--tp", $0] })
        #expect(cli.status == 0, "status \(cli.status) (9: killed at 60 s): \(cli.stderr.prefix(500))")
        let strategy = try String(contentsOf: BT.root.appendingPathComponent("strategies/ma-cross.bt"), encoding: .utf8)
        let file = dir.appendingPathComponent("targets.bt")
        try (strategy + "\n[exits]\ntp = " + targets.joined(separator: ", ") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let fromFile = try bounded(["run", file.path, "GOOG"] + options)
        #expect(fromFile.status == 0, "status \(fromFile.status) (9: killed at 60 s): \(fromFile.stderr.prefix(500))")
        // The same object but for "rules", which a strategy file's run lists and a built-in's does not.
        let fromCLI = try Self.object(cli.stdout), fromStrategyFile = try Self.object(fromFile.stdout)
        let differing = Set(fromCLI.keys).union(fromStrategyFile.keys).subtracting(["rules"])
            .filter { fromCLI[$0] != fromStrategyFile[$0] }
        #expect(differing.isEmpty, "the runs differ in \(differing.sorted())")
        #expect(fromCLI["stats"] != nil)
    }

    /// The top-level members of a JSON object, each as comparable JSON.
    static func object(_ text: String) throws -> [String: NSObject] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw CLIError("not a JSON object: \(text.prefix(200))")
        }
        return object.mapValues { $0 as! NSObject }
    }

    @Test("20,000 targets at one level (1%, 0.004% each) all fill on the bar that reaches it, in time")
    func oneLevel() throws {
        try Self.sameFromBothPlaces(Array(repeating: "1%@0.004%", count: Self.count))
    }

    @Test("20,000 targets that are price expressions (i * atr(14)) are one plan, built and read in time")
    func expressions() throws {
        try Self.sameFromBothPlaces((1...Self.count).map { "\($0) * atr(14)@0.004%" })
    }
}
