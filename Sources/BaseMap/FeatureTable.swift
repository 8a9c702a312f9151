import GeoCore

/// One layer's geometry in flat arrays of mercator metres (the kdbush way): every point in `xs`/`ys`, the end
/// of each part (a line or a ring) in `partEnds`, the end of each feature's parts in `featureEnds`, and per
/// feature its bounds, a class and a name.
public struct FeatureTable: Sendable, Equatable {
    public internal(set) var xs: [Double] = []
    public internal(set) var ys: [Double] = []
    public internal(set) var partEnds: [Int] = []
    public internal(set) var featureEnds: [Int] = []
    public internal(set) var minXs: [Double] = []
    public internal(set) var minYs: [Double] = []
    public internal(set) var maxXs: [Double] = []
    public internal(set) var maxYs: [Double] = []
    /// A layer-specific class per feature (the street class for streets).
    public internal(set) var classes: [UInt8] = []
    /// A name per feature; empty when it has none.
    public internal(set) var names: [String] = []
    /// A number per feature: a place's area in square mercator metres (0 for streets, parks and land).
    public internal(set) var values: [Double] = []

    public init() {}

    public var count: Int { featureEnds.count }

    /// The parts of feature `index`, as indices into `partEnds`.
    public func parts(of index: Int) -> Range<Int> { (index == 0 ? 0 : featureEnds[index - 1])..<featureEnds[index] }

    /// The points of part `index`, as indices into `xs` and `ys`.
    public func points(ofPart index: Int) -> Range<Int> { (index == 0 ? 0 : partEnds[index - 1])..<partEnds[index] }

    public func bounds(of index: Int) -> MercatorRect {
        MercatorRect(minX: minXs[index], minY: minYs[index], maxX: maxXs[index], maxY: maxYs[index])
    }

    /// Appends a feature made of parts already in mercator metres.
    mutating func append(parts: [[MercatorPoint]], featureClass: UInt8, name: String, value: Double = 0) {
        var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        var added = false
        for part in parts where part.count >= 2 {
            for point in part {
                xs.append(point.x)
                ys.append(point.y)
                box = (min(box.minX, point.x), min(box.minY, point.y), max(box.maxX, point.x), max(box.maxY, point.y))
            }
            partEnds.append(xs.count)
            added = true
        }
        guard added else { return }
        featureEnds.append(partEnds.count)
        minXs.append(box.minX)
        minYs.append(box.minY)
        maxXs.append(box.maxX)
        maxYs.append(box.maxY)
        classes.append(featureClass)
        names.append(name)
        values.append(value)
    }

    /// The signed area of a ring in mercator (positive counter-clockwise, y up).
    static func signedArea(_ ring: [MercatorPoint]) -> Double {
        var area = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            area += previous.x * point.y - point.x * previous.y
            previous = point
        }
        return area / 2
    }
}
