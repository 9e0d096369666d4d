import CFuzzer
import FuzzSupport

/// One input for the `detect` target (see `FuzzTargets`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.`detect`.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

/// SwiftPM links an executable with `main` defined as `<module>_main`: hand over to libFuzzer.
@_cdecl("fuzz_detect_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) }
}
