import BacktestCore
import CZlib

/// gzip input, recognised by its magic bytes (`1f 8b`), never by the file name. The only file
/// that calls zlib.
enum Gzip {
    static func isCompressed(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Largest decompressed size accepted: a small file that inflates past it is refused (a
    /// "zip bomb" would otherwise take the machine's memory).
    static let maximumSize = 8 << 30

    /// The decompressed bytes of every gzip member of `bytes`, in order.
    /// - Throws: `InputError` at `file` saying what is wrong in words (never the bytes).
    static func decompressed(_ bytes: [UInt8], file: String) throws -> [UInt8] {
        var stream = z_stream()
        // 15 window bits + 16: a gzip header and trailer, not zlib's own.
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw InputError("cannot start gzip decompression", at: file)
        }
        defer { inflateEnd(&stream) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 4)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = bytes
        try input.withUnsafeMutableBufferPointer { inBuffer in
            var offset = 0
            while offset < inBuffer.count {
                stream.next_in = inBuffer.baseAddress! + offset
                stream.avail_in = UInt32(inBuffer.count - offset)
                var status: Int32 = Z_OK
                repeat {
                    status = chunk.withUnsafeMutableBufferPointer { c in
                        stream.next_out = c.baseAddress
                        stream.avail_out = UInt32(c.count)
                        return inflate(&stream, Z_NO_FLUSH)
                    }
                    let produced = chunk.count - Int(stream.avail_out)
                    out.append(contentsOf: chunk[0..<produced])
                    if out.count > maximumSize { throw InputError("decompresses to more than 8 GiB", at: file) }
                    if status == Z_BUF_ERROR && stream.avail_in == 0 {
                        throw InputError("the gzip data is truncated (it ends before the end of its stream)", at: file)
                    }
                    guard status == Z_OK || status == Z_STREAM_END else {
                        let why = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                        throw InputError("is not a valid gzip file (\(Excerpt.shortened(TerminalText.escaped(why), limit: 80)))",
                                         at: file)
                    }
                } while status != Z_STREAM_END
                offset = inBuffer.count - Int(stream.avail_in)
                // Another member may follow (`cat a.gz b.gz`); trailing zero padding is allowed.
                if offset < inBuffer.count {
                    if inBuffer[offset...].allSatisfy({ $0 == 0 }) { break }
                    guard inflateReset(&stream) == Z_OK else { throw InputError("cannot restart gzip decompression", at: file) }
                }
            }
        }
        return out
    }
}
