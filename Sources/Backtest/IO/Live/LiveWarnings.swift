/// A live session's warnings, repeated ones coalesced: each kind (`key`) is kept once, with its
/// first text and a count, so a fault that repeats for hours (a server whose every snapshot is
/// refused) is one line of the summary, not one per occurrence. `add` says when a repeat is
/// worth a line as it happens: the first, then the 10th, 100th, 1,000th ...
package struct LiveWarnings: Sendable {
    private var keys: [String] = []
    private var entries: [String: (text: String, count: Int)] = [:]

    package init() {}

    /// Counts a warning of kind `key` (its text when nil); returns the line to show now, nil
    /// when this repeat is only counted.
    package mutating func add(_ text: String, key: String? = nil) -> String? {
        let k = key ?? text
        guard var entry = entries[k] else {
            keys.append(k)
            entries[k] = (text, 1)
            return text
        }
        entry.count += 1
        entries[k] = entry
        var n = entry.count
        while n % 10 == 0 { n /= 10 }
        return n == 1 ? "\(entry.text) (\(entry.count) times so far)" : nil
    }

    /// How many warnings of kind `key` were added.
    package func count(_ key: String) -> Int { entries[key]?.count ?? 0 }

    /// One line per kind, in the order first seen: its first text, and the count when it repeated.
    package var lines: [String] {
        keys.map { k in
            let e = entries[k]!
            return e.count == 1 ? e.text : "\(e.text) (\(e.count) times in all)"
        }
    }
}
