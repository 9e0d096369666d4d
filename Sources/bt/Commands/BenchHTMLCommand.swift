import Foundation
import Backtest
import Strategies

extension Command {
    static let benchHTML = Command(
        path: ["bench", "html"],
        summary: "Write report.html pages of 10k, 100k and 1M bars and time writing them",
        discussion: """
            For each bar count: synthetic 1m bars ('Synth.series', seed 1), ma-cross 10/30 with
            synthetic depth, and two pages as bt writes them: a run page (candles, volume, SMA 10
            and 30, equity, trades, fills, statistics) and a chart page (candles and volume, as
            'bt chart --html' writes). Prints the time to build each page and its size per
            100,000 bars. First paint in a browser: Tests/Browser/bench_first_paint.py opens
            these pages in headless Chromium (make bench-html). --json prints
            [{"bars", "page", "path", "bytes", "build_ms"}].
            """,
        options: [
            .bars.withHelp("Bar counts, comma-separated (default 10000,100000,1000000)", valueName: "N,..."),
            .out.withHelp("Directory for the pages (default: a temporary directory)"),
            .force.withHelp("Write into an existing --out directory"),
            .json,
        ]
    ) { args in
        let counts = try (args.value(.bars) ?? "10000,100000,1000000").split(separator: ",").map { word -> Int in
            guard let n = Int(word.trimmingCharacters(in: .whitespaces)), n >= 31 else {
                throw UsageError("\(Option.bars): '\(word)' is not a bar count of at least 31", command: "bench html")
            }
            return n
        }
        let out = args.value(.out) ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("bt-bench-html-\(getpid())")
        try OutputDirectory.prepare(out, force: args.flag(.force) || args.value(.out) == nil)
        var rows: [JSONValue] = []
        for n in counts {
            let candles = Synth.series(symbol: "BENCH", bars: n, seed: 1, timeframe: .minute1)
            let parameters = try Strategy.maCross.parameters([])
            let result = try Engine.run(candles, signals: try Strategy.maCross.signals(candles, parameters), config: ExecutionConfig())
            var report = Report(strategy: "ma-cross", parameters: parameters.runParameters, execution: ExecutionConfig().parameters,
                                commandLine: args.commandLine, result: result, stats: Stats(result), costs: nil)
            report.indicators = Strategy.maCross.indicators(parameters)
            let pages: [(String, () throws -> String)] = [
                ("run", { report.html() }),
                ("chart", { try ChartReport(candles: candles, specs: [], commandLine: args.commandLine).html() }),
            ]
            for (name, build) in pages {
                let start = DispatchTime.now().uptimeNanoseconds
                let html = try build()
                let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                let directory = (out as NSString).appendingPathComponent("\(name)-\(n)")
                try OutputDirectory.prepare(directory, force: true)
                let path = try OutputDirectory.write(html, to: "report.html", in: directory)
                let bytes = html.utf8.count
                rows.append(["bars": .int(n), "page": .string(name), "path": .string(path), "bytes": .int(bytes),
                             "build_ms": .numberLiteral(String(format: "%.1f", ms))])
                if !args.flag(.json) {
                    Output.line(name.padding(toLength: 6, withPad: " ", startingAt: 0)
                                + String(format: "%9d bars  built in %8.1f ms  %8.2f MB  %5.2f MB per 100k bars  ",
                                         n, ms, Double(bytes) / 1e6, Double(bytes) / Double(n) * 1e5 / 1e6) + path)
                }
            }
        }
        if args.flag(.json) { Output.line(JSONValue.array(rows).serialized()) }
    }
}
