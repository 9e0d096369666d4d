import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData

@Suite("External signals files")
struct SignalsFileTests {
    static let day: Int64 = 86_400
    static let times: [Int64] = (0..<5).map { 1_700_000_000 / day * day + $0 * day }
    static func iso(_ i: Int) -> String { UTCTime.iso(times[i]) }

    @Test("rows in any order, 0/1 and true/false, bars without rows have no signal, outside rows skipped")
    func parses() throws {
        let text = "\u{FEFF}Time,Exit,Entry\r\n\(Self.iso(3)),0,TRUE\r\n\(Self.iso(1)),1,false\r\n"
            + "2000-01-01,1,1\n\(Self.times[4] * 1000),true,0\n"
        let s = try SignalsFile.parse(text, path: "s.csv", times: Self.times)
        #expect(s.entries == [false, false, false, true, false])
        #expect(s.exits == [false, true, false, false, true])
        #expect(s.shortEntries == nil)
        let short = try SignalsFile.parse("time,entry,exit,short_entry,short_exit\n\(Self.iso(0)),1,0,0,1\n", path: "s.csv", times: Self.times)
        #expect(short.shortEntries == [false, false, false, false, false] && short.shortExits == [true, false, false, false, false])
    }

    @Test("what bt signals writes reads back to the same signals")
    func roundTrip() throws {
        let s = Signals(entries: [true, false, true, false, false], exits: [false, true, false, false, true],
                        shortEntries: [false, false, false, true, false], shortExits: [true, false, false, false, false])
        let csv = SignalsFile.csv(times: Self.times, signals: s)
        #expect(csv.hasPrefix("time,entry,exit,short_entry,short_exit\n\(Self.iso(0)),1,0,0,1\n"))
        #expect(try SignalsFile.parse(csv, path: "s.csv", times: Self.times) == s)
    }

    @Test("a time with no bar, a repeated time, a bad value or a bad header is an error at file:line",
          arguments: [
            ("time,entry,exit\n\(iso(1)),1,0\n\(iso(1)),0,1\n", 3, "time \(iso(1)) repeats line 2"),
            ("time,entry,exit\n\(UTCTime.iso(times[1] + 3600)),1,0\n", 2, "no bar at \(UTCTime.iso(times[1] + 3600))"),
            ("time,entry,exit\n\(iso(1)),yes,0\n", 2, "entry 'yes' is not a boolean"),
            ("time,entry,exit\n\(iso(1)),1\n", 2, "2 fields, the header has 3"),
            ("time,entry,exit\nnot-a-time,1,0\n", 2, "bad time 'not-a-time'"),
            ("time,entry\n", 1, "missing column 'exit'"),
            ("time,entry,exit,signal\n", 1, "unknown column 'signal'"),
            ("time,entry,exit,short_entry\n", 1, "short_entry and short_exit come together"),
            ("time,entry,entry,exit\n", 1, "column 'entry' appears twice"),
          ] as [(String, Int, String)])
    func errors(text: String, line: Int, reason: String) {
        do {
            _ = try SignalsFile.parse(text, path: "s.csv", times: Self.times)
            Issue.record("parsed: \(text)")
        } catch let e as InputError {
            #expect(e.file == "s.csv" && e.line == line, "\(e)")
            #expect(e.reason.contains(reason), "\(e.reason)")
        } catch {
            Issue.record("\(error)")
        }
        #expect(throws: InputError.self) { try SignalsFile.parse("", path: "s.csv", times: Self.times) }
    }

    @Test("random bytes never crash the signals parser, and every refusal is an InputError (bounded fuzz)")
    func fuzz() {
        var rng = SplitMix64(seed: 21)
        let header = "time,entry,exit\n"
        var refused = 0
        for _ in 0..<5_000 {
            let bytes = (0..<Int(rng.next() % 60)).map { _ in UInt8(truncatingIfNeeded: rng.next() % 4 == 0 ? 44 : rng.next()) }
            do {
                _ = try SignalsFile.parse((rng.next() % 2 == 0 ? header : "") + String(decoding: bytes, as: UTF8.self),
                                          path: "f.csv", times: Self.times)
            } catch is InputError {
                refused += 1
            } catch {
                Issue.record("not an InputError: \(error)")
            }
        }
        #expect(refused > 1_000, "only \(refused) of 5,000 random inputs refused")
    }
}
