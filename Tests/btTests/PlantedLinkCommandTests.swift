import Foundation
import Testing
import TestSupport

/// No write goes through a symbolic link someone planted, end to end with the real binary: a
/// link at the old predictable temporary name (`.NAME.partial-PID`) or at the output itself, for
/// `bt chart --html`, `bt slurm`'s `array.sbatch` and `bt calibrate --out`, leaves its target
/// untouched and is replaced by a regular file.
@Suite("Planted links: chart --html, slurm, calibrate --out never write through them", .serialized)
struct PlantedLinkCommandTests {
    static func isRegularFile(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    }

    @Test("bt chart --html: a link planted at the old temporary name (.NAME.partial-PID) or at the page is not written through")
    func plantedChartLink() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let victim = dir.appendingPathComponent("victim.txt").path
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let page = dir.appendingPathComponent("page.html").path
        // exec keeps the shell's PID, so $$ is the PID bt runs with.
        let r = try BT.shell("ln -s \(BT.quoted(victim)) \(BT.quoted(dir.path + "/.page.html.partial-"))$$ && exec "
                             + "\(BT.quoted(BT.binary.path)) chart GOOG --html \(BT.quoted(page)) --db \(BT.quoted(db))")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(Self.isRegularFile(page))
        try FileManager.default.removeItem(atPath: page)
        try FileManager.default.createSymbolicLink(atPath: page, withDestinationPath: victim)
        #expect(try BT.run(["chart", "GOOG", "--html", page, "--force", "--db", db]).status == 0)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(Self.isRegularFile(page))
    }

    @Test("bt slurm: a link planted at DIR.parts/array.sbatch is replaced, not written through")
    func plantedSlurmLink() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "import", "data/GOOG.csv", "--db", db]).status == 0)
        let victim = dir.appendingPathComponent("victim.txt").path
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let parts = dir.appendingPathComponent("grid.parts").path
        try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: parts + "/array.sbatch", withDestinationPath: victim)
        let empty = dir.appendingPathComponent("empty-path").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        // No sbatch on PATH: the scripts are written, then the submission fails.
        let r = try BT.run(["slurm", "sweep", "ma-cross", "GOOG", "--grid", "fast=5,10", "--tasks", "2", "--out", "grid", "--db", db],
                           environment: ["PATH": empty], directory: dir)
        #expect(r.status != 0 && r.stderr.contains("sbatch"), "\(r.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(Self.isRegularFile(parts + "/array.sbatch"))
    }

    @Test("bt calibrate --out: a link planted at the old temporary name (.NAME.partial-PID) or at the file is not written through")
    func plantedCalibrateLink() throws {
        let dir = BT.scratchDirectory()
        let db = dir.appendingPathComponent("s.sqlite").path
        #expect(try BT.run(["data", "synth", "--symbols", "1", "--bars", "300", "--book", "--db", db]).status == 0)
        let victim = dir.appendingPathComponent("victim.txt").path
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let profile = dir.appendingPathComponent("profile.json").path
        // exec keeps the shell's PID, so $$ is the PID bt runs with.
        let r = try BT.shell("ln -s \(BT.quoted(victim)) \(BT.quoted(dir.path + "/.profile.json.partial-"))$$ && exec "
                             + "\(BT.quoted(BT.binary.path)) calibrate SYN0001 --out \(BT.quoted(profile)) --db \(BT.quoted(db))")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(Self.isRegularFile(profile))
        try FileManager.default.removeItem(atPath: profile)
        try FileManager.default.createSymbolicLink(atPath: profile, withDestinationPath: victim)
        let forced = try BT.run(["calibrate", "SYN0001", "--out", profile, "--force", "--db", db])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(Self.isRegularFile(profile))
        #expect((try String(contentsOfFile: profile, encoding: .utf8)).contains("\"spread_bps\""))
    }
}
