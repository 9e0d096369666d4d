import Backtest
import Strategies

extension Command {
    static let strategies = Command(
        path: ["strategies"],
        summary: "List the strategies with their parameters, defaults and descriptions",
        discussion: "--json prints [{\"name\", \"summary\", \"params\": [{\"name\", \"type\", \"default\", \"help\"}]}].",
        options: [.json]
    ) { args in
        if args.flag(.json) {
            let items = Strategy.all.map { s in
                let params = s.parameters.map { p in
                    let value: String
                    switch p.defaultValue {
                    case .int(let i): value = String(i)
                    case .double(let d): value = JSONWriter.number(d)
                    case .string(let text): value = JSONWriter.string(text)
                    }
                    return "{\"name\":\(JSONWriter.string(p.name)),\"type\":\(JSONWriter.string(p.typeDescription)),"
                        + "\"default\":\(value),\"help\":\(JSONWriter.string(p.help))}"
                }
                return "{\"name\":\(JSONWriter.string(s.name)),\"summary\":\(JSONWriter.string(s.summary)),"
                    + "\"params\":[\(params.joined(separator: ","))]}"
            }
            Output.line("[\(items.joined(separator: ","))]")
            return
        }
        for (i, s) in Strategy.all.enumerated() {
            if i > 0 { Output.line() }
            Output.line("\(s.name): \(s.summary)")
            var rows = [["  PARAM", "DEFAULT", "TYPE", "DESCRIPTION"]]
            for p in s.parameters {
                rows.append(["  \(p.name)", p.defaultValue.description, p.typeDescription, p.help])
            }
            Output.write(TextTable.render(rows))
        }
        Output.line()
        Output.line("Set parameters with 'bt run STRATEGY SYMBOL --param name=value'.")
    }
}
