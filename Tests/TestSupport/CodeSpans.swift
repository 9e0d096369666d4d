/// CommonMark inline code spans, for reading markdown back in tests: a run of n backticks opens a
/// span that the next run of exactly n closes (an unmatched run is text).
public enum CodeSpans {
    /// The contents of `md`'s code spans, one leading and trailing space stripped when both are
    /// there (CommonMark), `\|` read as `|` (a GitHub table cell).
    public static func codeSpans(in md: String) -> [String] {
        split(md).spans.map { span in
            var s = span.replacingOccurrences(of: "\\|", with: "|")
            if s.count >= 2, s.hasPrefix(" "), s.hasSuffix(" "), s.contains(where: { $0 != " " }) { s = String(s.dropFirst().dropLast()) }
            return s
        }
    }

    /// `md` without its inline code spans.
    public static func outside(_ md: String) -> String { split(md).outside }

    private static func split(_ md: String) -> (outside: String, spans: [String]) {
        let chars = Array(md)
        func run(at i: Int) -> Int { var j = i; while j < chars.count && chars[j] == "`" { j += 1 }; return j - i }
        var outside = "", spans: [String] = [], i = 0
        while i < chars.count {
            guard chars[i] == "`" else { outside.append(chars[i]); i += 1; continue }
            let n = run(at: i)
            var j = i + n, close: Int?
            while j < chars.count {
                if chars[j] == "`" {
                    let m = run(at: j)
                    if m == n { close = j; break }
                    j += m
                } else {
                    j += 1
                }
            }
            guard let close else { outside += String(chars[i..<(i + n)]); i += n; continue }
            spans.append(String(chars[(i + n)..<close]))
            i = close + n
        }
        return (outside, spans)
    }
}
