// swift-tools-version:6.0
import PackageDescription

// libFuzzer executables, one per fuzz target of `FuzzSupport` (Tests/FuzzSupport in the bt
// package). Build only with the sanitizer flags, as scripts/fuzz.sh does:
//   swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
// Each executable defines LLVMFuzzerTestOneInput, and `<module>_main`, which SwiftPM makes the
// program's `main`, hands over to libFuzzer's driver (LLVMFuzzerRunDriver).
let targets = ["csv", "binance", "alphavantage", "trades", "book", "detect", "where", "grid",
               "expression", "strategy-file", "signals"]

let package = Package(
    name: "bt-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "bt", path: "..")],
    targets: [.target(name: "CFuzzer", path: "Sources/CFuzzer")] + targets.map { name in
        .executableTarget(name: "fuzz-\(name)", dependencies: ["CFuzzer", .product(name: "FuzzSupport", package: "bt")],
                          path: "Sources/fuzz-\(name)")
    },
    swiftLanguageModes: [.v5]
)
