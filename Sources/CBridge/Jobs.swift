import Backtest
import CBTABI
import Foundation

/// Text a many-run call made (`bt_text`): a portfolio's report as JSON, read with
/// `bt_text_copy`. Read-only once made.
final class TextHandle: Sendable {
    let text: String

    init(_ text: String) { self.text = text }
}

/// The `name=value` options of a many-run call (`bt_portfolio`'s "max_positions=5",
/// "rank=roc(close, 20)"), named as btcore's keywords and the command line's options (with
/// dashes there): each known name at most once, an unknown one refused with the closest known.
struct JobOptions {
    private var values: [String: String] = [:]

    init(_ list: [String], known: [String], _ what: String) throws {
        for item in list {
            guard let eq = item.firstIndex(of: "=") else { throw BridgeError.input("\(what) '\(item)': not name=value") }
            let name = String(item[..<eq]), value = String(item[item.index(after: eq)...])
            guard known.contains(name) else {
                let hint = Suggest.closest(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
                throw BridgeError.input("\(what): unknown option '\(name)' (known: \(known.joined(separator: ", ")))\(hint)")
            }
            guard values.updateValue(value, forKey: name) == nil else { throw BridgeError.input("\(what): \(name) is given twice") }
        }
    }

    subscript(_ name: String) -> String? { values[name] }

    /// A whole number option ("5"), nil when not given.
    func int(_ name: String) throws -> Int? {
        try values[name].map { text in
            guard let v = Int(text) else { throw BridgeError.input("\(name) '\(text)': not a whole number") }
            return v
        }
    }

    /// A flag: "1" or "true" on, "0" or "false" (or not given) off.
    func flag(_ name: String) throws -> Bool {
        switch values[name] {
        case nil, "0", "false": return false
        case "1", "true": return true
        case let text?: throw BridgeError.input("\(name) '\(text)': give 1 or 0")
        }
    }
}

@_cdecl("bt_text_copy")
public func bt_text_copy(_ handle: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                         _ length: UnsafeMutablePointer<Int>?) -> Int32 {
    guarded {
        let text = try Handles.shared.get(handle, as: TextHandle.self, "text").text
        try copyText(text, into: buffer, capacity: capacity, length: length, "bt_text_copy")
    }
}

@_cdecl("bt_text_free")
public func bt_text_free(_ handle: OpaquePointer?) {
    freeHandle(handle, as: TextHandle.self, "bt_text_free")
}
