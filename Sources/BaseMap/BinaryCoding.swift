import Foundation

/// Appends numbers, arrays and strings to a byte buffer in little-endian order.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ values: [Double]) {
        append(values.count)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ values: [Int]) {
        append(values.count)
        for value in values { append(value) }
    }

    mutating func append(_ values: [UInt8]) {
        append(values.count)
        bytes.append(contentsOf: values)
    }

    mutating func append(_ text: String) {
        append(Array(text.utf8))
    }
}

/// Reads what `BinaryWriter` wrote, refusing to read past the end.
struct BinaryReader {
    let bytes: [UInt8]
    let file: String
    private(set) var offset = 0

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    private mutating func take(_ count: Int) throws(BaseMapError) -> Range<Int> {
        guard count >= 0, count <= bytes.count - offset else {
            throw BaseMapError(file: file, message: "truncated cache: wanted \(count) bytes at \(offset) of \(bytes.count)")
        }
        defer { offset += count }
        return offset..<(offset + count)
    }

    /// A count of items of `size` bytes, checked against the bytes that remain before anything is allocated.
    private mutating func count(of size: Int) throws(BaseMapError) -> Int {
        let count = try int()
        guard count >= 0, count <= (bytes.count - offset) / size else {
            throw BaseMapError(file: file, message: "corrupt cache: a count of \(count) at \(offset) does not fit the \(bytes.count - offset) bytes left")
        }
        return count
    }

    mutating func int() throws(BaseMapError) -> Int {
        let range = try take(8)
        var value: UInt64 = 0
        for (shift, byte) in bytes[range].enumerated() { value |= UInt64(byte) << (8 * UInt64(shift)) }
        return Int(Int64(bitPattern: value))
    }

    mutating func doubles() throws(BaseMapError) -> [Double] {
        let count = try count(of: MemoryLayout<Double>.size)
        let range = try take(count * MemoryLayout<Double>.size)
        return [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes[range].withUnsafeBytes { source in
                for index in 0..<count { buffer[index] = source.loadUnaligned(fromByteOffset: index * 8, as: Double.self) }
            }
            initialized = count
        }
    }

    mutating func ints() throws(BaseMapError) -> [Int] {
        let count = try count(of: 8)
        var values: [Int] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try int()) }
        return values
    }

    mutating func uint8s() throws(BaseMapError) -> [UInt8] {
        let count = try count(of: 1)
        return Array(bytes[try take(count)])
    }

    mutating func string() throws(BaseMapError) -> String {
        String(decoding: try uint8s(), as: UTF8.self)
    }
}
