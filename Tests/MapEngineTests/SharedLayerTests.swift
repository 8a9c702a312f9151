import Foundation
import GeoCore
import HeatMap
import Raster
import Testing
@testable import BaseMap
@testable import MapEngine
@testable import MapScene

@Suite("Frames through shared layers")
struct SharedLayerTests {
    @Test func sharedLayersGiveTheSameBytesAsAFrameFromScratch() throws {
        let engine = try EngineFixture.engine.get()
        let friends = try LiveFixture.samsFriends()
        let scene = engine.scene
        let sharing = SharedLayers(budget: 256 * 1024 * 1024)
        let cases: [(Coordinate, Double, Double, String?)] = [
            (scene.viewport.center, 14.5, 1, nil), (scene.viewport.center, 14.5, 1, "jordan"), (try Coordinate(lat: 40.7190, lon: -73.9560), 15.2, 2, "theo"),
            (try Coordinate(lat: 40.7150, lon: -73.9620), 13.7, 1, "maya"), (scene.viewport.center, 14.5, 1, "eli"),
            // Downtown Brooklyn, where no friend is: no pin moves a name (in Williamsburg, from z15, pins move station names).
            (try Coordinate(lat: 40.6930, lon: -73.9900), 15.2, 1, nil),
        ]
        var namesMoved = Set<Bool>()
        for (center, zoom, scale, selected) in cases {
            let viewport = try Viewport(center: center, zoom: zoom, size: ScreenSize(width: 393, height: 852), scale: scale, insets: scene.viewport.insets)
            let layers: Set<MapLayer> = [.base, .heat, .pins]
            let view = MapView(viewport: viewport)
            let names = engine.baseMap.placeNames(for: view)
            let pins = engine.pinBoxes(try engine.layout(viewport, friends: friends, selected: selected, now: scene.capturedAt))
            namesMoved.insert(engine.baseMap.shownPlaceNames(names, of: view, avoiding: pins) != engine.baseMap.shownPlaceNames(names, of: view, avoiding: []))
            let scratch = try PNGCodec.encode(engine.renderFrame(viewport, layers: layers, friends: friends, selected: selected, now: scene.capturedAt).canvas)
            for _ in 0..<2 {
                let shared = try engine.renderFrame(viewport, layers: layers, friends: friends, selected: selected, now: scene.capturedAt, sharing: sharing)
                #expect(try PNGCodec.encode(shared.canvas) == scratch, "\(center) z\(zoom) @\(scale)x \(selected ?? "none")")
                #expect(try shared.png() == scratch, "reusing the shared layer's PNG bands gives the same bytes")
            }
        }
        #expect(sharing.count == 4, "viewers of the same viewport share one base (the default viewport was asked three times)")
        #expect(namesMoved == [true, false], "both placements ran: names clear of the pins and names moved by them")
    }

