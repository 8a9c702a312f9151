import Foundation
import GeoCore
import Raster

/// The look of the base map, read from `Data/styles/snapmap.json`: colours, zoom-dependent widths in
/// points, the zoom range of each layer, label and generalization settings.
public struct MapStyle: Sendable {
    public struct StreetLayer: Sendable {
        public let color: Color
        public let minZoom: Double
        public let width: ZoomStops
    }

    public struct Labels: Sendable {
        public let minZoom: Double
        public let minClass: StreetClass
        public let size: ZoomStops
        public let color: Color
        public let halo: Color
        public let haloWidth: Double
        public let spacing: Double
        public let maxTurnDegrees: Double
    }

    public let name: String
    public let water: Color
    public let land: Color
    public let park: Color
    public let parkMinZoom: Double
    public let casingColor: Color
    public let casingWidth: ZoomStops
    /// One layer per street class, in `StreetClass` order.
    public let streets: [StreetLayer]
    public let labels: Labels
    /// Geometry is simplified to this many pixels.
    public let tolerance: Double
    /// Rings smaller than this many square pixels are dropped.
    public let minArea: Double

    public func street(_ street: StreetClass) -> StreetLayer { streets[Int(street.rank)] }

    /// Reads and validates a style file; errors name the file and the field path.
    public static func load(_ url: URL) throws(BaseMapError) -> MapStyle {
        guard let data = try? Data(contentsOf: url) else { throw BaseMapError(file: url.path, message: "cannot read the style file") }
        return try parse(data, file: url.lastPathComponent)
    }

    public static func parse(_ data: Data, file: String) throws(BaseMapError) -> MapStyle {
        let record: StyleRecord
        do {
            record = try JSONDecoder().decode(StyleRecord.self, from: data)
        } catch let error as DecodingError {
            let failure = DecodingFailure(error)
            throw BaseMapError(file: file, path: failure.path, message: failure.message)
        } catch {
            throw BaseMapError(file: file, message: "\(error)")
        }
        return try record.validated(file: file)
    }
}
