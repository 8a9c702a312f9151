/// A feature attribute's value.
public enum VectorValue: Hashable, Sendable {
    case string(String)
    case double(Double)
    case int(Int64)
}

/// One layer of a Mapbox Vector Tile (MVT 2.1) being built: features encoded as they come, keys and values
/// kept once each in the layer's tables.
struct VectorTileLayer {
    enum GeometryType: UInt64 {
        case point = 1
        case lineString = 2
        case polygon = 3
    }

    static let version: UInt64 = 2

    let name: String
    let extent: Int
    private var keys: [String] = []
    private var keyIndex: [String: UInt32] = [:]
    private var values: [VectorValue] = []
    private var valueIndex: [VectorValue: UInt32] = [:]
    private var features = ProtobufWriter()
    private(set) var featureCount = 0

    init(name: String, extent: Int) {
        self.name = name
        self.extent = extent
    }

    /// Adds a feature whose geometry is already command integers (`CommandEncoder`); nothing when it has none.
    mutating func add(id: UInt64? = nil, properties: [(String, VectorValue)], type: GeometryType, geometry: [UInt32]) {
        guard !geometry.isEmpty else { return }
        var tags: [UInt32] = []
        tags.reserveCapacity(properties.count * 2)
        for (key, value) in properties {
            tags.append(Self.index(of: key, in: &keys, &keyIndex))
            tags.append(Self.index(of: value, in: &values, &valueIndex))
        }
        var feature = ProtobufWriter()
        if let id { feature.varintField(1, id) }
        feature.packedField(2, tags)
        feature.varintField(3, type.rawValue)
        feature.packedField(4, geometry)
        features.bytesField(2, feature.bytes)
        featureCount += 1
    }

    private static func index<T: Hashable>(of item: T, in list: inout [T], _ index: inout [T: UInt32]) -> UInt32 {
        if let found = index[item] { return found }
        let next = UInt32(list.count)
        list.append(item)
        index[item] = next
        return next
    }

    /// The layer as a `Tile.Layer` message body.
    func encoded() -> [UInt8] {
        var layer = ProtobufWriter()
        layer.varintField(15, Self.version)
        layer.stringField(1, name)
        var bytes = layer.bytes + features.bytes
        var tables = ProtobufWriter()
        for key in keys { tables.stringField(3, key) }
        for value in values {
            var message = ProtobufWriter()
            switch value {
            case .string(let text): message.stringField(1, text)
            case .double(let number): message.doubleField(3, number)
            case .int(let number): message.varintField(6, ProtobufWriter.zigzag(number))
            }
            tables.bytesField(4, message.bytes)
        }
        tables.varintField(5, UInt64(extent))
        bytes += tables.bytes
        return bytes
    }
}

/// Geometry as MVT command integers: MoveTo, LineTo and ClosePath with zigzag deltas from a cursor that runs
/// through the whole feature.
struct CommandEncoder {
    private enum Command: UInt32 {
        case moveTo = 1
        case lineTo = 2
        case closePath = 7
    }

    private(set) var integers: [UInt32] = []
    private var cursor = TilePoint(x: 0, y: 0)

    mutating func addPoints(_ points: [TilePoint]) {
        guard !points.isEmpty else { return }
        integers.append(Self.command(.moveTo, count: points.count))
        for point in points { step(to: point) }
    }

    mutating func addLine(_ points: [TilePoint]) {
        guard points.count >= 2 else { return }
        integers.append(Self.command(.moveTo, count: 1))
        step(to: points[0])
        integers.append(Self.command(.lineTo, count: points.count - 1))
        for point in points.dropFirst() { step(to: point) }
    }

    /// A ring without its closing point (ClosePath closes it).
    mutating func addRing(_ points: [TilePoint]) {
        guard points.count >= 3 else { return }
        addLine(points)
        integers.append(Self.command(.closePath, count: 1))
    }

    private mutating func step(to point: TilePoint) {
        integers.append(Self.zigzag(point.x &- cursor.x))
        integers.append(Self.zigzag(point.y &- cursor.y))
        cursor = point
    }

    private static func zigzag(_ value: Int32) -> UInt32 { UInt32(bitPattern: (value << 1) ^ (value >> 31)) }

    private static func command(_ command: Command, count: Int) -> UInt32 { command.rawValue | UInt32(count) << 3 }
}
