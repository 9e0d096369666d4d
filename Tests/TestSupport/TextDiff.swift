/// A short line diff for a failed snapshot: where the texts first differ, with a few lines of
/// context, the differing lines of each side (`-` expected, `+` actual) and the line counts.
package enum TextDiff {
    /// Nil when the texts are equal.
    package static func describe(expected: String, actual: String, context: Int = 3, shown: Int = 12) -> String? {
        guard expected != actual else { return nil }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var first = 0
        while first < old.count && first < new.count && old[first] == new[first] { first += 1 }
        // Trailing lines in common, so an insertion shows as one line, not the rest of the file.
        var oldEnd = old.count, newEnd = new.count
        while oldEnd > first && newEnd > first && old[oldEnd - 1] == new[newEnd - 1] { oldEnd -= 1; newEnd -= 1 }
        var out = ["first difference at line \(first + 1) (expected \(old.count) lines, got \(new.count)):"]
        for i in max(0, first - context)..<first { out.append("  " + clipped(old[i])) }
        for i in first..<min(oldEnd, first + shown) { out.append("- " + clipped(old[i])) }
        if oldEnd - first > shown { out.append("- ... \(oldEnd - first - shown) more") }
        for i in first..<min(newEnd, first + shown) { out.append("+ " + clipped(new[i])) }
        if newEnd - first > shown { out.append("+ ... \(newEnd - first - shown) more") }
        if oldEnd - first == 1 && newEnd - first == 1 {
            let a = Array(old[first]), b = Array(new[first])
            let column = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            out.append("  (line \(first + 1) differs from column \(column + 1))")
        }
        return out.joined(separator: "\n")
    }

    private static func clipped(_ line: Substring) -> String {
        line.count > 200 ? String(line.prefix(200)) + "..." : String(line)
    }
}
