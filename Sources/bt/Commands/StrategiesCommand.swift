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
            let items = listed.map { s, source -> JSONValue in
                let params = s.parameters.map { p -> JSONValue in
                    ["name": .string(p.name), "type": .string(p.typeDescription), "default": p.defaultValue.json,
                     "help": .string(p.help)]
                }
                let rules = s.expressions.map { r -> JSONValue in ["role": .string(r.role), "text": .string(r.text)] }
                let orders = s.orders.items.map { o -> JSONValue in ["setting": .string(o.setting.name), "text": .string(o.text)] }
                return ["name": .string(s.name), "summary": .string(s.summary), "source": .string(source),
                        "params": .array(params), "rules": .array(rules), "orders": .array(orders)]
            }
            Output.line(JSONValue.array(items).serialized())
            return
        }
        for (i, entry) in listed.enumerated() {
            let s = entry.strategy
            if i > 0 { Output.line() }
            Output.line(entry.source == "built-in" ? "\(s.name): \(s.summary)" : "\(s.name) (\(entry.source)): \(s.summary)")
            if !s.parameters.isEmpty {
                var rows = [["  PARAM", "DEFAULT", "TYPE", "DESCRIPTION"]]
                for p in s.parameters {
                    rows.append(["  \(p.name)", p.defaultValue.description, p.typeDescription, p.help])
                }
                Output.write(TextTable.render(rows))
            }
            for rule in s.expressions { Output.line("  \(rule.role) = \(rule.text)") }
            for order in s.orders.items { Output.line("  \(order.setting.name) = \(order.text)") }
        }
        Output.line()
        Output.line("Run one with 'bt run STRATEGY SYMBOL --param name=value'; a file strategy also by its path.")
        if library.files.isEmpty { Output.line("No strategy files in \(library.directory).") }
    }
}
