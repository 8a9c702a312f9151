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

    /// How one kind of place is named: colour, zoom range, text size by zoom (points), the smallest on-screen
    /// area (square points) a place needs to be named, letter spacing (in ems), capitals, slant (italic).
    public struct PlaceLayer: Sendable {
        public let color: Color
        public let minZoom: Double
        public let maxZoom: Double
        public let size: ZoomStops
        public let minAreaPoints: Double
        public let letterSpacing: Double
        public let uppercase: Bool
        public let italic: Double
    }

    /// A subway station's mark: a ringed dot from its zoom (radius in points by zoom), its name `gap` points beside it.
    public struct StationMark: Sendable {
        public let minZoom: Double
        public let radius: ZoomStops
        public let fill: Color
        public let ring: Color
        public let ringWidth: Double
        public let gap: Double
    }

    public struct Places: Sendable {
        public let halo: Color
        public let haloWidth: Double
        /// Space kept around each place name, in points.
        public let padding: Double
        /// One layer per `PlaceKind`, in its order.
        public let layers: [PlaceLayer]
        /// How subway stations are marked (their names are the `station` layer).
        public let stationMark: StationMark

        public func layer(_ kind: PlaceKind) -> PlaceLayer { layers[Int(kind.rawValue)] }
    }

    /// The credit the map's sources ask for ("© OpenStreetMap contributors"), drawn small on a plate.
    public struct Attribution: Sendable {
        public let text: String
        public let size: Double
        public let ink: Color
        public let plate: Color
        /// From the corner of the part of the frame the insets leave free, in points.
        public let margin: Double
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
    /// Place names (none for a style without them).
    public let places: Places?
    public let attribution: Attribution?
    /// The tint of the streets a person has visited (the Footsteps layer of their own frames); nil tints none.
    public let footsteps: Color?
    /// Geometry is simplified to this many pixels.
    public let tolerance: Double
    /// Rings smaller than this many square pixels are dropped.
    public let minArea: Double

    public func street(_ street: StreetClass) -> StreetLayer { streets[Int(street.rank)] }

    /// Reads and validates a style file; errors name the file and the field path.
    public static func load(_ url: URL) throws(DataFileError) -> MapStyle {
        guard let data = try? Data(contentsOf: url) else { throw DataFileError(file: url.path, message: "cannot read the style file") }
        return try parse(data, file: url.lastPathComponent)
    }

    /// Reads and validates a style file's bytes that hold the base map's sections alone (`tracking.json`); a style
    /// with more is read whole by `MapScene.StyleFile`.
    public static func parse(_ data: Data, file: String) throws(DataFileError) -> MapStyle {
        try DataFileError.decode(MapStyle.self, from: data, file: file)
    }
}

extension MapStyle: Decodable {
    /// Decodes the base map's sections of a style file and validates them; errors name the field.
    public init(from decoder: any Decoder) throws {
        self = try StyleRecord(from: decoder).validated(file: "")
    }
}
