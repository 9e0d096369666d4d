import Foundation
import Testing
@testable import BacktestPresentation

@Suite("sweep.csv's pareto column")
struct SweepParetoCSVTests {
    @Test("added last to the header and to each record, a record ending at a line break outside quotes")
    func column() {
        let csv = "fast,sharpe,status,error\n5,1.2,ok,\n6,,error,\"bad, \"\"x\"\"\nsecond line\"\n7,0.3,ok,\n"
        #expect(SweepReport.csvAddingParetoColumn(Array(csv.utf8), members: [true, false, false])
                == "fast,sharpe,status,error,pareto\n5,1.2,ok,,true\n6,,error,\"bad, \"\"x\"\"\nsecond line\",false\n7,0.3,ok,,false\n")
    }
}
