/// The error `bt live` ends with when the stream sent nothing (exit 1): a session that received
/// nothing did nothing, so a wrong address is not taken for a quiet market.
package struct LiveSilence: Error, CustomStringConvertible {
    package let description: String

    package init(description: String) {
        self.description = description
    }
}
