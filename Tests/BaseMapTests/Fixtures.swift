import BaseMap
import Foundation
import GeoCore
import Raster

/// Shared test resources: the committed style, the NYC sources and the imported store (imported once).
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let dataDirectory = packageRoot.appendingPathComponent("Data")
    static var sourceDirectory: URL {
        if let explicit = ProcessInfo.processInfo.environment["SNAPMAP_NYC_DATA"] { return URL(fileURLWithPath: explicit) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/nyc")
    }

    static let store: Result<BaseMapStore, any Error> = Result {
        try BaseMapCache.load(cacheDirectory: dataDirectory.appendingPathComponent("basemap"), sourceDirectory: sourceDirectory, waterNames: dataDirectory.appendingPathComponent("places/water-names.json"))
    }

    static func style(editing edit: (String) -> String = { $0 }) throws -> MapStyle {
        let text = try String(contentsOf: dataDirectory.appendingPathComponent("styles/snapmap.json"), encoding: .utf8)
        return try MapStyle.parse(Data(edit(text).utf8), file: "snapmap.json")
    }

    static func renderer(style: MapStyle? = nil) throws -> BaseMapRenderer {
        BaseMapRenderer(store: try store.get(), style: try style ?? Self.style(), labelFont: try InterFont.bold.load())
    }

    /// A frame viewport centred on a coordinate.
    static func view(_ lat: Double, _ lon: Double, zoom: Double, size: Double = 256, scale: Double = 1) throws -> MapView {
        MapView(viewport: try Viewport(center: Coordinate(lat: lat, lon: lon), zoom: zoom, size: ScreenSize(width: size, height: size), scale: scale))
    }
}
