/// A path of coordinates measured along geodesics on WGS 84 (a route, a street).
public struct Polyline: Hashable, Sendable, Codable {
    public let coordinates: [Coordinate]
    /// The geodesic distance from the first vertex to each vertex, in metres.
    public let cumulativeDistances: [Double]

    /// Needs at least two vertices.
    public init(_ coordinates: [Coordinate], geodesic: Geodesic = .wgs84) throws(BadField) {
        guard coordinates.count >= 2 else {
            throw BadField(field: "polyline", message: "needs at least 2 coordinates, got \(coordinates.count)")
        }
        var distances = [0.0]
        distances.reserveCapacity(coordinates.count)
        for index in 1..<coordinates.count {
            distances.append(distances[index - 1] + geodesic.distance(coordinates[index - 1], coordinates[index]))
        }
        self.coordinates = coordinates
        self.cumulativeDistances = distances
    }

    /// The geodesic length in metres.
    public var length: Double { cumulativeDistances[cumulativeDistances.count - 1] }

    /// The coordinate `distance` metres along the line (0…length), following the geodesic of its segment.
    public func coordinate(atDistance distance: Double, geodesic: Geodesic = .wgs84) throws(BadField) -> Coordinate {
        try BadField.check(distance, "distance", in: 0...length)
        if distance == length { return coordinates[coordinates.count - 1] }
        let segment = segmentIndex(atDistance: distance)
        let start = coordinates[segment]
        let along = distance - cumulativeDistances[segment]
        if along == 0 { return start }
        return geodesic.coordinate(from: start, towards: coordinates[segment + 1], distance: along)
    }

    /// The part of the line from `distance` metres to the end.
    public func remainder(fromDistance distance: Double) throws(BadField) -> [Coordinate] {
        let start = try coordinate(atDistance: distance)
        let next = segmentIndex(atDistance: distance) + 1
        let rest = coordinates[next...].drop(while: { $0 == start })
        return [start] + rest
    }

    /// The index of the segment that holds `distance` (the last segment for the end).
    private func segmentIndex(atDistance distance: Double) -> Int {
        var low = 0
        var high = cumulativeDistances.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if cumulativeDistances[middle] <= distance { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
