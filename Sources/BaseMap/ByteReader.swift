import GeoCore

/// Bounds-checked reads of little- and big-endian numbers from a byte array; running off the end is an
/// error naming the file, so a truncated file never crashes.
struct ByteReader {
    let bytes: [UInt8]
    let file: String

    func check(_ offset: Int, _ count: Int, _ what: String) throws(DataFileError) {
        guard offset >= 0, count >= 0, offset + count <= bytes.count else {
            throw DataFileError(file: file, message: "truncated: \(what) needs bytes \(offset)..<\(offset + count) of \(bytes.count)")
        }
    }

    func uint32LE(_ offset: Int, _ what: String) throws(DataFileError) -> UInt32 {
        try check(offset, 4, what)
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    func int32LE(_ offset: Int, _ what: String) throws(DataFileError) -> Int {
        Int(Int32(bitPattern: try uint32LE(offset, what)))
    }

    func int32BE(_ offset: Int, _ what: String) throws(DataFileError) -> Int {
        try check(offset, 4, what)
        let value = UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
        return Int(Int32(bitPattern: value))
    }

    func uint16LE(_ offset: Int, _ what: String) throws(DataFileError) -> Int {
        try check(offset, 2, what)
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    func doubleLE(_ offset: Int, _ what: String) throws(DataFileError) -> Double {
        try check(offset, 8, what)
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return Double(bitPattern: bits)
    }

    func ascii(_ offset: Int, _ count: Int, _ what: String) throws(DataFileError) -> String {
        try check(offset, count, what)
        let slice = bytes[offset..<(offset + count)].prefix { $0 != 0 }
        return String(decoding: slice, as: UTF8.self)
    }
}
