// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "bt",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Backtest", targets: ["Backtest"]),
        .library(name: "Strategies", targets: ["Strategies"]),
        .executable(name: "bt", targets: ["bt"]),
    ],
    targets: [
        // MARK: - Public API
        .target(
            name: "Backtest",
            dependencies: ["CGSL", "CSQLite"],
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]
        ),
        .target(name: "Strategies", dependencies: ["Backtest"]),
        .executableTarget(name: "bt", dependencies: ["Backtest", "Strategies"]),

        // MARK: - Implementation details
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

        // MARK: - Tests
        .testTarget(name: "BacktestTests", dependencies: ["Backtest"], exclude: ["Fixtures"]),
        .testTarget(name: "StrategiesTests", dependencies: ["Strategies", "Backtest"]),
        .testTarget(name: "btTests", dependencies: ["bt"]),
    ],
    swiftLanguageModes: [.v5]
)
