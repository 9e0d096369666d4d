
extension DepthProfile.PowerLaw {
    /// `A,B` as a power law Q(x) = A x^B, both positive and finite (`--bid-depth`, `--ask-depth`).
    /// - Throws: `InputError` naming `setting`.
    package init(parsing text: String, setting: Setting) throws {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a > 0, b > 0, a.isFinite, b.isFinite else {
            throw InputError("not A,B with A > 0 and B > 0 (Q(x) = A x^B units within x bps)", setting: setting, value: text)
        }
        self.init(a: a, b: b)
    }
}
