import Foundation
import Testing
@testable import BacktestData

/// bt's file writes never go through a link someone planted: temporary files are
/// created exclusively under unpredictable names, and finished files are renamed into place.
@Suite("Planted links: exclusive temporary files, renamed into place")
struct PlantedLinkTests {
    static func scratch() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bt-links-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("an exclusive open refuses a planted link, dangling or not, and leaves its target alone")
    func exclusiveOpen() throws {
        let dir = Self.scratch()
        let victim = dir + "/victim", planted = dir + "/planted", dangling = dir + "/dangling"
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: victim)
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir + "/created-through-link")
        for link in [planted, dangling] {
            let fd = OutputDirectory.openExclusive(link)
            #expect(fd == -1 && errno == EEXIST, "\(link)")
            if fd >= 0 { close(fd) }
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(!FileManager.default.fileExists(atPath: dir + "/created-through-link"))
    }

    @Test("temporary names are unpredictable: .NAME.partial- and 16 random hex digits, no PID")
    func temporaryNames() throws {
        let dir = Self.scratch()
        var names = Set<String>()
        for _ in 0..<50 {
            let (fd, path) = try OutputDirectory.exclusiveTemporary(beside: dir + "/page.html")
            close(fd)
            let name = (path as NSString).lastPathComponent
            #expect(name.hasPrefix(".page.html.partial-") && name.count == ".page.html.partial-".count + 16)
            #expect(name.dropFirst(".page.html.partial-".count).allSatisfy(\.isHexDigit) && !name.hasSuffix("-\(getpid())"))
            names.insert(name)
        }
        #expect(names.count == 50)
    }

    @Test("a file written over a planted link replaces the link; its target is untouched and no temporary file is left")
    func writeOverLink() throws {
        let dir = Self.scratch()
        let victim = dir + "/victim", out = dir + "/profile.json"
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: victim)
        try OutputDirectory.write("{}\n", toFile: out)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "{}\n")
        #expect((try FileManager.default.attributesOfItem(atPath: out)[.type] as? FileAttributeType) == .typeRegular)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["profile.json", "victim"])
    }

    @Test("a file written in pieces is their bytes in order, renamed into place; one whose pieces fail leaves nothing")
    func writeInPieces() throws {
        let dir = Self.scratch()
        let out = dir + "/equity.csv"
        try OutputDirectory.writeFile(pieces: { append in
            for piece in ["time,equity\n", "", "t1,1\n", "t2,2\n"] { try append(Array(piece.utf8)) }
        }, to: out)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "time,equity\nt1,1\nt2,2\n")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try OutputDirectory.writeFile(pieces: { append in try append(Array("half".utf8)); throw Stop() }, to: dir + "/other.csv")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["equity.csv"])
    }
}
