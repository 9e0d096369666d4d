import Backtest
import Foundation

/// bt.h's status codes (`bt_status`), as the @_cdecl functions return them.
enum Status: Int32 {
    case ok = 0
    case input = 1
    case argument = 2
    case length = 3
    case store = 4
    case `internal` = 5
    case cancelled = 6
}

/// A failure found at the boundary, before any library code runs: a NULL pointer, a dead
/// handle, a length that does not fit, a value out of range.
struct BridgeError: Error {
    var status: Status
    var message: String

    init(_ status: Status, _ message: String) {
        self.status = status
        self.message = message
    }

    static func input(_ message: String) -> BridgeError { BridgeError(.input, message) }
    static func argument(_ message: String) -> BridgeError { BridgeError(.argument, message) }
    static func length(_ message: String) -> BridgeError { BridgeError(.length, message) }
}

/// The thread-local last error (`bt_last_error`, `bt_last_status`): a C string per thread, kept
/// under a pthread key so it is freed when its thread ends and one thread's failure never
/// overwrites another's message.
enum LastError {
    /// What a thread keeps: the status and a NUL-terminated copy of the message.
    final class Slot {
        var status: Status = .ok
        var text: UnsafeMutablePointer<CChar>

        init() {
            text = strdup("")!
        }

        deinit { free(text) }

        func set(_ status: Status, _ message: String) {
            let copy = strdup(message) ?? strdup("out of memory")!
            free(text)
            text = copy
            self.status = status
        }
    }

    /// The key, made once (Swift's global initialisation is thread-safe). Its destructor releases
    /// the thread's slot when the thread exits.
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<Slot>.fromOpaque(pointer).release() }
        }
        precondition(made == 0, "pthread_key_create failed")
        return key
    }()

    /// This thread's slot, made on first use.
    static var slot: Slot {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Slot>.fromOpaque(pointer).takeUnretainedValue()
        }
        let slot = Slot()
        pthread_setspecific(key, Unmanaged.passRetained(slot).toOpaque())
        return slot
    }

    static func set(_ status: Status, _ message: String) {
        slot.set(status, message)
    }
}

/// Runs `body` and turns what it throws into a status and this thread's last error: the
/// library's `InputError` is `BT_E_INPUT` with its settings named as bt_config's fields and
/// Python's keywords spell them (`Config.name`), `StoreError` is
/// `BT_E_STORE`, a `BridgeError` keeps its own status, anything else is `BT_E_INTERNAL`.
func guarded(_ body: () throws -> Void) -> Int32 {
    do {
        try body()
        return Status.ok.rawValue
    } catch let e as BridgeError {
        LastError.set(e.status, e.message)
        return e.status.rawValue
    } catch let e as InputError {
        LastError.set(.input, e.text(naming: Config.name))
        return Status.input.rawValue
    } catch let e as StoreError {
        LastError.set(.store, e.description)
        return Status.store.rawValue
    } catch {
        LastError.set(.internal, "internal error: \(error)")
        return Status.internal.rawValue
    }
}

/// Writes `value` into an out-pointer, refusing NULL.
func store<T>(_ value: T, into pointer: UnsafeMutablePointer<T>?, _ what: String) throws {
    guard let pointer else { throw BridgeError.argument("\(what) is NULL") }
    pointer.pointee = value
}
