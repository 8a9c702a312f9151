import BaseMap
import Foundation
import MapEngine
import MapScene

/// `snapmap import-basemap`: builds `Data/basemap/basemap.bin` from the NYC sources (part of the set-up).
let runImportBaseMap: Command.Run = { options in
    let paths = DataPaths(dataDirectory: try DataLocator.directory(options))
    let sources = paths.baseMapSourceDirectory
    let cache = paths.baseMapCacheDirectory.appendingPathComponent(BaseMapCache.fileName)
    let clock = ContinuousClock()
    let fingerprint = BaseMapCache.fingerprint(of: sources, waterNames: paths.waterNamesFile)
    var note = ""
    if !options.flag("force") {
        do {
            if let current = try BaseMapCache.read(from: cache, fingerprint: fingerprint) {
                return "base map cache is current: \(cache.path) (\(summary(current)))"
            }
        } catch {
            note = " (the old cache was corrupt: \(error))"
        }
    }
    var store: BaseMapStore?
    let elapsed = try clock.measure {
        store = try BaseMapImporter.importStore(from: sources, waterNames: paths.waterNamesFile)
        try BaseMapCache.write(store!, fingerprint: fingerprint, to: cache)
    }
    return "imported \(sources.path) into \(cache.path) in \(elapsed) (\(summary(store!)))" + note
}

private func summary(_ store: BaseMapStore) -> String {
    "\(store.land.count) land polygons, \(store.parks.count) parks, \(store.streets.count) streets, \(store.places.count) places, \(store.land.xs.count + store.parks.xs.count + store.streets.xs.count) points"
}