    /// Many friends over the names: each frame moves only the names its pins push (their pixels copied back from the
    /// layer without names) and gets the bytes of a frame from scratch.
    @Test func crowdsOfPinsMoveNamesToTheBytesOfAFrameFromScratch() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let sharing = SharedLayers(budget: 256 * 1024 * 1024)
        var moved = 0
        for seed in UInt64(1)...4 {
            var random = SplitMix64(seed: seed)
            let friends = try (0..<(20 + Int(random.next() % 60))).map { index in
                Friend(id: "f\(index)", name: "Friend \(index)", place: "Brooklyn",
                       coordinate: try Coordinate(lat: 40.700 + random.unit() * 0.035, lon: -73.975 + random.unit() * 0.04),
                       lastSeen: scene.capturedAt.addingTimeInterval(-random.unit() * 3600), snapstreak: 0, bestFriend: false,
                       color: ["#FFB400", "#7C4DFF", "#00BFA5"][index % 3], avatar: nil)
            }
            let viewport = try Viewport(center: scene.viewport.center, zoom: 13.5 + Double(seed % 3) * 0.6, size: ScreenSize(width: 393, height: 852),
                                        scale: 2, insets: scene.viewport.insets)
            let layers: Set<MapLayer> = [.base, .heat, .pins]
            let scratch = try PNGCodec.encode(engine.renderFrame(viewport, layers: layers, friends: friends, now: scene.capturedAt).canvas)
            let shared = try engine.renderFrame(viewport, layers: layers, friends: friends, now: scene.capturedAt, sharing: sharing)
            #expect(try shared.png() == scratch, "seed \(seed)")
            let view = MapView(viewport: viewport)
            let names = engine.baseMap.placeNames(for: view)
            let pins = engine.pinBoxes(shared.layout)
            moved += engine.baseMap.namePlacements(names, of: view, avoiding: pins) != engine.baseMap.namePlacements(names, of: view, avoiding: []) ? 1 : 0
        }
        #expect(moved >= 2, "pins moved names in most of the frames")
    }

    /// In random layouts of name inks: every name that stays and is not drawn anew touches no restored pixel and no
    /// new name's pixel (what makes the frame the same bytes as one with all names drawn anew), every name drawn anew
    /// has its pixels restored, and only names reached through a chain of touching inks are drawn anew.
    @Test func namesTouchingAMovedNameAreRedrawnThroughChains() {
        func rect(_ random: inout SplitMix64) -> Rect {
            Rect(x: (random.unit() * 300).rounded(), y: (random.unit() * 300).rounded(), width: 10 + (random.unit() * 50).rounded(), height: 8 + (random.unit() * 20).rounded())
        }
        var chains = 0
        for seed in UInt64(1)...200 {
            var random = SplitMix64(seed: seed)
            let placements = (0..<12).map { NamePlacement(name: $0, option: 0) }
            let inks = Dictionary(uniqueKeysWithValues: placements.map { ($0, rect(&random)) })
            let (kept, removed) = (Array(placements[2...]), Array(placements[..<2]))
            let added = (0..<Int(random.next() % 3)).map { _ in rect(&random) }
            let (restored, redrawn) = MapEngine.namesToRedraw(kept: kept, inks: inks, removed: removed, added: added)
            let touches = { (a: Rect, b: Rect) in a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY }
            for placement in kept where !redrawn.contains(placement) {
                #expect(!(restored + added).contains { touches(inks[placement]!, $0) }, "seed \(seed): \(placement.name) keeps touched pixels")
            }
            #expect(redrawn.allSatisfy { restored.contains(inks[$0]!) } && removed.allSatisfy { restored.contains(inks[$0]!) })
            // Reached from the moved names by touching inks, one step at a time (a breadth-first walk, the reference).
            var reached = Set<NamePlacement>(), frontier = removed.map { inks[$0]! } + added
            while !frontier.isEmpty {
                let next = kept.filter { placement in !reached.contains(placement) && frontier.contains { touches(inks[placement]!, $0) } }
                reached.formUnion(next)
                frontier = next.map { inks[$0]! }
            }
            #expect(redrawn == reached, "seed \(seed)")
            chains += redrawn.contains { placement in !(removed.map { inks[$0]! } + added).contains { touches(inks[placement]!, $0) } } ? 1 : 0
        }
        #expect(chains > 10, "some names were reached only through another name that stays")
    }

    /// The shared layer's key is kept per glow revision and hour: new Snaps in view give a new layer at once.
    @Test func snapsPostedInViewChangeTheSharedLayer() throws {
        let engine = try MapEngine(paths: DataPaths(dataDirectory: SceneLoaderTests.dataDirectory))
        let scene = engine.scene
        let sharing = SharedLayers(budget: 256 * 1024 * 1024)
        let viewport = try Viewport(center: scene.viewport.center, zoom: 14, size: ScreenSize(width: 393, height: 852), scale: 1, insets: scene.viewport.insets)
        let before = try engine.renderFrame(viewport, layers: [.base, .heat], now: scene.capturedAt, sharing: sharing).png()
        let point = WebMercator.projectUnchecked(lat: scene.viewport.center.lat, lon: scene.viewport.center.lon)
        for index in 0..<(engine.glow.style.minimumPosters * 3) {
            engine.glow.aggregate.add(PostedSnap(poster: "poster-\(index % (engine.glow.style.minimumPosters + 1))", point: point,
                                       takenAt: scene.capturedAt.addingTimeInterval(-Double(index) * 30)))
        }
        let after = try engine.renderFrame(viewport, layers: [.base, .heat], now: scene.capturedAt, sharing: sharing).png()
        #expect(after != before)
        #expect(after == (try PNGCodec.encode(engine.renderFrame(viewport, layers: [.base, .heat], now: scene.capturedAt).canvas)))
        #expect(sharing.count == 2)
    }

    @Test func theCacheKeepsItsBudgetAndEvictsTheLeastRecentlyUsed() {
        let cache = ByteBudgetCache<Int, [UInt8]>(budget: 1000)
        for key in 0..<10 { cache.store([UInt8](repeating: 0, count: 200), for: key, cost: 200) }
        #expect(cache.bytes <= 1000 && cache.count == 5)
        #expect(cache.value(4) == nil && cache.value(5) != nil)
        cache.store([1], for: 10, cost: 200)
        #expect(cache.value(6) == nil && cache.value(5) != nil, "5 was used more recently than 6")
        cache.store([2], for: 11, cost: 300)
        #expect(cache.value(11) == nil, "more than a quarter of the budget is not kept")
        cache.removeAll()
        #expect(cache.bytes == 0 && cache.count == 0 && cache.value(5) == nil, "forgotten whole")
        cache.store([3], for: 12, cost: 100)
        #expect(cache.value(12) == [3] && cache.bytes == 100, "and usable again")
        cache.store([4], for: 13, cost: 50)
        cache.removeValue(for: 12)
        #expect(cache.value(12) == nil && cache.value(13) == [4] && cache.bytes == 50 && cache.count == 1, "one forgotten, the other kept")
    }
}
