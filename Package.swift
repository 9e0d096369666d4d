// swift-tools-version:6.1
import PackageDescription

// Layers, lowest first; a target may import only the ones above it in this list:
//   BacktestCore      support, GSL, candles, indicators, order book, engine and its cost model, strategies, synthetic data
//   BacktestAnalysis  statistics, cost sensitivity, overfitting, sweeps, screens
//   BacktestIO        store, importers, text and SVG charts, reports
//   Backtest          the public library: re-exports the three layers
//   BacktestBenchmarks, Strategies (the built-ins and the registry), bt (the command line) on top.
let package = Package(
    name: "bt",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Backtest", targets: ["Backtest"]),
        .library(name: "Strategies", targets: ["Strategies"]),
        .executable(name: "bt", targets: ["bt"]),
        // The C library: libBacktestC.so, which `make lib` links as .build/<config>/libbt.so (a product
        // cannot share the executable's name), with the hand-written header include/bt.h.
        .library(name: "BacktestC", type: .dynamic, targets: ["CBridge"]),
        // The fuzz targets, for the libFuzzer package in Fuzz/ (not part of bt).
        .library(name: "FuzzSupport", targets: ["FuzzSupport"]),
    ],
    targets: [
        // MARK: - Public API
        .target(name: "Backtest", dependencies: ["BacktestCore", "BacktestAnalysis", "BacktestIO"],
                path: "Sources/Backtest/Exports"),
        .target(name: "Strategies", dependencies: ["Backtest"]),
        .executableTarget(name: "bt", dependencies: ["Backtest", "BacktestBenchmarks", "Strategies", "CCallgrind"],
                          exclude: ["Help"], plugins: ["EmbedAssets"]),
        // bt.h's functions as @_cdecl functions over Backtest and Strategies; bt.h's types come from CBTABI.
        .target(name: "CBridge", dependencies: ["Backtest", "Strategies", "CBTABI"]),

        // MARK: - Implementation details
        .target(name: "BacktestCore", dependencies: ["CGSL"], path: "Sources/Backtest/Core"),
        .target(name: "BacktestAnalysis", dependencies: ["BacktestCore"], path: "Sources/Backtest/Analysis"),
        .target(name: "BacktestIO", dependencies: ["BacktestCore", "BacktestAnalysis", "CSQLite", "CZlib", "CCrypto", "CWebSockets"],
                path: "Sources/Backtest/IO", exclude: ["HTML/Assets"], plugins: ["EmbedAssets"]),
        .target(name: "BacktestBenchmarks", dependencies: ["Backtest"], path: "Sources/Backtest/Benchmarks"),
        // The report page's .js/.css files (IO/HTML/Assets) and the commands' help texts (bt's Help/*.txt)
        // as string constants, at build time.
        .plugin(name: "EmbedAssets", capability: .buildTool()),
        // include/bt.h imported into Swift, so the bridge's structs are the header's own.
        .systemLibrary(name: "CBTABI", path: "Sources/CBTABI"),
        // Callgrind's client requests for `bt bench kernel` (no-ops without valgrind's headers).
        .target(name: "CCallgrind", path: "Sources/CCallgrind"),
        .systemLibrary(
            name: "CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // SHA-256 for manifests, fingerprints and shard checksums (OpenSSL's libcrypto).
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // The WebSocket client of `bt live` (libwebsockets, TLS through OpenSSL).
        .systemLibrary(
            name: "CWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),

        // MARK: - Tests
        // Repository paths, the shipped candles and the seeded generator, for every test target.
        .target(name: "TestSupport", dependencies: ["BacktestCore", "CSQLite"], path: "Tests/TestSupport"),
        // Candles and a sweep evaluator for the analysis and IO tests.
        .target(name: "AnalysisTestSupport", dependencies: ["BacktestCore", "BacktestAnalysis"], path: "Tests/AnalysisTestSupport"),
        // Fuzz targets (importers, --where, --grid) shared by the test suite and Fuzz/ (libFuzzer).
        .target(name: "FuzzSupport", dependencies: ["Backtest"], path: "Tests/FuzzSupport"),
        // The library's tests, one target per layer, each seeing only its layer and those below.
        .testTarget(name: "BacktestCoreTests", dependencies: ["BacktestCore", "TestSupport"]),
        .testTarget(name: "BacktestAnalysisTests",
                    dependencies: ["BacktestCore", "BacktestAnalysis", "TestSupport", "AnalysisTestSupport"]),
        .testTarget(name: "BacktestIOTests",
                    dependencies: ["Backtest", "BacktestCore", "BacktestAnalysis", "BacktestIO", "BacktestBenchmarks",
                                   "TestSupport", "AnalysisTestSupport", "FuzzSupport"]),
        .testTarget(name: "StrategiesTests", dependencies: ["Strategies", "Backtest", "TestSupport"]),
        .testTarget(name: "btTests", dependencies: ["bt", "Backtest", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
