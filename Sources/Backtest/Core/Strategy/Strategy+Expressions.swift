import Foundation

extension Strategy {
    /// The strategy a strategy file describes: its parameters (types and bounds as declared) and
    /// its rules, evaluated as compiled expressions over whole series.
    public init(file: StrategyFile) {
        self = Self.made(of: file.rules, name: file.name, summary: file.summary,
                         parameters: file.parameters.map(StrategyParameter.init(declared:)), file: file.path, orders: file.orders,
                         account: file.account)
    }

    /// A strategy of `rules`, its signals their compiled plans over whole series.
    private static func made(of rules: SignalRules, name: String, summary: String, parameters: [StrategyParameter],
                             file: String? = nil, orders: OrderSettings = OrderSettings(),
                             account: [OrderSettings.Item] = []) -> Strategy {
        var strategy = Strategy(
            name: name, summary: summary, parameters: parameters, expressions: expressionList(rules), file: file, orders: orders,
            account: account, indicators: indicatorCalls(rules), incremental: { try rules.incremental(values: $0.expressionValues) }
        ) { candles, parameters, cache in
            try rules.signals(on: candles, values: parameters.expressionValues, cache: cache)
        }
        strategy.rules = rules
        return strategy
    }

    /// Whether the strategy's rules read other series with `@` (a rule, not a requirement).
    public var readsOtherSeries: Bool {
        ruleExpressions.contains(where: \.readsOtherSeries)
    }

    /// The symbols other than `symbol` that the rules read with `@` (`close@ETHUSDT`), each
    /// once, in the order they are first read: the streams a live session follows besides its own.
    package func otherSymbols(besides symbol: String) -> [String] {
        var found: [String] = []
        for e in ruleExpressions {
            for (reference, _) in e.expression.root.otherReferences {
                if let s = reference.symbol, s != symbol, !found.contains(s) { found.append(s) }
            }
        }
        return found
    }

    /// The rules of an expression strategy, in `SignalRules.Role` order; none for one in Swift.
    package var ruleExpressions: [LocatedExpression] {
        rules?.rules.map(\.expression) ?? []
    }

    /// Where the rules read other series, once given one (`reading(_:)`): what the run's
    /// manifest lists (`OtherSeriesReader.read`).
    public var otherSeries: OtherSeriesReader? {
        rules?.otherSeries
    }

    /// The strategy with its rules reading other series (`close@SPY`, `sma(close, 50)@1d`) from
    /// `reader`; a strategy written in Swift, unchanged.
    public func reading(_ reader: OtherSeriesReader) -> Strategy {
        guard var rules else { return self }
        rules.otherSeries = reader
        return Self.made(of: rules, name: name, summary: summary, parameters: parameters, file: file, orders: orders,
                         account: account)
    }

    /// Reads and parses the strategy file at `path`.
    /// - Throws: `InputError` naming the file (and line) when it cannot be read or parsed.
    public static func load(file path: String) throws -> Strategy {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let data = FileManager.default.contents(atPath: path) else {
            throw InputError("no strategy file here", at: path)
        }
        return Strategy(file: try StrategyFile(parsing: String(decoding: data, as: UTF8.self), path: path))
    }

    /// A strategy from rules given as text (`--entry`, `--exit`, ...): its parameters are the
    /// `name=value` assignments (a number declares a number, a word declares a word that names
    /// a function) and the `swept` names with their first values.
    /// - Throws: `InputError` for a malformed assignment or an expression error (with a caret
    ///   and the rule's setting).
    public static func expressions(_ texts: [SignalRules.Role: String], parameters assignments: [String] = [],
                                   swept: [(name: String, first: Double)] = []) throws -> Strategy {
        var declared: [StrategyParameter] = []
        func declare(_ p: StrategyParameter) {
            if let i = declared.firstIndex(where: { $0.name == p.name }) { declared[i] = p } else { declared.append(p) }
        }
        for assignment in assignments {
            guard let eq = assignment.firstIndex(of: "="), eq != assignment.startIndex,
                  StrategyFile.isIdentifier(String(assignment[..<eq])) else {
                throw InputError("'\(assignment)' is not name=value with a name of letters, digits and '_'", setting: .parameter)
            }
            let name = String(assignment[..<eq]), text = String(assignment[assignment.index(after: eq)...])
            if let v = Double(text), v.isFinite {
                declare(StrategyParameter(name: name, kind: .double(lower: nil, upper: nil), defaultValue: .double(v), help: "given as a parameter"))
            } else {
                declare(StrategyParameter(name: name, kind: .choice([text]), defaultValue: .string(text), help: "given as a parameter"))
            }
        }
        for (name, first) in swept where !declared.contains(where: { $0.name == name }) {
            declare(StrategyParameter(name: name, kind: .double(lower: nil, upper: nil), defaultValue: .double(first), help: "swept"))
        }
        var located: [SignalRules.Role: LocatedExpression] = [:]
        for (role, text) in texts {
            located[role] = try LocatedExpression(text, origin: .setting(role.setting))
        }
        let rules = try SignalRules(located, parameters: declared.map(\.expressionParameter))
        let summary = rules.rules.map { "\($0.role.rawValue): \($0.expression.text)" }.joined(separator: "; ")
        return made(of: rules, name: "expr", summary: summary, parameters: declared)
    }

