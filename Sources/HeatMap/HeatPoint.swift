import GeoCore

/// A weighted point of activity in mercator metres (a snap, or a friend who adds weight).
public struct HeatPoint: Hashable, Sendable {
    public let mercator: MercatorPoint
    public let weight: Double

    public init(_ mercator: MercatorPoint, weight: Double) {
        self.mercator = mercator
        self.weight = weight
    }

    /// A point at a coordinate (which must be within Web Mercator's latitudes).
    public init(coordinate: Coordinate, weight: Double) throws(BadField) {
        self.init(try WebMercator.project(coordinate), weight: weight)
    }
}

/// The glow's sources: points in flat arrays with a reference latitude for sizes given in ground metres.
public struct HeatSource: Sendable {
    public let xs: [Double]
    public let ys: [Double]
    public let weights: [Double]
    /// The mean latitude of the points; `radiusMeters` converts to mercator metres at this latitude so that
    /// every tile and frame uses the same kernel.
    public let referenceLatitude: Double

    /// Points with the latitude at which `radiusMeters` is measured (the mean latitude of the points when
    /// not given; a live glow passes a fixed one so every tile uses the same kernel).
    public init(points: [HeatPoint], referenceLatitude: Double? = nil) {
        xs = points.map(\.mercator.x)
        ys = points.map(\.mercator.y)
        weights = points.map(\.weight)
        let meanY = points.isEmpty ? 0 : ys.reduce(0, +) / Double(points.count)
        self.referenceLatitude = referenceLatitude ?? WebMercator.unprojectUnchecked(MercatorPoint(x: 0, y: meanY)).lat
    }

    public var count: Int { xs.count }
}
