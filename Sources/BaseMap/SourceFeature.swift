import Planar

/// A property value from GeoJSON or a dBASE table.
public enum PropertyValue: Hashable, Sendable {
    case string(String)
    case number(Double)

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

/// Geometry as read from a source, in the source's coordinates (x east, y north).
public enum SourceGeometry: Sendable {
    /// One or more lines, each a list of positions.
    case lines([[SourcePosition]])
    /// One or more polygons, each an outer ring followed by its holes.
    case polygons([[[SourcePosition]]])
}

/// The space of a source file's own coordinates (its CRS's x and y, before they are projected to mercator).
public enum SourceCoordinates {}

/// One position in source coordinates.
public typealias SourcePosition = PlanePoint<SourceCoordinates>

/// A feature as read from a source: geometry and properties.
public struct SourceFeature: Sendable {
    public let geometry: SourceGeometry
    public let properties: [String: PropertyValue]
}
