import Foundation
import GeoCore
import HeatMap
import MapEngine
import Raster

/// `snapmap generate-activity`: writes the glow's sample activity from the hotspots file, deterministically.
let generateActivityCommand = Command(
    name: "generate-activity",
    summary: "generate Data/williamsburg/activity.json from Data/williamsburg/hotspots.json (deterministic)",
    usage: "generate-activity [--hotspots F.json] [--out F.json] [--data DIR]",
    options: [
        .value("hotspots", "F.json", "the hotspots file (default: the data directory's williamsburg/hotspots.json)"),
        .value("out", "F.json", "where to write (default: the data directory's williamsburg/activity.json)"),
        DataLocator.option,
    ]
) { options in
    let data = try DataLocator.directory(options)
    let hotspotsURL = options.value("hotspots").map { URL(fileURLWithPath: $0) } ?? data.appendingPathComponent(ActivityLoader.hotspotsFile)
    let outURL = options.value("out").map { URL(fileURLWithPath: $0) } ?? data.appendingPathComponent(ActivityLoader.activityFile)
    let spec: ActivityGenerator.Hotspots
    do {
        spec = try JSONDecoder().decode(ActivityGenerator.Hotspots.self, from: Data(contentsOf: hotspotsURL))
    } catch {
        throw FixtureError.describing(error, file: hotspotsURL.path)
    }
    let activity = try ActivityGenerator.generate(spec)
    try Data((try JSONOutput.encode(activity) + "\n").utf8).write(to: outURL, options: .atomic)
    return "wrote \(activity.points.count) points to \(outURL.path)"
}
