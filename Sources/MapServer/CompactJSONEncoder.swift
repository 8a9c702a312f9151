import Foundation

/// Encodes `Encodable` values as compact JSON with sorted keys, unescaped slashes, ISO 8601 dates and whole
/// numbers without a fraction: the same document Foundation's `JSONEncoder` makes with those options, several
/// times faster (the hot answers, layouts above all, are JSON). NaN and infinities are refused.
enum CompactJSONEncoder {
    struct NotFinite: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path): NaN or infinity cannot be written as JSON" }
    }

    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let root = Slot()
        try value.encode(to: NodeEncoder(slot: root, codingPath: []))
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        write(root, into: &output)
        return output
    }

    /// One value being built; containers hold slots so nested encoders can fill them later.
    final class Slot {
        enum Kind {
            case null, literal, string, array, object
        }
        var kind = Kind.null
        var text = ""
        var items: [Slot] = []
        var entries: [(key: String, value: Slot)] = []

        func set(_ kind: Kind, _ text: String) {
            self.kind = kind
            self.text = text
        }
    }

    static func write(_ slot: Slot, into output: inout [UInt8]) {
        switch slot.kind {
        case .null: output += Array("null".utf8)
        case .literal: output += Array(slot.text.utf8)
        case .string: writeString(slot.text, into: &output)
        case .array:
            output.append(UInt8(ascii: "["))
            for (index, item) in slot.items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(item, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object:
            output.append(UInt8(ascii: "{"))
            for (index, entry) in slot.entries.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(entry.key, into: &output)
                output.append(UInt8(ascii: ":"))
                write(entry.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20: output += Array(String(format: "\\u%04x", byte).utf8)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    static func numberText(_ value: Double, _ codingPath: [any CodingKey]) throws -> String {
        guard value.isFinite else { throw NotFinite(path: codingPath.map(\.stringValue).joined(separator: ".")) }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// The `Encoder` that fills one slot.
    struct NodeEncoder: Encoder {
        let slot: Slot
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if slot.kind != .object { slot.kind = .object }
            return KeyedEncodingContainer(Keyed<Key>(slot: slot, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if slot.kind != .array { slot.kind = .array }
            return Unkeyed(slot: slot, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(slot: slot, codingPath: codingPath) }
    }

    /// Encodes one value into a slot, with dates as ISO 8601 text.
    static func fill<T: Encodable>(_ slot: Slot, with value: T, codingPath: [any CodingKey]) throws {
        if T.self == Double.self {
            slot.set(.literal, try numberText(value as! Double, codingPath))
        } else if T.self == String.self {
            slot.set(.string, value as! String)
        } else if T.self == Int.self {
            slot.set(.literal, String(value as! Int))
        } else if T.self == Bool.self {
            slot.set(.literal, value as! Bool ? "true" : "false")
        } else if T.self == Date.self {
            slot.set(.string, (value as! Date).ISO8601Format())
        } else {
            try value.encode(to: NodeEncoder(slot: slot, codingPath: codingPath))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let slot: Slot
        let codingPath: [any CodingKey]

        private func add(_ key: Key) -> Slot {
            let child = Slot()
            slot.entries.append((key.stringValue, child))
            return child
        }

        mutating func encodeNil(forKey key: Key) throws { add(key).kind = .null }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try fill(add(key), with: value, codingPath: codingPath + [key]) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            NodeEncoder(slot: add(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            NodeEncoder(slot: add(key), codingPath: codingPath + [key]).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { NodeEncoder(slot: Slot(), codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { NodeEncoder(slot: add(key), codingPath: codingPath + [key]) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]
        var count: Int { slot.items.count }

        private func add() -> Slot {
            let child = Slot()
            slot.items.append(child)
            return child
        }

        mutating func encodeNil() throws { add().kind = .null }
        mutating func encode<T: Encodable>(_ value: T) throws { try fill(add(), with: value, codingPath: codingPath) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            NodeEncoder(slot: add(), codingPath: codingPath).container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { NodeEncoder(slot: add(), codingPath: codingPath).unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { NodeEncoder(slot: add(), codingPath: codingPath) }
    }

    struct Single: SingleValueEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]
        mutating func encodeNil() throws { slot.kind = .null }
        mutating func encode<T: Encodable>(_ value: T) throws { try fill(slot, with: value, codingPath: codingPath) }
    }
}
