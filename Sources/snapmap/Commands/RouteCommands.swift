import DeliveryTracking
import Foundation
import GeoCore
import Raster

/// What the route commands share: the route and its framing (the `route` options of `commands.json`).
enum RouteOptions {
    /// The tracker, the route (cut to its last metres when asked) and the framing options.
    static func resolve(_ options: ParsedOptions) throws -> (DeliveryTracker, DeliveryRoute, RouteFrameOptions) {
        let tracker = DeliveryTracker(engine: try DataLocator.engine(options))
        let (route, framing) = try options.request.route(in: tracker.routes)
        return (tracker, route, framing)
    }
}

/// `snapmap route-frame`: the tracking snapshot of a route above the sheet, and its projected points.
let runRouteFrame: Command.Run = { options in
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
let runRouteState: Command.Run = { options in
    let progress = try options.request.progress()
    let (tracker, route, framing) = try RouteOptions.resolve(options)
    let frame = try tracker.frame(route, options: framing)
    return try JSONOutput.encode(tracker.courier(on: route, progress: progress, frame: frame))
}
