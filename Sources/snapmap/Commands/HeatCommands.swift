import Foundation
import GeoCore
import HeatMap
import LiveMap
import MapEngine
import MapScene
import Raster

/// `snapmap generate-activity`: writes the demo's public Snaps from the hotspots file, deterministically.
let runGenerateActivity: Command.Run = { options in
    let data = try DataLocator.directory(options)
    let hotspotsURL = options.value("hotspots").map { URL(fileURLWithPath: $0) } ?? data.appendingPathComponent(SnapsFile.hotspotsFile)
    let outURL = options.value("out").map { URL(fileURLWithPath: $0) } ?? data.appendingPathComponent(SnapsFile.demoFile)
    let spec: ActivityGenerator.Hotspots
    do {
        spec = try JSONDecoder().decode(ActivityGenerator.Hotspots.self, from: Data(contentsOf: hotspotsURL))
    } catch {
        throw DataFileError.describing(error, file: hotspotsURL.path)
    }
    let store = try DataPaths(dataDirectory: data).loadBaseMap()
    let snaps = try ActivityGenerator.generate(spec) { store.isLand(WebMercator.projectUnchecked(lat: $0.lat, lon: $0.lon)) }
    try SnapsFile.encode(snaps).write(to: outURL, options: .atomic)
    return "wrote \(snaps.count) Snaps to \(outURL.path)"
}

/// `snapmap snaps import F.jsonl`: loads public Snaps into the live store (the glow), as a batch.
let runSnaps: Command.Run = { options in
    let arguments = try options.positionals()
    guard arguments.count == 2, arguments[0] == "import" else { throw UsageError(description: "expected import F.jsonl") }
    let (_, _, live, now) = try LiveOptions.live(options)
    let snaps = try SnapsFile.read(URL(fileURLWithPath: arguments[1]))
    try live.importSnaps(snaps, now: now)
    return "imported \(snaps.count) Snaps"
}
