import DeliveryTracking
import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapScene
import Orders
import Raster
import Routing

/// The router the order commands use: the base map's streets at the speeds of `Data/routing/speeds.json` (the
/// server keeps its own, built once per process: `Orders.StreetNetwork`).
func streetRouter(data: URL) throws -> Router {
    let paths = DataPaths(dataDirectory: data)
    return try Router(streets: paths.loadBaseMap().streets, speedsFile: paths.streetSpeedsFile)
}

/// `snapmap orders route --from LAT,LON --to LAT,LON`: the fastest drive between two places, as GeoJSON; `orders
/// create|show|confirm|pickup|nearby|dropoff|cancel ID`: the orders of the live store.
let runOrders: Command.Run = { options in
    let arguments = try options.positionals()
    guard arguments == ["route"] else { return try StoredOrders.run(arguments, options) }
    let from = try Coordinate(parsing: try options.required("from"), field: "from")
    let to = try Coordinate(parsing: try options.required("to"), field: "to")
    let router = try streetRouter(data: try DataLocator.directory(options))
    do {
        return try router.route(from: from, to: to).geoJSON()
    } catch let error as BadField {
        throw error.prefixed("--")
    }
}

/// `snapmap demo-delivery`: one of the seed's orders replayed through the live order's code, as JSON lines.
let runDemoDelivery: Command.Run = { options in
    let data = try DataLocator.directory(options)
    let catalog = try RouteCatalog.load(dataDirectory: data)
    let name = options.value("order") ?? "lucias"
    guard let seedRoute = catalog.routes.first(where: { $0.name == name }) else {
        throw UsageError(description: "--order must be one of \(catalog.routes.map(\.name).joined(separator: ", ")), got \"\(name)\"")
    }
    guard let seed = UInt64(options.value("seed") ?? "30"), seed <= UInt64(Int64.max) else {
        throw UsageError(description: "--seed must be an integer within 0…\(Int64.max)")
    }
    let start = Date(timeIntervalSince1970: 1_780_698_600)  // 2026-06-05 18:30 in New York: a fixed demo clock
    let order = try Order(id: OrderID("demo-\(name)"), storeName: seedRoute.store, customer: PersonID("samriv"), dasher: PersonID("marcus"),
                          items: ["Margherita pie"], at: start)
    let moments = try DeliveryReplay.run(router: try streetRouter(data: data), order: order, from: seedRoute.storeCoordinate,
                                         to: catalog.home, start: start, seed: seed)
    let layouts = try moments.map { try TrackingLayout($0.map, size: ScreenSize(width: 393, height: 852), scale: 3, sheet: 0.52) }
    if let directory = options.value("frames") {
        let tracker = DeliveryTracker(engine: try MapEngine(paths: DataPaths(dataDirectory: data)))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (index, layout) in layouts.enumerated() {
            try Data(PNGCodec.encode(tracker.renderTracking(layout))).write(to: URL(fileURLWithPath: directory).appendingPathComponent(String(format: "%03d.png", index)))
        }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return try zip(moments, layouts).map { String(decoding: try encoder.encode(DemoLine(view: $0.view, map: $1)), as: UTF8.self) }.joined(separator: "\n")
}

/// A line of `demo-delivery`: what the customer receives, and their tracking map's layout under `map`.
private struct DemoLine: Encodable {
    let view: CustomerView
    let map: TrackingLayout

    private enum CodingKeys: String, CodingKey { case map }

    func encode(to encoder: any Encoder) throws {
        try view.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(map, forKey: .map)
    }
}
