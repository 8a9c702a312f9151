// swift-tools-version:6.0
import PackageDescription

/// The pixel, geometry and routing kernels are compiled optimized in debug builds too: unoptimized, their inner
/// loops (blending, coverage, blur, the glow's density) run 10–20× slower and the test servers' frames dominated `make test`.
let kernels: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "snapmap",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "snapmap", targets: ["snapmap"]),
        .library(name: "MapEngine", targets: ["MapEngine"]),
        .library(name: "SnapMapClient", targets: ["SnapMapClient"]),
    ],
    targets: [
        .systemLibrary(
            name: "CProj",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]
        ),
        .systemLibrary(
            name: "CFreeType",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libfreetype-dev", "libharfbuzz-dev"])]
        ),
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CMalloc"),
        .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),
        .target(name: "Parallel", swiftSettings: kernels),
        .target(name: "GeoCore", dependencies: ["CProj", "Parallel"], swiftSettings: kernels),
        .target(name: "Raster", dependencies: ["CPNG", "CFreeType", "CMalloc", "CZlib", "Parallel"], swiftSettings: kernels),
        .target(name: "BaseMap", dependencies: ["GeoCore", "Raster"], swiftSettings: kernels),
        .target(name: "VectorTiles", dependencies: ["GeoCore", "Raster", "BaseMap", "CZlib"], swiftSettings: kernels),
        .target(name: "HeatMap", dependencies: ["GeoCore", "Raster", "Parallel"], swiftSettings: kernels),
        .target(name: "PinLayout", dependencies: ["GeoCore"], swiftSettings: kernels),
        .target(name: "Routing", dependencies: ["GeoCore", "BaseMap"], swiftSettings: kernels),
        .target(name: "SQLiteKit", dependencies: ["CSQLite"]),
        .target(name: "LiveMap", dependencies: ["GeoCore", "SQLiteKit", "CCrypto"]),
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        .target(name: "RedisStore", dependencies: ["LiveMap", "GeoCore", "CHiredis"]),
        .target(name: "Orders", dependencies: ["LiveMap", "Routing", "GeoCore"]),
        .target(name: "MapScene", dependencies: ["GeoCore", "Raster", "HeatMap", "LiveMap"]),
        .target(name: "PinDrawing", dependencies: ["GeoCore", "Raster", "PinLayout", "MapScene", "LiveMap"]),
        .target(name: "MapEngine", dependencies: ["GeoCore", "Raster", "BaseMap", "PinLayout", "MapScene", "PinDrawing"]),
        .target(name: "DeliveryTracking", dependencies: ["GeoCore", "Raster", "BaseMap", "MapScene", "MapEngine", "Orders"]),
        .target(name: "TileExport", dependencies: ["Parallel", "GeoCore", "SQLiteKit", "VectorTiles"]),
        .target(name: "MapRequest", dependencies: ["GeoCore", "MapScene", "MapEngine", "DeliveryTracking", "Orders"]),
        .target(name: "SnapMapVersion"),
        .target(name: "SnapMapClient", dependencies: ["SnapMapVersion"]),
        .target(name: "MapServer", dependencies: ["SnapMapVersion", "Orders", "Routing", "MapEngine", "MapScene", "MapRequest", "DeliveryTracking", "TileExport", "VectorTiles", "PinDrawing", "LiveMap", "GeoCore", "Raster", "PinLayout", "CMicroHTTPD"]),
        .executableTarget(name: "snapmap", dependencies: ["SnapMapVersion", "Routing", "Orders", "MapEngine", "MapScene", "MapRequest", "DeliveryTracking", "TileExport", "VectorTiles", "MapServer", "LiveMap", "RedisStore", "GeoCore", "Raster", "HeatMap", "PinLayout"]),
        .executableTarget(name: "snapmap-bench", dependencies: ["Parallel", "Routing", "Orders", "GeoCore", "Raster", "BaseMap", "HeatMap", "PinLayout", "MapEngine", "MapScene", "TileExport", "LiveMap", "SQLiteKit", "RedisStore", "VectorTiles"]),
        .testTarget(name: "GeoCoreTests", dependencies: ["GeoCore", "ServerTestSupport"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "GeoCore", "Parallel"]),
        .testTarget(name: "ParallelTests", dependencies: ["Parallel"]),
        .testTarget(name: "BaseMapTests", dependencies: ["BaseMap", "GeoCore", "Raster"]),
        .testTarget(name: "VectorTilesTests", dependencies: ["VectorTiles", "BaseMap", "GeoCore", "MapEngine", "MapScene", "TileExport", "SQLiteKit", "snapmap", "ServerTestSupport"]),
        .testTarget(name: "HeatMapTests", dependencies: ["HeatMap", "GeoCore", "Raster"]),
        .testTarget(name: "RoutingTests", dependencies: ["Routing", "BaseMap", "GeoCore"]),
        .testTarget(name: "OrdersTests", dependencies: ["Orders", "Routing", "LiveMap", "SQLiteKit", "BaseMap", "GeoCore"]),
        .testTarget(name: "PinLayoutTests", dependencies: ["PinLayout", "GeoCore"]),
        .target(name: "ServerTestSupport", path: "Tests/ServerTestSupport"),
        .testTarget(name: "LiveMapTests", dependencies: ["LiveMap", "GeoCore", "SQLiteKit", "RedisStore", "snapmap", "ServerTestSupport"]),
        .testTarget(name: "MapEngineTests", dependencies: ["MapEngine", "MapScene", "PinDrawing", "DeliveryTracking", "Orders", "TileExport", "MapRequest", "LiveMap", "GeoCore", "SQLiteKit", "HeatMap", "Raster", "ServerTestSupport"]),
        .testTarget(name: "SnapmapCLITests", dependencies: ["snapmap", "ServerTestSupport"]),
        .testTarget(name: "SnapMapClientTests", dependencies: ["SnapMapClient", "snapmap", "ServerTestSupport"]),
        .testTarget(name: "MapServerTests", dependencies: ["snapmap", "MapServer", "MapEngine", "MapScene", "LiveMap", "GeoCore", "VectorTiles", "Raster", "ServerTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
