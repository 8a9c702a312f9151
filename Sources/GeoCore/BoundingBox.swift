import Planar

/// A box in degrees: west, south, east, north (west < east; no antimeridian crossing).
public struct GeoBoundingBox: Hashable, Sendable, Codable {
    public let west: Double
    public let south: Double
    public let east: Double
    public let north: Double

    /// Validates ranges and order; errors name the side at fault (prefixed by `field`).
    public init(west: Double, south: Double, east: Double, north: Double, field: String = "bbox") throws(BadField) {
        try BadField.check(west, field + ".west", in: Coordinate.longitudeRange)
        try BadField.check(east, field + ".east", in: Coordinate.longitudeRange)
        try BadField.check(south, field + ".south", in: Coordinate.latitudeRange)
        try BadField.check(north, field + ".north", in: Coordinate.latitudeRange)
        guard west <= east else { throw BadField(field: field, message: "west (\(west)) must not exceed east (\(east))") }
        guard south <= north else { throw BadField(field: field, message: "south (\(south)) must not exceed north (\(north))") }
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// Parses `W,S,E,N`.
    public init(parsing text: String, field: String) throws(BadField) {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard values.count == 4, let west = values[0], let south = values[1], let east = values[2], let north = values[3] else {
            throw BadField(field: field, message: "expected W,S,E,N in degrees, got \"\(text)\"")
        }
        try self.init(west: west, south: south, east: east, north: north, field: field)
    }

    /// The smallest box holding every coordinate; nil for none.
    public init?(enclosing coordinates: [Coordinate]) {
        guard let first = coordinates.first else { return nil }
        var box = (west: first.lon, south: first.lat, east: first.lon, north: first.lat)
        for c in coordinates.dropFirst() {
            box = (min(box.west, c.lon), min(box.south, c.lat), max(box.east, c.lon), max(box.north, c.lat))
        }
        self.west = box.west
        self.south = box.south
        self.east = box.east
        self.north = box.north
    }

    /// The box in mercator metres; the box must lie within Web Mercator's latitudes.
    public func mercatorRect() throws(BadField) -> MercatorRect {
        let southWest = try WebMercator.project(Coordinate(lat: south, lon: west, field: "bbox"))
        let northEast = try WebMercator.project(Coordinate(lat: north, lon: east, field: "bbox"))
        return MercatorRect(minX: southWest.x, minY: southWest.y, maxX: northEast.x, maxY: northEast.y)
    }
}

/// An axis-aligned rectangle in mercator metres (y north): Planar's rectangle in this space, as `ScreenRect` is on
/// screen and `Rect` on a canvas.
public typealias MercatorRect = PlaneRect<MercatorMetres>

extension MercatorRect {
    /// The rectangle from its least corner to its greatest.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Whether the two rectangles share any area or edge.
    public func intersects(_ other: MercatorRect) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    /// The same area in degrees (clamped to the world).
    public var geoBounds: GeoBoundingBox {
        let southWest = WebMercator.unprojectUnchecked(MercatorPoint(x: max(minX, -WebMercator.halfWorld), y: max(minY, -WebMercator.halfWorld)))
        let northEast = WebMercator.unprojectUnchecked(MercatorPoint(x: min(maxX, WebMercator.halfWorld), y: min(maxY, WebMercator.halfWorld)))
        return GeoBoundingBox(uncheckedWest: southWest.lon, south: southWest.lat, east: northEast.lon, north: northEast.lat)
    }
}

/// A mercator rectangle as the API and the command line write it: its least and greatest corners.
public struct MercatorCorners: Hashable, Sendable, Codable {
    public let minX: Double
    public let minY: Double
    public let maxX: Double
    public let maxY: Double

    /// The corners of `rect`, as it reads them.
    public init(_ rect: MercatorRect) {
        (minX, minY, maxX, maxY) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
    }
}

extension GeoBoundingBox {
    init(uncheckedWest west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }
}
