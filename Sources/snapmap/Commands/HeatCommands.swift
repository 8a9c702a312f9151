import Foundation
import GeoCore
import HeatMap
import LiveMap
import MapEngine
import MapScene
import Raster

/// `snapmap generate-activity`: writes the demo's public Snaps from the hotspots file, deterministically.
let generateActivityCommand = Command(
    name: "generate-activity",
    summary: "generate Data/williamsburg/snaps.jsonl (the demo's public Snaps) from Data/williamsburg/hotspots.json (deterministic)",
    usage: "generate-activity [--hotspots F.json] [--out F.jsonl] [--data DIR]",
    options: [
        .value("hotspots", "F.json", "the hotspots file (default: the data directory's williamsburg/hotspots.json)"),
        .value("out", "F.jsonl", "where to write (default: the data directory's williamsburg/snaps.jsonl)"),
        DataLocator.option,
    ]
) { options in
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
let snapsCommand = Command(
    name: "snaps",
    summary: "public Snaps: import F.jsonl (lines of {\"person\", \"lat\", \"lon\", \"at\"}) into the live store",
    usage: "snaps import F.jsonl [--clock ISO8601|scene] [--db PATH]",
    options: [LiveOptions.clock] + LiveOptions.storeSpecs,
    positional: "import F.jsonl"
) { options in
    let arguments = try options.positionals()
    guard arguments.count == 2, arguments[0] == "import" else { throw UsageError(description: "expected import F.jsonl") }
    let (_, _, live, now) = try LiveOptions.live(options)
    let snaps = try SnapsFile.read(URL(fileURLWithPath: arguments[1]))
    try live.importSnaps(snaps, now: now)
    return "imported \(snaps.count) Snaps"
}
