// swift-tools-version:6.0
import PackageDescription

/// Every module of the product is compiled optimized in debug builds too (tests still see internals: SwiftPM passes
/// -enable-testing). Unoptimized, the inner loops (blending, coverage, blur, the glow's density, the view's and the
/// stores' reads) ran 10–20× slower, and `make test` spent its time in the test servers' frames and the views' reads.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

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
        .systemLibrary(name: "CPrefetch"),
        .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),
        .target(name: "Parallel", swiftSettings: optimizedInDebug),
        .target(name: "Planar", swiftSettings: optimizedInDebug),
        .target(name: "GeoCore", dependencies: ["CProj", "Parallel", "Planar"], swiftSettings: optimizedInDebug),
        .target(name: "Raster", dependencies: ["CPNG", "CFreeType", "CMalloc", "CZlib", "Parallel", "Planar"], swiftSettings: optimizedInDebug),
        .target(name: "BaseMap", dependencies: ["GeoCore", "Raster"], swiftSettings: optimizedInDebug),
        .target(name: "VectorTiles", dependencies: ["GeoCore", "Raster", "BaseMap", "CZlib"], swiftSettings: optimizedInDebug),
        .target(name: "HeatMap", dependencies: ["GeoCore", "Raster", "Parallel"], swiftSettings: optimizedInDebug),
        .target(name: "PinLayout", dependencies: ["GeoCore", "CPrefetch"], swiftSettings: optimizedInDebug),
        .target(name: "Routing", dependencies: ["GeoCore", "BaseMap"], swiftSettings: optimizedInDebug),
        .target(name: "SQLiteKit", dependencies: ["CSQLite"], swiftSettings: optimizedInDebug),
        .target(name: "LiveMap", dependencies: ["GeoCore", "SQLiteKit", "CCrypto"], swiftSettings: optimizedInDebug),
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        .target(name: "RedisStore", dependencies: ["LiveMap", "GeoCore", "CHiredis"], swiftSettings: optimizedInDebug),
        .target(name: "Orders", dependencies: ["LiveMap", "Routing", "GeoCore"], swiftSettings: optimizedInDebug),
        .target(name: "MapScene", dependencies: ["GeoCore", "Raster", "HeatMap", "LiveMap"], swiftSettings: optimizedInDebug),
        .target(name: "PinDrawing", dependencies: ["GeoCore", "Raster", "PinLayout", "MapScene", "LiveMap"], swiftSettings: optimizedInDebug),
        .target(name: "MapEngine", dependencies: ["GeoCore", "Raster", "BaseMap", "PinLayout", "MapScene", "PinDrawing"], swiftSettings: optimizedInDebug),
        .target(name: "DeliveryTracking", dependencies: ["GeoCore", "Raster", "BaseMap", "MapScene", "MapEngine", "Orders"], swiftSettings: optimizedInDebug),
        .target(name: "TileExport", dependencies: ["Parallel", "GeoCore", "SQLiteKit", "VectorTiles"], swiftSettings: optimizedInDebug),
        .target(name: "MapRequest", dependencies: ["GeoCore", "MapScene", "MapEngine", "DeliveryTracking", "Orders"], swiftSettings: optimizedInDebug),
        .target(name: "SnapMapVersion", swiftSettings: optimizedInDebug),
        .target(name: "SnapMapClient", dependencies: ["SnapMapVersion"], swiftSettings: optimizedInDebug),
        .target(name: "MapServer", dependencies: ["SnapMapVersion", "Orders", "Routing", "MapEngine", "MapScene", "MapRequest", "DeliveryTracking", "TileExport", "VectorTiles", "PinDrawing", "LiveMap", "GeoCore", "Raster", "PinLayout", "CMicroHTTPD"], swiftSettings: optimizedInDebug),
        .executableTarget(name: "snapmap", dependencies: ["SnapMapVersion", "Routing", "Orders", "MapEngine", "MapScene", "MapRequest", "DeliveryTracking", "TileExport", "VectorTiles", "MapServer", "LiveMap", "RedisStore", "GeoCore", "Raster", "HeatMap", "PinLayout"],
                          resources: [.embedInCode("commands.json")], swiftSettings: optimizedInDebug),
        .executableTarget(name: "snapmap-bench", dependencies: ["Parallel", "Routing", "Orders", "GeoCore", "Raster", "BaseMap", "HeatMap", "PinLayout", "MapEngine", "MapScene", "TileExport", "LiveMap", "SQLiteKit", "RedisStore", "VectorTiles"]),
        .testTarget(name: "GeoCoreTests", dependencies: ["GeoCore", "ServerTestSupport"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "GeoCore", "Parallel"]),
        .testTarget(name: "ParallelTests", dependencies: ["Parallel"]),
        .testTarget(name: "BaseMapTests", dependencies: ["BaseMap", "GeoCore", "Raster"]),
        .testTarget(name: "VectorTilesTests", dependencies: ["VectorTiles", "BaseMap", "GeoCore", "MapEngine", "MapScene", "TileExport", "SQLiteKit", "snapmap", "ServerTestSupport"]),
        .testTarget(name: "HeatMapTests", dependencies: ["HeatMap", "GeoCore", "Raster"]),
        .testTarget(name: "RoutingTests", dependencies: ["Routing", "BaseMap", "GeoCore"]),
        .testTarget(name: "OrdersTests", dependencies: ["Orders", "Routing", "LiveMap", "SQLiteKit", "RedisStore", "BaseMap", "GeoCore", "ServerTestSupport"]),
        .testTarget(name: "PinLayoutTests", dependencies: ["PinLayout", "GeoCore"]),
        .target(name: "ServerTestSupport", path: "Tests/ServerTestSupport"),
        .testTarget(name: "LiveMapTests", dependencies: ["LiveMap", "GeoCore", "SQLiteKit", "RedisStore", "snapmap", "ServerTestSupport"]),
        .testTarget(name: "MapEngineTests", dependencies: ["MapEngine", "MapScene", "PinDrawing", "DeliveryTracking", "Orders", "TileExport", "MapRequest", "LiveMap", "GeoCore", "SQLiteKit", "HeatMap", "Raster", "ServerTestSupport"]),
        .testTarget(name: "SnapmapCLITests", dependencies: ["snapmap", "ServerTestSupport"]),
        .testTarget(name: "SnapMapClientTests", dependencies: ["SnapMapClient", "snapmap", "ServerTestSupport"]),
        .testTarget(name: "MapServerTests", dependencies: ["snapmap", "MapServer", "MapEngine", "MapScene", "LiveMap", "GeoCore", "VectorTiles", "Raster", "ServerTestSupport", "Orders"]),
    ],
    swiftLanguageModes: [.v6]
)
