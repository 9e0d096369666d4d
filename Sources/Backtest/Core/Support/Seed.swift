/// A random seed as typed (`--seed`).
package enum Seed {
    /// `text` as a whole number from 0 to `maximum` (`_` may group digits); 1 when not given.
    /// - Throws: `InputError` (setting `seed`) for anything else.
    package static func parse(_ text: String?, maximum: UInt64 = .max) throws -> UInt64 {
        guard let text else { return 1 }
        guard let seed = UInt64(text.replacingOccurrences(of: "_", with: "")), seed <= maximum else {
            throw InputError("not a whole number from 0 to \(maximum)", setting: .seed, value: text)
        }
        return seed
    }
}
