import Foundation
import Parallel
import Planar

/// The space of EPSG:3857: metres, x east and y north.
public enum MercatorMetres {}

/// A position in EPSG:3857 metres, x east and y north.
public typealias MercatorPoint = PlanePoint<MercatorMetres>

/// The spherical Web Mercator projection (EPSG:3857) in pure Swift: the fast path, checked against PROJ.
public enum WebMercator {
    /// The sphere radius of EPSG:3857, in metres.
    public static let earthRadius = 6_378_137.0
    /// The latitude at which the projected world is square: atan(sinh(π)) in degrees.
    public static let maxLatitude = 85.0511287798066
    /// Half the world's width in metres (π·R); mercator x and y lie within ±halfWorld.
    public static let halfWorld = Double.pi * earthRadius
    /// The world's width in metres.
    public static let worldSize = 2 * halfWorld

    /// Projects a coordinate, refusing latitudes beyond ±maxLatitude.
    public static func project(_ coordinate: Coordinate) throws(BadField) -> MercatorPoint {
        try coordinate.checkProjectable()
        return projectUnchecked(lat: coordinate.lat, lon: coordinate.lon)
    }

    /// Projects without validation; for callers that validated already (hot loops).
    @inlinable
    public static func projectUnchecked(lat: Double, lon: Double) -> MercatorPoint {
        MercatorPoint(x: earthRadius * lon * (Double.pi / 180), y: mercatorY(latitudeRadians: lat * (Double.pi / 180)))
    }

    /// R·atanh(sin φ), written as R/2·ln((1 + sin φ)/(1 − sin φ)): one `log` is cheaper than glibc's `atanh`,
    /// and sine comes from its Taylor series, exact to double precision for |φ| ≤ 85.06° (next term < 1e-20).
    @inlinable
    static func mercatorY(latitudeRadians phi: Double) -> Double {
        let s = taylorSine(phi)
        return 0.5 * earthRadius * log((1 + s) / (1 - s))
    }

    /// sin x for |x| ≤ 1.5 by its Taylor series to x^23 in Horner form (coefficients ±1/n!).
    @inlinable
    static func taylorSine(_ x: Double) -> Double {
        let x2 = x * x
        var sum = -1 / 2.585_201_673_888_497_8e22
        sum = sum * x2 + 1 / 5.109_094_217_170_944e19
        sum = sum * x2 - 1 / 1.216_451_004_088_32e17
        sum = sum * x2 + 1 / 3.556_874_280_96e14
        sum = sum * x2 - 1 / 1.307_674_368e12
        sum = sum * x2 + 1 / 6_227_020_800
        sum = sum * x2 - 1 / 39_916_800
        sum = sum * x2 + 1 / 362_880
        sum = sum * x2 - 1 / 5040
        sum = sum * x2 + 1 / 120
        sum = sum * x2 - 1 / 6
        return x * (sum * x2 + 1)
    }

    /// The coordinate of a mercator point; x and y must lie within ±halfWorld.
    public static func unproject(_ point: MercatorPoint) throws(BadField) -> Coordinate {
        let limit = -halfWorld...halfWorld
        try BadField.check(point.x, "x", in: limit)
        try BadField.check(point.y, "y", in: limit)
        return unprojectUnchecked(point)
    }

    /// Unprojects without validation.
    public static func unprojectUnchecked(_ point: MercatorPoint) -> Coordinate {
        let lat = atan(sinh(point.y / earthRadius)) * (180 / Double.pi)
        return Coordinate(uncheckedLat: lat, lon: point.x / earthRadius * (180 / Double.pi))
    }

    /// Batches at least this long per core are split across the cores.
    static let parallelBatchThreshold = 65_536

    /// Projects in place, like PROJ's `proj_trans_generic`: longitudes in `xs` become mercator x and latitudes
    /// in `ys` become mercator y; split across the cores for large batches unless `parallel` is false.
    /// Inputs must be valid, projectable degrees.
    public static func project(xs: inout [Double], ys: inout [Double], parallel: Bool = true) {
        precondition(xs.count == ys.count, "xs and ys differ in length")
        let metresPerDegree = earthRadius * Double.pi / 180
        let count = xs.count
        xs.withUnsafeMutableBufferPointer { xBuffer in
            ys.withUnsafeMutableBufferPointer { yBuffer in
                let xWriter = DisjointWriter(xBuffer)
                let yWriter = DisjointWriter(yBuffer)
                ParallelFor.ranges(count: count, minimumPerPart: parallel ? parallelBatchThreshold : count) { range in
                    for index in range {
                        xWriter.update(at: index) { $0 * metresPerDegree }
                        yWriter.update(at: index) { mercatorY(latitudeRadians: $0 * (Double.pi / 180)) }
                    }
                }
            }
        }
    }
}
