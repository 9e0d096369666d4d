import BacktestCore
import Foundation

extension DepthCalibration {
    /// The held-out share of `--holdout`: a fraction (`0.3`, `30%`) in [0, 1).
    /// - Throws: `InputError` (setting `.holdout`).
    package static func holdout(parsing text: String) throws -> Double {
        let holdout = try ExecutionConfig.parseFraction(text, setting: .holdout)
        guard holdout >= 0 && holdout < 1 else {
            throw InputError("the held-out share must be in [0, 1)", setting: .holdout, value: text)
        }
        return holdout
    }

    /// The order sizes of `--sizes`: a comma-separated list of positive numbers.
    /// - Throws: `InputError` (setting `.sizes`).
    package static func sizes(parsing text: String) throws -> [Double] {
        let parsed = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ $0 != nil && $0! > 0 && $0!.isFinite }) else {
            throw InputError("not a list of positive order sizes like 0.01,0.1,1", setting: .sizes, value: text)
        }
        return parsed.map { $0! }
    }
}
