import Foundation
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestData
@testable import BacktestPresentation

/// The byte writers give exactly the text of the `String` functions they replace in the large
/// files (`UTCTime.iso`, `String(Int)`, `NumberText.shortest`, `CSV.row` of `CSV` cells).
@Suite("Text written as bytes")
struct TextBytesTests {
    static func written(_ body: (inout TextBytes) -> Void) -> String {
        var t = TextBytes()
        body(&t)
        return t.string
    }

    /// A SplitMix64 stream, so the cases are the same on every run.
    struct Stream {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("times are UTCTime.iso's, at the edges of the stored range and of days, months and leap years")
    func iso() {
        var times: [Int64] = [0, 59, 60, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_400, 253_402_300_799,
                              -1, -86_400, -62_167_219_200, 253_402_300_800, 1_000_000_000_000, -1_000_000_000_000]
        var s = Stream(state: 7)
        for _ in 0..<20_000 { times.append(Int64(s.next() % 253_402_300_800)) }
        for t in times {
            #expect(Self.written { $0.append(iso: t) } == UTCTime.iso(t), "\(t)")
        }
    }

    @Test("integers are String(v)'s, the extremes included")
    func integers() {
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.min + 1, 1_000_000_000_000_000]
        var s = Stream(state: 3)
        for _ in 0..<5_000 {
            let v = Int64(bitPattern: s.next())
            values += [v, v >> 17, v >> 40]
        }
        for v in values { #expect(Self.written { $0.append(integer: v) } == String(v), "\(v)") }
    }

    @Test("numbers are NumberText.shortest's: whole ones below 1e15 as integers, the rest shortest round-trip")
    func shortest() {
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 1e15, 1e15 - 1, -1e15, 999_999_999_999_999, 1e15 + 2, 1e16, 1e300, .leastNonzeroMagnitude,
                                .nan, .infinity, -.infinity, 10_000, 497.6671293646754, .greatestFiniteMagnitude, 0.30000000000000004]
        var s = Stream(state: 11)
        for _ in 0..<20_000 {
            let bits = s.next()
            let v = Double(bitPattern: bits)
            values += [v, Double(Int64(bitPattern: bits) >> 20), Double(bits % 100_000) / 100]
        }
        for v in values { #expect(Self.written { $0.append(shortest: v) } == NumberText.shortest(v), "\(v)") }
    }

    @Test("text keeps every byte, non-ASCII included")
    func text() {
        let samples = ["", "a", "naïve 日本 🙂", String(repeating: "x", count: 100), "comma,\"quote\"\n"]
        for sample in samples { #expect(Self.written { $0.append(sample) } == sample) }
    }

    @Test("a CSV written cell by cell is the CSV of CSV.row, CSV.text, CSV.number and UTCTime.iso")
    func csv() {
        var s = Stream(state: 5)
        let texts = ["buy", "=cmd", "a,b", "he said \"hi\"", "-1", "tab\there", "line\nbreak", "esc\u{1b}[31m", "plain"]
        var writer = CSVWriter(header: ["time", "index", "name", "value", "flag", "kind"])
        var expected = CSV.row(["time", "index", "name", "value", "flag", "kind"])
        for i in 0..<2_000 {
            let t = Int64(s.next() % 4_000_000_000), index = Int(s.next() % 1_000_000) - 500
            let name = texts[i % texts.count]
            let value: Double = i % 7 == 0 ? .nan : i % 11 == 0 ? .infinity : Double(bitPattern: s.next() >> 2) .truncatingRemainder(dividingBy: 1e6)
            let flag = i % 2 == 0
            writer.time(t); writer.integer(index); writer.text(name); writer.number(value); writer.bool(flag); writer.literal("stop")
            writer.endRow()
            expected += CSV.row([UTCTime.iso(t), String(index), CSV.text(name), CSV.number(value), flag ? "true" : "false", "stop"])
        }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
        // A row may be empty, and a number cell may be the first.
        var w = CSVWriter(header: ["a"])
        w.endRow(); w.number(.nan); w.endRow(); w.number(2.5); w.number(.nan); w.endRow()
        #expect(String(decoding: w.bytes, as: UTF8.self) == "a\n\n\n2.5,\n")
    }
}

@Suite("Report files made on all cores")
struct ReportFilesTests {
    struct Failure: Error, Equatable { var name: String }

    @Test("every file holds what its job made, whatever order the jobs finish in; the paths come in the jobs' order")
    func order() throws {
        let target = TestSupport.scratchDirectory().appendingPathComponent("report").path
        let staged = try OutputDirectory.stage(target, force: false)
        let jobs = (0..<12).map { i in
            ReportFiles.Job("f\(i).txt", text: {
                // Uneven work so that later jobs can finish first.
                var x = 0.0
                for k in 0..<((12 - i) * 20_000) { x += Double(k % 7) }
                return "file \(i) \(x > 0)"
            })
        }
        let paths = try ReportFiles.write(jobs, into: staged, directory: target)
        try staged.commit()
        #expect(paths == (0..<12).map { target + "/f\($0).txt" })
        for i in 0..<12 {
            #expect(try String(contentsOfFile: paths[i], encoding: .utf8) == "file \(i) true")
        }
    }

    @Test("the first failing job in order is the error, and nothing is written, as when the files were made one by one")
    func firstFailure() throws {
        let target = TestSupport.scratchDirectory().appendingPathComponent("report").path
        let staged = try OutputDirectory.stage(target, force: false)
        let jobs = (0..<6).map { i in
            ReportFiles.Job("f\(i).csv", bytes: {
                if i == 2 || i == 4 { throw Failure(name: "f\(i)") }
                return Array("ok".utf8)
            })
        }
        #expect(throws: Failure(name: "f2")) { try ReportFiles.write(jobs, into: staged, directory: target) }
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(!FileManager.default.fileExists(atPath: staged.path))
    }
}

@Suite("SVG coordinates")
struct SVGCoordinateTests {
    @Test("a coordinate's text is the %.1f text of its rounding to tenths, without a trailing .0")
    func oneDecimal() {
        func reference(_ v: Double) -> String {
            let r = (v * 10).rounded() / 10
            return r == r.rounded() ? String(Int(r)) : String(format: "%.1f", r)
        }
        var values: [Double] = [0, -0.0, 0.05, -0.05, 0.04999, 0.15, 0.25, -0.25, 1.05, 2.675, 99.95, -99.95, 123.45, 1e13 + 0.3, -1e13 - 0.7]
        var state: UInt64 = 17
        for _ in 0..<50_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let u = Double(state >> 11) / Double(1 << 53)
            values += [u * 2_000 - 500, (u * 20_000).rounded() / 100 - 50, u * 1e9]
        }
        for v in values { #expect(SVGCanvas.f(v) == reference(v), "\(v)") }
    }
}
