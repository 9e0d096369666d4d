/// An expression and where the user wrote it, so that its errors name the place: a setting
/// (`--entry`), or a file and line (a strategy file).
public struct LocatedExpression: Sendable {
    public enum Origin: Sendable, Equatable {
        /// Given as the value of a setting.
        case setting(Setting)
        /// Written in `path`, starting on `line` (1-based).
        case file(path: String, line: Int)
    }

    public let expression: SignalExpression
    public let origin: Origin

    /// Parses `text`.
    /// - Throws: `InputError` at the origin, its reason showing the expression with a caret.
    public init(_ text: String, origin: Origin) throws {
        self.origin = origin
        do {
            expression = try SignalExpression(parsing: text)
        } catch let e as ExpressionError {
            throw Self.inputError(e, origin)
        }
    }

    /// The expression as written.
    public var text: String { expression.source }

    /// Checks names, arguments and types against `parameters`.
    /// - Returns: whether the expression is a number or a condition.
    /// - Throws: `InputError` with the caret.
    @discardableResult
    public func check(parameters: [ExpressionParameter]) throws -> ExpressionType {
        try located {
            let checker = ExpressionChecker(source: text, parameters: parameters)
            let c = try checker.value(expression.root)
            return c.shape == .condition ? .condition : .number
        }
    }

    /// Checks that the expression is a condition (or a number).
    public func check(_ type: ExpressionType, parameters: [ExpressionParameter], for what: String) throws {
        try located {
            let checker = ExpressionChecker(source: text, parameters: parameters)
            try checker.require(expression.root, type, for: what)
        }
    }

    /// The expression with `values` for its parameters.
    /// - Precondition: it passed `check` with parameters of these names.
    /// - Throws: `InputError` with the caret, for values a function cannot take (a period of 2.5)
    ///   or an expression that grows past `ExpressionNode.maximumSize` operations.
    public func bind(_ values: [String: ExpressionValue]) throws -> ExpressionNode {
        try bind(values, other: .refused)
    }

    /// `bind(_:)`, with `other` for what `@` reads.
    func bind(_ values: [String: ExpressionValue], other: ExpressionBinder.Other) throws -> ExpressionNode {
        try located {
            let node = try ExpressionBinder(source: text, values: values, other: other).bind(expression.root)
            if node.isLarger(than: ExpressionNode.maximumSize) {
                throw ExpressionError(.tooLarge, "expression too large: more than \(ExpressionNode.maximumSize) operations once change, rising, falling and zscore are written out",
                                      at: 0..<max(1, text.count), in: text)
            }
            return node
        }
    }

    /// The expression's values on `candles`, one per bar (conditions as 1, 0 or NaN for
    /// unknown), with `parameters` as its `$names`.
    /// - Throws: `InputError` (with a caret) for names, types or values, a position series (it
    ///   has values only inside a run), or from an indicator.
    /// - Parameter other: where `@` finds other series; nil refuses `@`.
    public func values(on candles: CandleSeries, parameters: [String: ExpressionValue] = [:],
                       cache: IndicatorCache = IndicatorCache(), reading other: OtherSeriesReader? = nil) throws -> [Double] {
        try check(parameters: parameters.map { name, value in
            switch value {
            case .number: ExpressionParameter(name, .number)
            case .word(let w): ExpressionParameter(name, .word([w]))
            }
        })
        try requireNoPositionSeries(for: "an expression evaluated over whole series")
        let plan = ExpressionPlan([try bind(parameters, other: other.map { .read($0, run: candles) } ?? .refused)])
        return try plan.evaluate(on: candles, cache: cache, workspace: ExpressionWorkspace()) { Array($0[0]) }
    }

    /// The value of a constant expression (parameters only), nil when it reads any series.
    func constantValue(_ values: [String: ExpressionValue]) -> Double? {
        ExpressionFolding.value(expression.root, parameters: values)
    }

