extension SignalExpression {
    /// The `$names` the expression reads, as values or as callees (`$type(close, 10)`).
    public var parameterNames: Set<String> {
        var names = Set<String>()
        func visit(_ node: ExpressionSyntax) {
            switch node.kind {
            case .parameter(let name): names.insert(name)
            case .call(.parameter(let name), _, _): names.insert(name)
            default: break
            }
            node.children.forEach(visit)  // at most `maximumDepth` levels
        }
        visit(root)
        return names
    }
}

extension Strategy {
    /// Of `names` (parameters set by `--param` or swept by `--grid` for rules given as text),
    /// those that none of `expressions` (the rules, and other expressions that read the
    /// parameters, such as a portfolio's rank) reads as `$name` and no word of `filters` (a
    /// sweep's where clause, which names them bare) names: settings that change nothing. Text
    /// that does not parse reads nothing here; it is refused where it is read.
    public static func unusedParameters(_ names: [String], expressions: [String], filters: [String] = []) -> [String] {
        var used = Set<String>()
        for text in expressions { if let e = try? SignalExpression(parsing: text) { used.formUnion(e.parameterNames) } }
        for text in filters {
            used.formUnion(text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
        }
        var seen = Set<String>()
        return names.filter { !used.contains($0) && seen.insert($0).inserted }
    }
}