    /// Fixed signals (from a file of another tool): the same on every call, for candles of
    /// their length.
    public static func fixed(_ signals: Signals, name: String, source: String) -> Strategy {
        Strategy(name: name, summary: "signals read from \(source)", parameters: [],
                 expressions: [(role: "signals", text: source)]) { candles, _, _ in
            guard candles.count == signals.count else {
                throw InputError("the signals cover \(signals.count) bars, the candles \(candles.count)", at: source)
            }
            return signals
        }
    }

    /// The indicator calls of the rules, bound to the parameters, in the order they are written:
    /// those of the close (`sma(close, $fast)`) or of the candles' own columns (`atr(14)`,
    /// `donchian($period)`), which reports draw. An indicator of another series (`sma(high, 20)`,
    /// `sma(atr(14), 50)`) is not a plain spec and is left out.
    static func indicatorCalls(_ rules: SignalRules) -> @Sendable (StrategyParameters) -> [IndicatorSpec] {
        { parameters in
            var specs: [IndicatorSpec] = []
            func visit(_ node: ExpressionNode) {
                switch node {
                case .column, .constant, .position, .other: break
                case .unary(_, let x), .shift(let x, _), .window(_, let x, _), .barsSince(let x): visit(x)
                case .binary(_, let a, let b), .cross(_, let a, let b): visit(a); visit(b)
                case .indicator(let spec, let input, _):
                    if let input { visit(input) }
                    if (input == nil || input == .column(.close)) && !specs.contains(spec) { specs.append(spec) }
                }
            }
            let values = parameters.expressionValues
            for rule in rules.rules { if let node = try? rule.expression.bind(values, other: .leftOut) { visit(node) } }
            return specs
        }
    }

    private static func expressionList(_ rules: SignalRules) -> [(role: String, text: String)] {
        rules.rules.map { ($0.role.rawValue, $0.expression.text) } + rules.requirements.map { ("require", $0.text) }
    }
}

extension StrategyParameter {
    /// A strategy file's parameter declaration as a parameter: ints keep their whole-number
    /// bounds, numbers their bounds, choices their words.
    init(declared p: StrategyFile.Parameter) {
        switch (p.kind, p.defaultValue) {
        case (.int, .number(let v)):
            let minimum = p.lower.map { b in Self.clamp(b.inclusive ? b.value.rounded(.up) : b.value.rounded(.down) + 1) } ?? .min
            let maximum = p.upper.map { b in Self.clamp(b.inclusive ? b.value.rounded(.down) : b.value.rounded(.up) - 1) } ?? .max
            self.init(name: p.name, kind: .int(minimum: minimum, maximum: maximum), defaultValue: .int(Int(v)), help: p.help)
        case (.number, .number(let v)):
            self.init(name: p.name, kind: .double(lower: p.lower, upper: p.upper), defaultValue: .double(v), help: p.help)
        case (.choice(let options), .word(let w)):
            self.init(name: p.name, kind: .choice(options), defaultValue: .string(w), help: p.help)
        default:
            preconditionFailure("StrategyFile checks that a default matches its type")
        }
    }

    private static func clamp(_ v: Double) -> Int {
        v >= 0x1p62 ? Int.max : v <= -0x1p62 ? Int.min : Int(v)
    }

    /// How expressions see this parameter.
    var expressionParameter: ExpressionParameter {
        switch kind {
        case .int, .double: ExpressionParameter(name, .number)
        case .choice(let options): ExpressionParameter(name, .word(options))
        }
    }
}

extension StrategyParameters {
    /// The values as expressions take them: numbers and words.
    public var expressionValues: [String: ExpressionValue] {
        Dictionary(uniqueKeysWithValues: values.map { name, value in
            switch value {
            case .int(let v): (name, .number(Double(v)))
            case .double(let v): (name, .number(v))
            case .string(let v): (name, .word(v))
            }
        })
    }
}
