import GeoCore

/// A value that changes with zoom: linear interpolation between (zoom, value) stops, held constant beyond
/// the first and last, like MapLibre's `["interpolate", ["linear"], ["zoom"], …]`.
public struct ZoomStops: Sendable, Equatable {
    public let zooms: [Double]
    public let values: [Double]

    /// Needs at least one stop, zooms strictly ascending within 0…24, values finite and ≥ 0.
    public init(_ stops: [[Double]], field: String, file: String) throws(DataFileError) {
        guard !stops.isEmpty else { throw DataFileError(file: file, path: field, message: "needs at least one [zoom, value] stop") }
        var zooms: [Double] = []
        var values: [Double] = []
        for (index, stop) in stops.enumerated() {
            let path = "\(field)[\(index)]"
            guard stop.count == 2, stop.allSatisfy(\.isFinite) else { throw DataFileError(file: file, path: path, message: "expected [zoom, value]") }
            guard (0...24).contains(stop[0]) else { throw DataFileError(file: file, path: path, message: "zoom \(stop[0]) is out of range: allowed 0 … 24") }
            guard stop[1] >= 0 else { throw DataFileError(file: file, path: path, message: "value \(stop[1]) must be ≥ 0") }
            if let last = zooms.last, stop[0] <= last {
                throw DataFileError(file: file, path: path, message: "zooms must ascend: \(stop[0]) follows \(last)")
            }
            zooms.append(stop[0])
            values.append(stop[1])
        }
        self.zooms = zooms
        self.values = values
    }

    public func value(at zoom: Double) -> Double {
        guard zoom > zooms[0] else { return values[0] }
        guard let upper = zooms.firstIndex(where: { $0 >= zoom }) else { return values[values.count - 1] }
        let t = (zoom - zooms[upper - 1]) / (zooms[upper] - zooms[upper - 1])
        return values[upper - 1] + (values[upper] - values[upper - 1]) * t
    }
}
