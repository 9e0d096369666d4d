import Backtest
import Strategies

extension Command {
    static let strategies = Command(
        path: ["strategies"],
        help: EmbeddedAssets.strategiesTXT,
        options: [.strategies, .json]
    ) { args in
        let library = args.strategyLibrary
        var listed: [(strategy: Strategy, source: String)] = Strategy.all.map { ($0, "built-in") }
        for (path, result) in library.fileStrategies() {
            switch result {
            case .success(let s): listed.append((s, path))
            case .failure(let error): Diagnostics.line("warning: skipped \(path): \(ErrorMessage.text(error))")
            }
        }
        if args.flag(.json) {
            Output.line(StrategyListText.json(listed).serialized())
            return
        }
        Output.write(StrategyListText.text(listed))
        Output.line()
        Output.line("Run one with 'bt run STRATEGY SYMBOL --param name=value'; a file strategy also by its path.")
        if library.files.isEmpty { Output.line("No strategy files in \(library.directory).") }
    }
}