    /// Whether the expression depends on parameters only.
    func isConstant(parameters: [ExpressionParameter]) throws -> Bool {
        try located { try ExpressionChecker(source: text, parameters: parameters).value(expression.root).constant }
    }

    private func located<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as ExpressionError { throw Self.inputError(e, origin) }
    }

    /// `e` as an `InputError` at `origin`: `--entry: reason` or `file:line: reason`, then the
    /// expression's line with a caret.
    static func inputError(_ e: ExpressionError, _ origin: Origin) -> InputError {
        switch origin {
        case .setting(let s): return InputError(e.description, setting: s)
        case .file(let path, let line): return InputError(e.description, file: path, line: line + e.line)
        }
    }
}

extension LocatedExpression.Origin {
    /// `reason` about `setting`'s value `text` given here: named by the setting (`--sl '...':
    /// reason`), or at the file's line by the setting's name (`file:3: sl '...': reason`).
    func inputError(_ setting: Setting, value text: String, _ reason: String) -> InputError {
        switch self {
        case .setting(let s): return InputError(reason, setting: s, value: text)
        case .file(let path, let line): return InputError("\(setting.name) \(Excerpt.quoted(text)): \(reason)", file: path, line: line)
        }
    }
}

/// A strategy written as expressions: entry and exit conditions (and short ones), the
/// parameters they use, and requirements on the parameters (`$fast < $slow`).
///
/// Checked once when made; `signals(on:values:cache:)` binds the parameter values, compiles one
/// plan for all rules (shared subexpressions computed once) and runs it. Workspaces are pooled,
/// so a sweep's combinations reuse their buffers. A rule that reads position series
/// (`trade_return > 0.05`) becomes a `PositionRule`: its parts that do not read the position are
/// roots of the same plan, and the rest is evaluated bar by bar during the run.
public struct SignalRules: Sendable {
    public enum Role: String, Sendable, CaseIterable {
        case entry, exit
        case shortEntry = "short_entry"
        case shortExit = "short_exit"

        /// The setting that gives this rule on a command line.
        public var setting: Setting {
            switch self {
            case .entry: .entry
            case .exit: .exit
            case .shortEntry: .shortEntry
            case .shortExit: .shortExit
            }
        }
    }

    public let parameters: [ExpressionParameter]
    /// The rules present, in `Role` order: entry and exit, short entry and short exit, or both
    /// pairs (a short-only strategy's long signals are all false).
    public let rules: [(role: Role, expression: LocatedExpression)]
    public let requirements: [LocatedExpression]
    /// Where rules that read other series with `@` find them; nil: such rules are refused
    /// (with a caret at the `@`) when bound.
    public var otherSeries: OtherSeriesReader?
    private let pool = ExpressionWorkspace.Pool()

    /// - Throws: `InputError` (with a caret) when a rule is not a condition or uses an unknown
    ///   name, or a requirement reads a series; when neither pair is complete, or a pair is half
    ///   given.
    public init(_ rules: [Role: LocatedExpression], requirements: [LocatedExpression] = [],
                parameters: [ExpressionParameter]) throws {
        if (rules[.shortEntry] == nil) != (rules[.shortExit] == nil) {
            throw InputError("short rules come in pairs: give both short_entry and short_exit",
                             setting: rules[.shortEntry] == nil ? .shortEntry : .shortExit)
        }
        let shortOnly = rules[.entry] == nil && rules[.exit] == nil && rules[.shortEntry] != nil
        guard shortOnly || (rules[.entry] != nil && rules[.exit] != nil) else {
            throw InputError("a strategy needs both an entry and an exit rule (or, short only, both short_entry and short_exit)",
                             setting: rules[.entry] == nil ? .entry : .exit)
        }
        self.parameters = parameters
        self.rules = Role.allCases.compactMap { role in rules[role].map { (role, $0) } }
        self.requirements = requirements
        for (role, e) in self.rules {
            try e.check(.condition, parameters: parameters, for: "the \(role.rawValue.replacingOccurrences(of: "_", with: " ")) rule")
        }
        for r in requirements {
            try r.check(.condition, parameters: parameters, for: "a requirement")
            guard try r.isConstant(parameters: parameters) else {
                throw LocatedExpression.inputError(
                    ExpressionError(.notConstant, "a requirement may use parameters only, not series", at: 0..<r.text.count, in: r.text),
                    r.origin)
            }
        }
    }

