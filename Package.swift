// swift-tools-version:6.1
import PackageDescription

// Layers, lowest first; a target may import only the ones above it in this list:
//   BacktestCore          support, GSL, candles, indicators, order book, engine and its cost model, strategies, synthetic data
//   BacktestAnalysis      statistics, cost sensitivity, overfitting, sweeps, screens
//   The IO layer (Sources/Backtest/IO), in four rooms:
//     BacktestData          data in and files: store, importers, fetch, staged folders and file names
//     BacktestPresentation  what results look like: text and SVG charts, reports, the report page
//     BacktestJobs          whole runs that write reports: run, sweep and screen jobs, shards' partial results
//     BacktestLive          the live runtime: exchange streams, paper trading, the dashboard
//   Backtest              the public library: re-exports the layers
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
        .target(name: "Backtest", dependencies: ["BacktestCore", "BacktestAnalysis", "BacktestData", "BacktestPresentation",
                                                 "BacktestJobs", "BacktestLive"],
                path: "Sources/Backtest/Exports"),
        .target(name: "Strategies", dependencies: ["Backtest"]),
        .executableTarget(name: "bt", dependencies: ["Backtest", "BacktestBenchmarks", "Strategies", "CCallgrind"],
                          exclude: ["Help"], plugins: ["EmbedAssets"]),
        // bt.h's functions as @_cdecl functions over Backtest and Strategies; bt.h's types come from CBTABI.
        .target(name: "CBridge", dependencies: ["Backtest", "Strategies", "CBTABI"]),

        // MARK: - Implementation details
        .target(name: "BacktestCore", dependencies: ["CGSL"], path: "Sources/Backtest/Core"),
        .target(name: "BacktestAnalysis", dependencies: ["BacktestCore"], path: "Sources/Backtest/Analysis"),

        // MARK: - The IO layer's rooms (Sources/Backtest/IO), lowest first: each may depend only on those before it
        .target(name: "BacktestData", dependencies: ["BacktestCore", "BacktestAnalysis", "CSQLite", "CZlib", "CCrypto"],
                path: "Sources/Backtest/IO/Data"),
        .target(name: "BacktestPresentation", dependencies: ["BacktestCore", "BacktestAnalysis", "BacktestData"],
                path: "Sources/Backtest/IO/Presentation", exclude: ["HTML/Assets"], plugins: ["EmbedAssets"]),
        .target(name: "BacktestJobs", dependencies: ["BacktestCore", "BacktestAnalysis", "BacktestData", "BacktestPresentation"],
                path: "Sources/Backtest/IO/Jobs"),
        .target(name: "BacktestLive", dependencies: ["BacktestCore", "BacktestAnalysis", "BacktestData", "BacktestPresentation",
                                                     "CWebSockets"],
                path: "Sources/Backtest/IO/Live"),

        // MARK: - Benchmarks, the asset plugin, C libraries
        .target(name: "BacktestBenchmarks", dependencies: ["Backtest"], path: "Sources/Backtest/Benchmarks"),
        // The report page's .js/.css files (IO/Presentation/HTML/Assets) and the commands' help texts (bt's Help/*.txt)
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
                    dependencies: ["Backtest", "BacktestCore", "BacktestAnalysis", "BacktestData", "BacktestPresentation",
                                   "BacktestJobs", "BacktestLive", "BacktestBenchmarks",
                                   "TestSupport", "AnalysisTestSupport", "FuzzSupport"]),
        .testTarget(name: "StrategiesTests", dependencies: ["Strategies", "Backtest", "TestSupport"]),
        .testTarget(name: "btTests", dependencies: ["bt", "Backtest", "TestSupport"]),
        // The C library's bridge: bt_config read by setting name (btcore's suite tests the rest).
        .testTarget(name: "CBridgeTests", dependencies: ["CBridge", "Backtest", "CBTABI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
