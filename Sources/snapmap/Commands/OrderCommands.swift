import BaseMap
import Foundation
import GeoCore
import MapScene
import Routing

/// The street network the order commands route on: the base map's streets at the speeds of `Data/routing/speeds.json`.
enum StreetNetwork {
    static func router(data: URL) throws -> Router {
        let paths = DataPaths(dataDirectory: data)
        let store = try BaseMapCache.load(cacheDirectory: paths.baseMapCacheDirectory, sourceDirectory: paths.baseMapSourceDirectory, waterNames: paths.waterNamesFile)
        let speeds = try StreetSpeeds(contentsOf: data.appendingPathComponent("routing/speeds.json"))
        return Router(graph: RoadGraph(lines: StreetLine.lines(of: store.streets), speeds: speeds))
    }
}

/// `snapmap orders route --from LAT,LON --to LAT,LON`: the fastest drive between two places, as GeoJSON.
let ordersCommand = Command(
    name: "orders",
    summary: "delivery orders: route --from LAT,LON --to LAT,LON (the fastest drive on the streets, a GeoJSON LineString Feature)",
    usage: "orders route --from LAT,LON --to LAT,LON [--data DIR]",
    options: [
        .value("from", "LAT,LON", "where the drive starts (snapped to the nearest street within 500 m)"),
        .value("to", "LAT,LON", "where the drive ends (snapped likewise)"),
        DataLocator.option,
    ],
    positional: "ACTION"
) { options in
    let arguments = try options.positionals()
    guard arguments == ["route"] else { throw UsageError(description: "expected route") }
    let from = try Coordinate(parsing: try options.required("from"), field: "from")
    let to = try Coordinate(parsing: try options.required("to"), field: "to")
    let router = try StreetNetwork.router(data: try DataLocator.directory(options))
    do {
        return try router.route(from: from, to: to).geoJSON()
    } catch let error as RoutingError {
        throw UsageError(description: "--\(error.field) \(error.message)")
    }
}
