/// `name=value` assignments for expressions that are not a strategy (condition screens, a
/// rotation's rank): a number defines a number `$name`, anything else a word.
package enum ExpressionAssignment {
    package static func parse(_ text: String) throws -> (name: String, value: ExpressionValue) {
        guard let eq = text.firstIndex(of: "="), StrategyFile.isIdentifier(String(text[..<eq])) else {
            throw InputError("'\(text)' is not name=value with a name of letters, digits and '_'", setting: .parameter)
        }
        let value = String(text[text.index(after: eq)...])
        if let v = Double(value), v.isFinite { return (String(text[..<eq]), .number(v)) }
        return (String(text[..<eq]), .word(value))
    }
}
