extension Dictionary where Key == String, Value == ExpressionValue {
    /// The names and kinds an expression may read: numbers, and each word as its only choice.
    package var expressionParameters: [ExpressionParameter] {
        map { name, value in
            switch value {
            case .number: ExpressionParameter(name, .number)
            case .word(let w): ExpressionParameter(name, .word([w]))
            }
        }
    }
}
