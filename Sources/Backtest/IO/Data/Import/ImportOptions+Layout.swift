import BacktestCore

extension ImportOptions.Layout {
    /// `long` or `wide`, in any case.
    /// - Throws: `InputError` (setting `.layout`).
    package init(parsing text: String) throws {
        guard let layout = Self(rawValue: text.lowercased()) else {
            throw InputError("is not a layout (valid: long wide)", setting: .layout, value: text)
        }
        self = layout
    }
}
