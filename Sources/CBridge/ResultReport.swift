import Backtest
import CBTABI
import Foundation

// A run's report from C: the folder `bt run --out` writes, and its interactive page alone.

@_cdecl("bt_result_report")
public func bt_result_report(_ handle: OpaquePointer?, _ directory: UnsafePointer<CChar>?, _ withCosts: Int32,
                             _ force: Int32) -> Int32 {
    guarded {
        let directory = try requiredString(directory, "directory")
        try Report.checkDestination(directory, force: force != 0)
        try run(handle).report(withCosts: withCosts != 0).write(to: directory, force: force != 0)
    }
}

@_cdecl("bt_result_html")
public func bt_result_html(_ handle: OpaquePointer?, _ withCosts: Int32, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                           _ length: UnsafeMutablePointer<Int>?) -> Int32 {
    guarded {
        try copyText(try run(handle).html(withCosts: withCosts != 0), into: buffer, capacity: capacity, length: length,
                     "bt_result_html")
    }
}

extension RunHandle {
    /// report.html of the run, made once per `withCosts` (a caller asks for the length, then
    /// for the text).
    func html(withCosts: Bool) throws -> String {
        try page(withCosts: withCosts) { try report(withCosts: withCosts).html() }
    }
}
