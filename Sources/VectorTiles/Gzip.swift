import CZlib

/// gzip (RFC 1952) through zlib: the one wrapper of zlib in Swift. Vector tiles travel gzipped in MBTiles and
/// over HTTP when the client accepts it.
public enum Gzip {
    /// zlib's window bits plus 16: a gzip header and trailer instead of zlib's.
    private static let gzipWindowBits: Int32 = 15 + 16
    private static let memoryLevel: Int32 = 8

    /// The bytes gzipped at zlib's level 6. The header carries no time or name, so the same input gives the
    /// same output. nil only when zlib fails (out of memory).
    public static func compress(_ input: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, gzipWindowBits, memoryLevel, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        var input = input
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }
}