    /// The rule for `role`, if given.
    public subscript(role: Role) -> LocatedExpression? {
        rules.first { $0.role == role }?.expression
    }

    /// The rules bound to `values` and compiled into one plan, roots in `rules` order. A plan of
    /// rules that read position series refuses to run (`signals` splits them off).
    /// - Throws: `InputError` for a requirement that does not hold (setting `.parameter`) or a
    ///   value a function cannot take (with a caret).
    public func plan(_ values: [String: ExpressionValue]) throws -> ExpressionPlan {
        ExpressionPlan(try bound(values))
    }

    /// The rules bound to `values`, in `rules` order, once the requirements hold.
    func bound(_ values: [String: ExpressionValue], on candles: CandleSeries? = nil) throws -> [ExpressionNode] {
        for r in requirements where r.constantValue(values) != 1 {
            let shown = parameters.compactMap { p -> String? in
                switch values[p.name] {
                case .number(let v)?: return "\(p.name)=\(NumberText.shortest(v))"
                case .word(let w)?: return "\(p.name)=\(w)"
                case nil: return nil
                }
            }
            throw InputError("requirement '\(r.text)' does not hold (\(shown.joined(separator: ", ")))", setting: .parameter)
        }
        let other: ExpressionBinder.Other = if let otherSeries, let candles { .read(otherSeries, run: candles) } else { .refused }
        return try rules.map { try $0.expression.bind(values, other: other) }
    }

    /// The signals on `candles` with `values` for the parameters; indicators from `cache`
    /// (which must belong to `candles`). A rule fires where its condition is true (1); unknown
    /// (NaN) is not true. A rule that reads position series is in `positionRules`, and its
    /// vector is all false.
    public func signals(on candles: CandleSeries, values: [String: ExpressionValue],
                        cache: IndicatorCache = IndicatorCache()) throws -> Signals {
        let nodes = try bound(values, on: candles)
        let programs = nodes.map(PositionProgram.init)
        var truth: [[Bool]]
        var positionRules = PositionRules()
        if programs.allSatisfy({ $0 == nil }) {
            let plan = ExpressionPlan(nodes)
            truth = try pool.withWorkspace { try plan.truths(on: candles, cache: cache, workspace: $0) }
        } else {
            // One plan: the rules that do not read the position as signals, then the parts of
            // those that do, as arrays.
            let plain = nodes.indices.filter { programs[$0] == nil }
            let parts = programs.compactMap { $0?.subtrees }
            let plan = ExpressionPlan(plain.map { nodes[$0] } + parts.joined())
            let (truths, arrays) = try pool.withWorkspace {
                try plan.outputs(on: candles, cache: cache, workspace: $0, truths: plain.count)
            }
            let none = [Bool](repeating: false, count: candles.count)
            truth = Array(repeating: none, count: nodes.count)
            for (k, i) in plain.enumerated() { truth[i] = truths[k] }
            var next = 0
            for (i, program) in programs.enumerated() {
                guard let program else { continue }
                let columns = Array(arrays[next..<next + program.subtrees.count])
                next += program.subtrees.count
                positionRules[rules[i].role] = program.rule(columns: columns, count: candles.count)
            }
        }
        func column(_ role: Role) -> [Bool]? { rules.firstIndex { $0.role == role }.map { truth[$0] } }
        let never = [Bool](repeating: false, count: candles.count)
        var signals = Signals(entries: column(.entry) ?? never, exits: column(.exit) ?? never,
                              shortEntries: column(.shortEntry), shortExits: column(.shortExit),
                              positionRules: positionRules.isEmpty ? nil : positionRules)
        signals.unaligned = UnalignedBars.of(nodes, on: candles)
        return signals
    }
}
