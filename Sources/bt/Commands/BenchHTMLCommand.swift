import Foundation
import Backtest
import BacktestBenchmarks
import Strategies

extension Command {
    static let benchHTML = Command(
        path: ["bench", "html"],
        help: EmbeddedAssets.benchHtmlTXT,
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
        try HTMLBenchmark.run(.maCross, bars: counts, out: out, commandLine: args.commandLine) { page in
            rows.append(page.json)
            if !args.flag(.json) { Output.write(page.text) }
        }
        if args.flag(.json) { Output.line(JSONValue.array(rows).serialized()) }
    }
}
