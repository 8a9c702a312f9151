import DeliveryTracking
import Foundation
import GeoCore
import Raster

/// The options shared by the route commands.
enum RouteOptions {
    static let specs: [OptionSpec] = [
        .value("route", "NAME", "a route of Data/doordash/routes.json (lucias, sakura) or arc:LAT,LON for a smooth arc from a store"),
        .value("size", "WxH", "the screen in points (default 393x852)"),
        .value("scale", "S", "pixels per point, 1…4 (default 3)"),
        .value("sheet", "FRACTION", "the bottom sheet's share of the height, 0…0.9 (default 0.52)"),
        .value("margin", "PT", "margins around the route, 0…200 pt (default 40)"),
        .value("last-meters", "M", "frame only the last M metres of the drive"),
        DataLocator.option,
    ]

    /// The tracker, the route (cut to its last metres when asked) and the framing options.
    static func resolve(_ options: ParsedOptions) throws -> (DeliveryTracker, DeliveryRoute, RouteFrameOptions) {
        let tracker = DeliveryTracker(engine: try DataLocator.engine(options))
        let (route, framing) = try options.request.route(in: tracker.routes)
        return (tracker, route, framing)
    }
}

/// `snapmap route-frame`: the tracking snapshot of a route above the sheet, and its projected points.
let routeFrameCommand = Command(
    name: "route-frame",
    summary: "render the delivery-tracking snapshot framing a route above the bottom sheet, with its points as JSON",
    usage: "route-frame --route NAME [--size WxH] [--scale S] [--sheet FRACTION] [--margin PT] [--last-meters M] --out F.png [--json-out F.json]",
    options: RouteOptions.specs + [
        .value("out", "F.png", "the snapshot PNG"),
        .value("json-out", "F.json", "the camera and projected points (default: printed)"),
    ]
) { options in
    let out = try options.requiredPath("out")
    let (tracker, route, framing) = try RouteOptions.resolve(options)
    let frame = try tracker.frame(route, options: framing)
    let png = try PNGCodec.encode(tracker.renderTrackingMap(frame))
    let json = try JSONOutput.encode(frame)
    try Data(png).write(to: URL(fileURLWithPath: out))
    guard let jsonOut = try options.path("json-out") else { return json }
    try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: jsonOut))
    return "wrote \(out) and \(jsonOut)"
}

/// `snapmap route-state`: where the courier is on a route.
let routeStateCommand = Command(
    name: "route-state",
    summary: "the courier's position at constant speed along a route, the remaining line home and whether it arrived, as JSON",
    usage: "route-state --route NAME (--progress P | --at-seconds T --drive-seconds D) [framing options]",
    options: RouteOptions.specs + [
        .value("progress", "P", "the share of the drive done, 0…1"),
        .value("at-seconds", "T", "seconds since the courier left (with --drive-seconds)"),
        .value("drive-seconds", "D", "how long the whole drive takes, > 0"),
    ]
) { options in
    let progress = try options.request.progress()
    let (tracker, route, framing) = try RouteOptions.resolve(options)
    let frame = try tracker.frame(route, options: framing)
    return try JSONOutput.encode(tracker.courier(on: route, progress: progress, frame: frame))
}
