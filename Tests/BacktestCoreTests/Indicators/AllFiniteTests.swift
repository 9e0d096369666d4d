import Testing
@testable import BacktestCore

/// `Indicators.allFinite`, the branch-free scan that lets clean inputs skip the search for
/// finite runs (`forEachFiniteRun`) and ATR's checked path.
@Suite("Indicators.allFinite")
struct AllFiniteTests {
    @Test("allFinite sees a NaN or an infinity at any position of any input")
    func allFinite() {
        for n in 0..<20 {  // two eight-value steps and every tail
            let clean = (0..<n).map { Double($0) - 3.5 }
            #expect(clean.withUnsafeBufferPointer { Indicators.allFinite([$0, $0]) })
            for i in 0..<n {
                for bad in [Double.nan, .infinity, -.infinity] {
                    var x = clean
                    x[i] = bad
                    #expect(!clean.withUnsafeBufferPointer { c in x.withUnsafeBufferPointer { Indicators.allFinite([c, $0]) } })
                }
            }
        }
    }
}
