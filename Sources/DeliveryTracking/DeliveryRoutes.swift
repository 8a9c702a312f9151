import Foundation
import GeoCore
import MapScene

/// A delivery route: from a store to home, point by point, measured along geodesics.
public struct DeliveryRoute: Sendable {
    public let name: String
    public let store: String
    public let polyline: Polyline
    /// Where the store is: the route's start, and still the store when only the last stretch is kept.
    public let storeCoordinate: Coordinate

    public init(name: String, store: String, polyline: Polyline, storeCoordinate: Coordinate? = nil) {
        self.name = name
        self.store = store
        self.polyline = polyline
        self.storeCoordinate = storeCoordinate ?? polyline.coordinates[0]
    }

    public var coordinates: [Coordinate] { polyline.coordinates }
    public var length: Double { polyline.length }

    /// Only the last `metres` of the drive (from the point that far before home, to home).
    public func last(_ metres: Double) throws(BadField) -> DeliveryRoute {
        try BadField.check(metres, "last-meters", in: 1...length)
        return DeliveryRoute(name: name + "-last-\(Int(metres))m", store: store,
                             polyline: try Polyline(polyline.remainder(fromDistance: length - metres)), storeCoordinate: storeCoordinate)
    }
}

/// `doordash/routes.json`: home, the seed's routes, and how to make a smooth arc home from any store.
public struct RouteCatalog: Sendable {
    public static let file = "doordash/routes.json"
    /// `--route arc:LAT,LON` asks for an arc from that store coordinate.
    public static let arcPrefix = "arc:"

    public let home: Coordinate
    public let routes: [DeliveryRoute]
    /// How far the arc bows out, as a fraction of the store-to-home distance, and its segment count.
    public let arcBend: Double
    public let arcSegments: Int

    private struct File: Decodable {
        struct Route: Decodable { let name: String; let store: String; let points: [Coordinate] }
        struct Arc: Decodable { let bend: Double; let segments: Int }
        let home: Coordinate
        let routes: [Route]
        let arc: Arc
    }

    public static func load(dataDirectory: URL) throws(DataFileError) -> RouteCatalog {
        let url = dataDirectory.appendingPathComponent(file)
        let contents: File
        do {
            contents = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        } catch {
            throw DataFileError.describing(error, file: file)
        }
        guard (0...1).contains(contents.arc.bend), (2...512).contains(contents.arc.segments) else {
            throw DataFileError(file: file, path: "arc", message: "bend must be 0 … 1 and segments 2 … 512")
        }
        var routes: [DeliveryRoute] = []
        for (index, route) in contents.routes.enumerated() {
            guard route.points.last == contents.home else {
                throw DataFileError(file: file, path: "routes[\(index)].points", message: "a route must end at home \(contents.home)")
            }
            do {
                for point in route.points { try point.checkProjectable() }
                routes.append(DeliveryRoute(name: route.name, store: route.store, polyline: try Polyline(route.points)))
            } catch {
                throw DataFileError(file: file, path: "routes[\(index)].points", message: error.description)
            }
        }
        return RouteCatalog(home: contents.home, routes: routes, arcBend: contents.arc.bend, arcSegments: contents.arc.segments)
    }

    /// A route by name, or `arc:LAT,LON` for a smooth arc from that store; unknown names list the known ones.
    public func route(named name: String) throws(BadField) -> DeliveryRoute {
        if name.hasPrefix(Self.arcPrefix) {
            return try arc(from: Coordinate(parsing: String(name.dropFirst(Self.arcPrefix.count)), field: "route"))
        }
        guard let route = routes.first(where: { $0.name == name }) else {
            throw BadField(field: "route", message: "unknown route \"\(name)\"; allowed: \(routes.map(\.name).joined(separator: ", ")), or arc:LAT,LON")
        }
        return route
    }

    /// A smooth arc home: a quadratic Bézier in mercator from the store to home, its control point pushed
    /// sideways (to the left of travel) by `arcBend` of the distance, cut into `arcSegments` segments.
    public func arc(from store: Coordinate) throws(BadField) -> DeliveryRoute {
        let start = try WebMercator.project(store)
        let end = try WebMercator.project(home)
        let (dx, dy) = (end.x - start.x, end.y - start.y)
        let control = MercatorPoint(x: (start.x + end.x) / 2 - dy * arcBend, y: (start.y + end.y) / 2 + dx * arcBend)
        let points = (0...arcSegments).map { step -> Coordinate in
            if step == arcSegments { return home }
            if step == 0 { return store }
            let t = Double(step) / Double(arcSegments)
            let u = 1 - t
            return WebMercator.unprojectUnchecked(MercatorPoint(x: u * u * start.x + 2 * u * t * control.x + t * t * end.x,
                                                                y: u * u * start.y + 2 * u * t * control.y + t * t * end.y))
        }
        return DeliveryRoute(name: "arc", store: "\(store)", polyline: try Polyline(points))
    }
}
