import Foundation

/// An indicator call's inputs made safe to read while its outputs are written: an output may be
/// its input's own array, or overlap it (`sma(a, 3, out=a)`, `out=a[1:]` over `a[:-1]`), as
/// TA-Lib lets a caller compute in place. The kernels read an input ahead of the output they
/// write, so an input that overlaps an output is read from a copy made first (what numpy does for
/// a ufunc's overlapping `out`). Outputs overlapping each other cannot all hold their values and
/// are refused. Inputs may overlap each other (they are only read).
struct InPlace {
    /// The inputs to read: the caller's, or copies of those that overlap an output.
    private(set) var inputs: [UnsafeBufferPointer<Double>] = []
    private var copies: [UnsafeMutableRawPointer] = []

    /// - Throws: `BT_E_ARGUMENT` naming two outputs that overlap; `BT_E_LENGTH` when there is no
    ///   memory for a copy.
    init<I: Sequence, O: Sequence>(_ name: String, inputs given: I, outputs: O) throws
        where I.Element == (UnsafeBufferPointer<Double>, String), O.Element == (UnsafeMutableBufferPointer<Double>, String) {
        let outs = Array(outputs)
        for (i, (a, first)) in outs.enumerated() {
            for (b, second) in outs[(i + 1)...] where Self.overlap(UnsafeBufferPointer(a), UnsafeBufferPointer(b)) {
                throw BridgeError.argument("\(name): \(first) and \(second) overlap: each output needs its own array")
            }
        }
        do {
            for (input, what) in given {
                guard outs.contains(where: { Self.overlap(input, UnsafeBufferPointer($0.0)) }) else {
                    inputs.append(input)
                    continue
                }
                let bytes = input.count * MemoryLayout<Double>.stride
                guard let copy = malloc(max(bytes, 1)) else {
                    throw BridgeError.length("\(name): no memory for a copy of \(what) (\(input.count) values), which overlaps an output")
                }
                copies.append(copy)
                let values = copy.bindMemory(to: Double.self, capacity: input.count)
                values.update(from: input.baseAddress!, count: input.count)
                inputs.append(UnsafeBufferPointer(start: values, count: input.count))
            }
        } catch {
            free()
            throw error
        }
    }

    /// Releases the copies (after the call has written its outputs).
    func free() {
        for copy in copies { Foundation.free(copy) }
    }

    /// Whether two arrays share any element's bytes.
    static func overlap(_ a: UnsafeBufferPointer<Double>, _ b: UnsafeBufferPointer<Double>) -> Bool {
        guard let x = a.baseAddress, let y = b.baseAddress, !a.isEmpty, !b.isEmpty else { return false }
        let start = UInt(bitPattern: x), other = UInt(bitPattern: y)
        return start < other &+ UInt(b.count * MemoryLayout<Double>.stride) && other < start &+ UInt(a.count * MemoryLayout<Double>.stride)
    }
}
