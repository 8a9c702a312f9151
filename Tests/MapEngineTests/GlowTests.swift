import Foundation
import GeoCore
import HeatMap
import LiveMap
import Raster
import Testing
@testable import MapEngine
@testable import MapScene

/// The live glow in the engine, each test on an engine of its own (its glow starts empty), so no test sees another's
/// Snaps, whatever the order.
@Suite("The live glow")
struct GlowTests {
    static func engine() throws -> MapEngine {
        try MapEngine(paths: DataPaths(dataDirectory: SceneLoaderTests.dataDirectory))
    }

    static func snaps(_ count: Int, by people: [String], at coordinate: Coordinate, now: Date) -> [PostedSnap] {
        (0..<count).map { index in
            PostedSnap(poster: people[index % people.count], point: WebMercator.projectUnchecked(lat: coordinate.lat, lon: coordinate.lon),
                       takenAt: now.addingTimeInterval(-Double(index) * 60))
        }
    }

    @Test func onePersonsSnapsChangeNoByteAndEnoughPeoplesShow() throws {
        let engine = try Self.engine()
        let now = engine.scene.capturedAt
        for snap in try SnapsFile.read(engine.paths.dataDirectory.appendingPathComponent(SnapsFile.demoFile)) { engine.glow.aggregate.add(LiveGlow.posted(snap)) }
        let quiet = try Coordinate(lat: 40.7065, lon: -73.9450)
        let tile = try TileID(containing: quiet, zoom: 15)
        let before = try PNGCodec.encode(engine.renderHeatTile(tile, now: now))
        Self.snaps(60, by: ["loner"], at: quiet, now: now).forEach(engine.glow.aggregate.add)
        #expect(try PNGCodec.encode(engine.renderHeatTile(tile, now: now)) == before, "one person's Snaps alone are nothing")
        let floor = engine.glow.style.minimumPosters
        Self.snaps(floor - 2, by: (1..<floor - 1).map { "near-\($0)" }, at: quiet, now: now).forEach(engine.glow.aggregate.add)
        #expect(try PNGCodec.encode(engine.renderHeatTile(tile, now: now)) == before, "k − 1 people are still nothing")
        Self.snaps(1, by: ["the-kth"], at: quiet, now: now).forEach(engine.glow.aggregate.add)
        let after = try engine.renderHeatTile(tile, now: now)
        #expect(try PNGCodec.encode(after) != before)
        #expect((0..<256).contains { x in (0..<256).contains { after.pixel(x: x, y: $0).a > 0 } }, "k people's Snaps glow")
    }

    @Test(arguments: [-0.5, 0.5])
    func tilesAreSeamlessOnEitherSideOfAnHour(offset: Double) throws {
        let engine = try Self.engine()
        let hour = (engine.scene.capturedAt.timeIntervalSince1970 / 3600).rounded(.up) * 3600
        let now = Date(timeIntervalSince1970: hour + offset)
        for snap in try SnapsFile.read(engine.paths.dataDirectory.appendingPathComponent(SnapsFile.demoFile)) { engine.glow.aggregate.add(LiveGlow.posted(snap)) }
        let corner = try TileID(containing: Coordinate(lat: 40.7207, lon: -73.9515), zoom: 15)
        let bounds = corner.mercatorBounds
        let view = MapView(origin: MercatorPoint(x: bounds.minX, y: bounds.maxY), pixelsPerMetre: 256 / corner.span, width: 512, height: 512,
                           zoom: 15, scale: 1)
        let whole = try Canvas(width: 512, height: 512)
        whole.composite(try engine.glow.renderer(for: view, at: now).render(view))
        #expect((0..<512).contains { y in whole.pixel(x: 256, y: y).a > 0 }, "the glow crosses the tiles' seam, so the comparison means something")
        var differing = 0
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let tile = try TileID(z: 15, x: corner.x + dx, y: corner.y + dy)
            let part = try engine.renderHeatTile(tile, now: now)
            for y in 0..<256 {
                for x in 0..<256 {
                    let a = part.pixel(x: x, y: y)
                    let b = whole.pixel(x: x + 256 * dx, y: y + 256 * dy)
                    let steps = [Int(a.r) - Int(b.r), Int(a.g) - Int(b.g), Int(a.b) - Int(b.b), Int(a.a) - Int(b.a)].map(abs)
                    if steps.max() ?? 0 > 1 { differing += 1 }
                }
            }
        }
        #expect(differing == 0, "\(differing) pixels differ by more than one step between the tiles and the view they tile")
    }
}

extension GlowTests {
    /// The glow's radius is in metres (within a range of points) and its weight keeps each Snap's total: at a
    /// hotspot's centre the colour stays within one step of the ramp (between two of its stops) from z11 to z18.
    @Test func aHotspotKeepsItsColourFromZoom11To18() throws {
        let engine = try Self.engine()
        let now = engine.scene.capturedAt
        for snap in try SnapsFile.read(engine.paths.dataDirectory.appendingPathComponent(SnapsFile.demoFile)) { engine.glow.aggregate.add(LiveGlow.posted(snap)) }
        let spec = try JSONDecoder().decode(ActivityGenerator.Hotspots.self,
                                            from: Data(contentsOf: engine.paths.dataDirectory.appendingPathComponent(SnapsFile.hotspotsFile)))
        let stops = try Self.rampStops(engine.paths.styleFile)
        for hotspot in spec.hotspots {
            var steps: [Int] = []
            var densities: [Double] = []
            for zoom in stride(from: 11.0, through: 18.0, by: 0.5) {
                let viewport = try Viewport(center: Coordinate(lat: hotspot.lat, lon: hotspot.lon), zoom: zoom, size: ScreenSize(width: 64, height: 64), scale: 1)
                let view = MapView(viewport: viewport)
                let field = engine.glow.renderer(for: view, at: now).density(for: view)
                let level = min(Double(field.values[32 * field.width + 32]) / engine.glow.style.maxDensity, 1)
                densities.append(level)
                steps.append(stops.lastIndex { $0 <= level } ?? 0)
            }
            #expect((steps.max() ?? 0) - (steps.min() ?? 0) <= 1, "\(hotspot.name): ramp steps \(steps), levels \(densities.map { String(format: "%.2f", $0) })")
            #expect((densities.max() ?? 0) > 0.1, "\(hotspot.name) glows")
        }
    }

    static func rampStops(_ style: URL) throws -> [Double] {
        struct File: Decodable {
            struct Heat: Decodable {
                struct Stop: Decodable { let at: Double }
                let ramp: [Stop]
            }
            let heat: Heat
        }
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: style)).heat.ramp.map(\.at)
    }
}
