import BaseMap
import MapScene

extension DataPaths {
    /// The base map of these paths, from its cache (imported from the sources and cached when the cache is missing or
    /// stale): what the engine draws, and what the order commands and the benchmarks route on.
    public func loadBaseMap() throws -> BaseMapStore {
        try BaseMapCache.load(cacheDirectory: baseMapCacheDirectory, sourceDirectory: baseMapSourceDirectory, waterNames: waterNamesFile)
    }
}
