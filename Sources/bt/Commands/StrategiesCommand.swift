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
            let items = Strategy.all.map { s -> JSONValue in
                let params = s.parameters.map { p -> JSONValue in
                    ["name": .string(p.name), "type": .string(p.typeDescription), "default": p.defaultValue.json,
                     "help": .string(p.help)]
                }
                return ["name": .string(s.name), "summary": .string(s.summary), "params": .array(params)]
            }
            Output.line(JSONValue.array(items).serialized())
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
