import Foundation
import GeoCore

/// The imported base map: land (the borough shoreline), parks and streets in mercator metres, each with a
/// spatial grid for culling.
public struct BaseMapStore: Sendable {
    /// Grid cells of about a kilometre: a tile at zoom 16 touches one to four.
    public static let gridCellSize = 1_000.0

    public let land: FeatureTable
    public let parks: FeatureTable
    public let streets: FeatureTable
    /// Label points of neighbourhoods, parks and named waters (`PlaceKind` as the class, the area as the value).
    public let places: FeatureTable
    public let landGrid: SpatialGrid
    public let parkGrid: SpatialGrid
    public let streetGrid: SpatialGrid
    public let placeGrid: SpatialGrid

    public init(land: FeatureTable, parks: FeatureTable, streets: FeatureTable, places: FeatureTable = FeatureTable()) {
        self.land = land
        self.parks = parks
        self.streets = streets
        self.places = places
        landGrid = SpatialGrid(table: land, cellSize: Self.gridCellSize)
        parkGrid = SpatialGrid(table: parks, cellSize: Self.gridCellSize)
        streetGrid = SpatialGrid(table: streets, cellSize: Self.gridCellSize)
        placeGrid = SpatialGrid(table: places, cellSize: Self.gridCellSize)
    }

    /// The features of a table whose bounds meet `rect`, in table order.
    public static func features(of table: FeatureTable, grid: SpatialGrid, in rect: MercatorRect) -> [Int] {
        grid.query(rect).filter { table.bounds(of: $0).intersects(rect) }
    }

    /// Whether a point lies on land: inside the borough shoreline (even-odd over every ring of the land
    /// features around it, so the holes of lakes and inlets are water).
    public func isLand(_ point: MercatorPoint) -> Bool {
        let probe = MercatorRect(minX: point.x, minY: point.y, maxX: point.x, maxY: point.y)
        var inside = false
        for feature in Self.features(of: land, grid: landGrid, in: probe) {
            for part in land.parts(of: feature) {
                let ring = land.points(ofPart: part)
                var previous = ring.upperBound - 1
                for index in ring {
                    let (x0, y0, x1, y1) = (land.xs[previous], land.ys[previous], land.xs[index], land.ys[index])
                    if (y0 > point.y) != (y1 > point.y), point.x < x0 + (point.y - y0) / (y1 - y0) * (x1 - x0) { inside.toggle() }
                    previous = index
                }
            }
        }
        return inside
    }
}
