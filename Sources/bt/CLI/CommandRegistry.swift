/// Every command bt knows, in the order `bt --help` lists them. One line per command.
enum CommandRegistry {
    static let all: [Command] = [
        .dataImport,
        .dataList,
        .dataExport,
        .dataRemove,
        .dataSynth,
        .dataSummary,
        .dataFetch,
        .indicators,
        .chart,
        .strategies,
        .signals,
        .run,
        .calibrate,
        .screen,
        .sweep,
        .benchStore,
        .benchIndicators,
        .benchEngine,
        .benchSweep,
        .benchExpr,
        .benchScreen,
        .benchChart,
        .benchHTML,
        .benchStats,
    ]
}
