import Foundation

/// Where the engine's files live: the project's `Data/` directory and the NYC base map sources beside the
/// checkout (`../shared/data/nyc`, or `$SNAPMAP_NYC_DATA`).
public struct DataPaths: Sendable {
    public let dataDirectory: URL
    private let explicitSourceDirectory: URL?

    /// `baseMapSourceDirectory` overrides where the NYC sources are looked for.
    public init(dataDirectory: URL, baseMapSourceDirectory: URL? = nil) {
        self.dataDirectory = dataDirectory
        explicitSourceDirectory = baseMapSourceDirectory
    }

    public var styleFile: URL { dataDirectory.appendingPathComponent("styles/snapmap.json") }
    public var trackingStyleFile: URL { dataDirectory.appendingPathComponent("styles/tracking.json") }
    public var baseMapCacheDirectory: URL { dataDirectory.appendingPathComponent("basemap") }
    /// The names of the big waters, which no base map source has.
    public var waterNamesFile: URL { dataDirectory.appendingPathComponent("places/water-names.json") }
    /// The driving speed of each street class, in km/h.
    public var streetSpeedsFile: URL { dataDirectory.appendingPathComponent("routing/speeds.json") }

    /// The NYC sources: the directory given at init, else `$SNAPMAP_NYC_DATA`, else `../shared/data/nyc` beside the checkout that holds `Data/`.
    public var baseMapSourceDirectory: URL {
        if let explicitSourceDirectory { return explicitSourceDirectory }
        if let explicit = ProcessInfo.processInfo.environment["SNAPMAP_NYC_DATA"] { return URL(fileURLWithPath: explicit) }
        return dataDirectory.standardizedFileURL.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/data/nyc")
    }
}
