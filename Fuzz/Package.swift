// swift-tools-version:6.0
import PackageDescription

// The libFuzzer executable for bt's fuzz targets (`FuzzTargets.all` in Tests/FuzzSupport of the
// bt package): one program, the target chosen by BT_FUZZ_TARGET. Build only with the sanitizer
// flags, as scripts/fuzz.sh does:
//   swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
// It defines LLVMFuzzerTestOneInput, and `fuzz_main`, which SwiftPM makes the program's `main`,
// hands over to libFuzzer's driver (LLVMFuzzerRunDriver).
let package = Package(
    name: "bt-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "bt", path: "..")],
    targets: [
        .target(name: "CFuzzer", path: "Sources/CFuzzer"),
        .executableTarget(name: "fuzz", dependencies: ["CFuzzer", .product(name: "FuzzSupport", package: "bt")],
                          path: "Sources/fuzz"),
    ],
    swiftLanguageModes: [.v6]
)
