/// The protocol buffers wire format, as much of it as vector tiles use: varints, zigzag integers, 64-bit
/// doubles, length-delimited strings, messages and packed repeated varints.
struct ProtobufWriter {
    enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
    }

    private(set) var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    mutating func tag(_ field: UInt64, _ type: WireType) { varint(field << 3 | type.rawValue) }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        tag(field, .varint)
        varint(value)
    }

    mutating func doubleField(_ field: UInt64, _ value: Double) {
        tag(field, .fixed64)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
    }

    mutating func bytesField(_ field: UInt64, _ value: [UInt8]) {
        tag(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes += value
    }

    mutating func stringField(_ field: UInt64, _ value: String) { bytesField(field, Array(value.utf8)) }

    /// A packed repeated uint32 field; nothing when empty.
    mutating func packedField(_ field: UInt64, _ values: [UInt32]) {
        guard !values.isEmpty else { return }
        var body = ProtobufWriter()
        for value in values { body.varint(UInt64(value)) }
        bytesField(field, body.bytes)
    }
}
