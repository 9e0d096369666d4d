import Foundation

/// The C strings bt.h takes (arguments, `bt_bars` and `bt_config` fields, parameter lists), read
/// as Swift strings in one place. bt.h takes NUL-terminated UTF-8: a string that is not UTF-8 is
/// refused with `BT_E_INPUT` naming the argument, never repaired (decoding would put U+FFFD in a
/// symbol, a path or an expression and go on with a value the caller did not give).
///
/// A NUL inside a caller's string cannot be seen here: C ends the string at it. Bindings from
/// languages whose strings may hold NUL refuse it before encoding (btcore does, `_lib.text`).

/// A C string argument that must be given.
func requiredString(_ pointer: UnsafePointer<CChar>?, _ what: String) throws -> String {
    guard let pointer else { throw BridgeError.argument("\(what) is NULL") }
    return try utf8(pointer, what)
}

/// A C string argument that may be NULL (nil).
func optionalString(_ pointer: UnsafePointer<CChar>?, _ what: String) throws -> String? {
    try pointer.map { try utf8($0, what) }
}

/// `count` C strings (`"name=value"`), NULL allowed when there are none.
func stringList(_ list: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int, _ what: String) throws -> [String] {
    guard count >= 0, count <= 1 << 20 else { throw BridgeError.length("\(what): count \(count) is not a count") }
    if count == 0 { return [] }
    guard let list else { throw BridgeError.argument("\(what) is NULL but its count is \(count)") }
    return try (0..<count).map { i in
        guard let s = list[i] else { throw BridgeError.argument("\(what)[\(i)] is NULL") }
        return try utf8(s, "\(what)[\(i)]")
    }
}

/// The string at `pointer`, which must be UTF-8.
/// - Throws: `BT_E_INPUT` naming `what` and the first byte that is not UTF-8.
private func utf8(_ pointer: UnsafePointer<CChar>, _ what: String) throws -> String {
    if let text = String(validatingCString: pointer) { return text }
    let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while case .valid(let scalar) = parser.parseScalar(from: &iterator) { offset += scalar.count }
    let hex = String(bytes[min(offset, bytes.count - 1)], radix: 16, uppercase: true)
    throw BridgeError.input("\(what): not UTF-8 at byte \(offset) (0x\(hex)): bt.h takes UTF-8 text")
}
