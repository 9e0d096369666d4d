import CFuzzer
import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif

// One libFuzzer executable for every target of `FuzzTargets.all`: `BT_FUZZ_TARGET=NAME fuzz
// [libFuzzer options] [corpus...]` fuzzes that target. A new target needs nothing here.

/// The target `BT_FUZZ_TARGET` names, found before libFuzzer starts.
nonisolated(unsafe) private var selected: FuzzTarget?

/// One input for the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selected?.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

/// SwiftPM links an executable with `main` defined as `<module>_main`: pick the target, then
/// hand over to libFuzzer's driver.
@_cdecl("fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
    guard let raw = getenv("BT_FUZZ_TARGET") else {
        say("fuzz: set BT_FUZZ_TARGET to one of: \(names)")
        return 2
    }
    let name = String(cString: raw)
    guard let target = FuzzTargets.named(name) else {
        say("fuzz: no target '\(name)'; the targets are: \(names)")
        return 2
    }
    selected = target
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) }
}

/// A line on standard error (by descriptor: C's `stderr` global is not concurrency-safe in Swift 6).
private func say(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
