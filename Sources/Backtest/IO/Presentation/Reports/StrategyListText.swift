import BacktestCore

/// What `bt strategies` prints: each strategy with its parameters, rules, orders and account, as
/// text or JSON. `source` is `built-in` or the strategy file's path.
package enum StrategyListText {
    /// `[{"name", "summary", "source", "params": [{"name", "type", "default", "help"}], "rules":
    /// [{"role", "text"}], "orders": [{"setting", "text"}], "account": [{"setting", "text"}]}]`.
    package static func json(_ listed: [(strategy: Strategy, source: String)]) -> JSONValue {
        .array(listed.map { s, source -> JSONValue in
            let params = s.parameters.map { p -> JSONValue in
                ["name": .string(p.name), "type": .string(p.typeDescription), "default": p.defaultValue.json, "help": .string(p.help)]
            }
            let rules = s.expressions.map { r -> JSONValue in ["role": .string(r.role), "text": .string(r.text)] }
            let settings = { (items: [OrderSettings.Item]) -> JSONValue in
                .array(items.map { ["setting": .string($0.setting.name), "text": .string($0.text)] })
            }
            return ["name": .string(s.name), "summary": .string(s.summary), "source": .string(source),
                    "params": .array(params), "rules": .array(rules), "orders": settings(s.orders.items), "account": settings(s.account)]
        })
    }

    /// `NAME[ (FILE)]: summary`, the parameter table, `role = rule` and `setting = order` lines,
    /// then `[account]` and its `setting = value` lines; a blank line between strategies.
    package static func text(_ listed: [(strategy: Strategy, source: String)]) -> String {
        var out = ""
        for (i, entry) in listed.enumerated() {
            let s = entry.strategy
            if i > 0 { out += "\n" }
            out += (entry.source == "built-in" ? "\(s.name): \(s.summary)" : "\(s.name) (\(entry.source)): \(s.summary)") + "\n"
            if !s.parameters.isEmpty {
                var rows = [["  PARAM", "DEFAULT", "TYPE", "DESCRIPTION"]]
                for p in s.parameters { rows.append(["  \(p.name)", p.defaultValue.description, p.typeDescription, p.help]) }
                out += TextTable.render(rows)
            }
            for rule in s.expressions { out += "  \(rule.role) = \(rule.text)\n" }
            for order in s.orders.items { out += "  \(order.setting.name) = \(order.text)\n" }
            if !s.account.isEmpty { out += "  [account]\n" + s.account.map { "  \($0.setting.name) = \($0.text)\n" }.joined() }
        }
        return out
    }
}
