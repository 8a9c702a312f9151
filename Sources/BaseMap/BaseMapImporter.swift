import Foundation
import GeoCore

/// Builds the base map store from the NYC sources (`../shared/data/nyc/`): streets and parks from GeoJSON in
/// WGS 84, the borough shoreline from the EPSG:2263 shapefile reprojected through PROJ.
public enum BaseMapImporter {
    public static let streetFiles = ["streets-brooklyn.geojson", "streets-manhattan.geojson"]
    public static let parksFile = "parks.geojson"
    public static let shorelineBase = "nybb_16a/nybb"

    /// Every source file the import reads, relative to the source directory.
    public static var sourceFiles: [String] {
        streetFiles + [parksFile, PlaceImporter.neighbourhoodsFile, SubwayStations.file] + ["shp", "shx", "dbf", "prj"].map { shorelineBase + "." + $0 }
    }

    /// Checks that every source exists, naming the first missing one and where it was expected.
    public static func checkSources(in directory: URL) throws(DataFileError) {
        for file in sourceFiles {
            let url = directory.appendingPathComponent(file)
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw DataFileError(file: file, message: "missing base map source: expected at \(url.path) (see ../shared/data/nyc/README.md)")
            }
        }
    }

    public static func importStore(from directory: URL, waterNames: URL) throws(DataFileError) -> BaseMapStore {
        try checkSources(in: directory)
        let streets = try importStreets(from: directory)
        var parks = FeatureTable()
        for feature in try GeoJSONReader.read(directory.appendingPathComponent(parksFile)) {
            guard case .polygons(let polygons) = feature.geometry else { continue }
            let rings = polygons.flatMap { polygon in polygon.enumerated().map { orient(projectWGS84($0.element), outer: $0.offset == 0) } }
            parks.append(parts: rings, featureClass: 0, name: feature.properties["PARK_NAME"]?.stringValue ?? "")
        }
        let land = try importShoreline(base: directory.appendingPathComponent(shorelineBase))
        let places = try PlaceImporter.places(sourceDirectory: directory, parks: parks, land: BaseMapStore(land: land, parks: parks, streets: streets),
                                              waterNames: waterNames)
        return BaseMapStore(land: land, parks: parks, streets: streets, places: places)
    }

    /// The street files alone, projected to mercator, with their class (the routing graph is built from these).
    public static func importStreets(from directory: URL) throws(DataFileError) -> FeatureTable {
        var streets = FeatureTable()
        for file in streetFiles {
            for feature in try GeoJSONReader.read(directory.appendingPathComponent(file)) {
                guard case .lines(let lines) = feature.geometry,
                      let street = feature.properties["highway"]?.stringValue.flatMap(StreetClass.init(rawValue:)) else { continue }
                streets.append(parts: lines.map(projectWGS84), featureClass: street.rank, name: feature.properties["name"]?.stringValue ?? "")
            }
        }
        return streets
    }

    /// The shapefile's rings reprojected from its `.prj` CRS to EPSG:3857 in one PROJ batch per feature.
    /// Shapefile rings already wind clockwise for outer rings and counter-clockwise for holes.
    static func importShoreline(base: URL) throws(DataFileError) -> FeatureTable {
        let contents = try ShapefileReader.read(base: base)
        let transformer: ProjTransformer
        do {
            transformer = try ProjTransformer.toWebMercator(from: contents.projectionWKT)
        } catch {
            throw DataFileError(file: base.appendingPathExtension("prj").path, message: error.description)
        }
        var land = FeatureTable()
        for feature in contents.features {
            guard case .polygons(let polygons) = feature.geometry else { continue }
            var rings: [[MercatorPoint]] = []
            for ring in polygons.flatMap({ $0 }) {
                var xs = ring.map(\.x)
                var ys = ring.map(\.y)
                do {
                    try transformer.transform(xs: &xs, ys: &ys)
                } catch {
                    throw DataFileError(file: base.appendingPathExtension("shp").path, message: "\(error)")
                }
                rings.append(zip(xs, ys).map { MercatorPoint(x: $0, y: $1) })
            }
            land.append(parts: rings, featureClass: 0, name: feature.properties["BoroName"]?.stringValue ?? "")
        }
        return land
    }

    private static func projectWGS84(_ positions: [SourcePosition]) -> [MercatorPoint] {
        positions.map { WebMercator.projectUnchecked(lat: min(max($0.y, -WebMercator.maxLatitude), WebMercator.maxLatitude), lon: $0.x) }
    }

    /// Winds outer rings clockwise and holes counter-clockwise (y up), as shapefiles do, so that one non-zero
    /// fill of many polygons unions them and still cuts their holes.
    private static func orient(_ ring: [MercatorPoint], outer: Bool) -> [MercatorPoint] {
        guard ring.count >= 3 else { return ring }
        let clockwise = FeatureTable.signedArea(ring) < 0
        return clockwise == outer ? ring : ring.reversed()
    }
}
