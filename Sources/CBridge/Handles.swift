import Foundation

/// The live handles the library gave out (`bt_expr *`, `bt_result *`, ...), so that a freed, foreign
/// or wrong-kind pointer is refused with `BT_E_ARGUMENT` instead of being dereferenced: every
/// call looks its handle up here before touching it. A handle is the address of its object,
/// which the table keeps alive until the handle is freed; a call holds its own reference, so a
/// handle freed by another thread meanwhile stays valid to the end of the call. One lock (a
/// lookup costs far less than any call that takes a handle).
final class Handles: @unchecked Sendable {
    static let shared = Handles()

    private let lock = NSLock()
    private var live: [UnsafeMutableRawPointer: AnyObject] = [:]

    /// A new handle for `object`.
    func add(_ object: AnyObject) -> OpaquePointer {
        let pointer = Unmanaged.passUnretained(object).toOpaque()
        lock.lock()
        live[pointer] = object
        lock.unlock()
        return OpaquePointer(pointer)
    }

    /// The object behind `handle` when it is a live handle of type `T`.
    /// - Throws: `BT_E_ARGUMENT` naming `what` for NULL, a dead handle or another kind of handle.
    func get<T: AnyObject>(_ handle: OpaquePointer?, as type: T.Type, _ what: String) throws -> T {
        guard let handle else { throw BridgeError.argument("\(what) is NULL") }
        lock.lock()
        let object = live[UnsafeMutableRawPointer(handle)]
        lock.unlock()
        guard let object else { throw BridgeError.argument("\(what) is not a live handle (freed already, or never made by bt)") }
        guard let typed = object as? T else { throw BridgeError.argument("\(what) is a handle of another kind (\(Swift.type(of: object)))") }
        return typed
    }

    /// Releases `handle` when it is a live handle of type `T`; NULL is ignored, as `free(NULL)`.
    /// - Returns: false for a dead or wrong-kind handle (nothing is released).
    @discardableResult
    func remove<T: AnyObject>(_ handle: OpaquePointer?, as type: T.Type) -> Bool {
        guard let handle else { return true }
        let key = UnsafeMutableRawPointer(handle)
        lock.lock()
        guard let object = live[key], object is T else {
            lock.unlock()
            return false
        }
        live[key] = nil
        lock.unlock()
        return true
    }
}

/// Frees a handle for a `_free` function: a dead or wrong-kind pointer sets the last error
/// (the function returns nothing) instead of crashing.
func freeHandle<T: AnyObject>(_ handle: OpaquePointer?, as type: T.Type, _ what: String) {
    if !Handles.shared.remove(handle, as: type) {
        LastError.set(.argument, "\(what): not a live handle (freed already, or never made by bt)")
    }
}
