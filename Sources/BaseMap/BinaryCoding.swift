import Foundation
import GeoCore

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

/// Reads what `BinaryWriter` wrote, refusing to read past the end; arrays are copied out of the bytes
/// (which may be a mapped file) in one pass each.
struct BinaryReader {
    let bytes: Data
    let file: String
    private(set) var offset: Int

    init(bytes: Data, file: String) {
        self.bytes = bytes
        self.file = file
        offset = bytes.startIndex
    }

    private mutating func take(_ count: Int) throws(DataFileError) -> Range<Int> {
        guard count >= 0, count <= bytes.endIndex - offset else {
            throw DataFileError(file: file, message: "truncated cache: wanted \(count) bytes at \(offset) of \(bytes.count)")
        }
        defer { offset += count }
        return offset..<(offset + count)
    }

    /// A count of items of `size` bytes, checked against the bytes that remain before anything is allocated.
    private mutating func count(of size: Int) throws(DataFileError) -> Int {
        let count = try int()
        guard count >= 0, count <= (bytes.endIndex - offset) / size else {
            throw DataFileError(file: file, message: "corrupt cache: a count of \(count) at \(offset) does not fit the \(bytes.endIndex - offset) bytes left")
        }
        return count
    }

    /// `count` little-endian 8-byte values starting at byte `start` of `bytes`, as `make` turns their bits.
    private func words<T>(at start: Int, count: Int, _ make: (UInt64) -> T) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { raw in
                for index in 0..<count {
                    buffer[index] = make(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start - bytes.startIndex + index * 8, as: UInt64.self)))
                }
            }
            initialized = count
        }
    }

    mutating func int() throws(DataFileError) -> Int {
        let start = try take(8).lowerBound - bytes.startIndex
        return bytes.withUnsafeBytes { Int(Int64(littleEndian: $0.loadUnaligned(fromByteOffset: start, as: Int64.self))) }
    }

    mutating func doubles() throws(DataFileError) -> [Double] {
        let count = try count(of: 8)
        return words(at: try take(count * 8).lowerBound, count: count) { Double(bitPattern: $0) }
    }

    mutating func ints() throws(DataFileError) -> [Int] {
        let count = try count(of: 8)
        return words(at: try take(count * 8).lowerBound, count: count) { Int(Int64(bitPattern: $0)) }
    }

    mutating func uint8s() throws(DataFileError) -> [UInt8] {
        let count = try count(of: 1)
        return [UInt8](bytes[try take(count)])
    }

    mutating func string() throws(DataFileError) -> String {
        let count = try count(of: 1)
        let start = try take(count).lowerBound - bytes.startIndex
        return bytes.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)]), as: UTF8.self) }
    }
}
