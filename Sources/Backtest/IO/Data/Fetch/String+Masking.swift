import Foundation

extension String {
    /// With every occurrence of `secret` (an API key a server echoed back) replaced by `***`,
    /// as `URL.shown` hides an `apikey` query value.
    func masking(_ secret: String?) -> String {
        guard let secret, !secret.isEmpty else { return self }
        return replacingOccurrences(of: secret, with: "***")
    }
}
