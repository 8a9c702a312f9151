import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapScene
import MapServer
import Testing

/// Issue 25's property: in a random world, a person whose Snaps all lie in cells with fewer than k distinct posters
/// (counting them) changes no byte of any public output when their Snaps are taken away: heat tiles at several
/// zooms and both scales, the glow in a frame, their ETags and lengths, TileJSON and a vector tile.
@Suite("No public output depends on a cell of fewer than k posters")
struct GlowKAnonymityTests {
    /// What one request answers, all of it an observer can compare.
    struct Answer: Equatable {
        let status: Int
        let tag: String?
        let length: Int
        let body: [UInt8]
    }

    static let centre = try! Coordinate(lat: 40.7173, lon: -73.9570)

    /// Crowds of 5–12 people posting within 150 m of a few spots, and loners posting within 60 m of their own spot,
    /// all within 1.2 km of the centre and the 11 hours before `end`; some loners land beside or inside a crowd.
    static func world(seed: UInt64, before end: Date) throws -> [PublicSnap] {
        var random = SplitMix64(seed: seed)
        func place(around spot: Coordinate, within metres: Double) -> Coordinate {
            Geodesic.wgs84.destination(from: spot, azimuth: 360 * random.unit(), distance: metres * random.unit().squareRoot())
        }
        func snaps(by person: String, count: Int, around spot: Coordinate, within metres: Double) throws -> [PublicSnap] {
            try (0..<count).map { _ in
                try PublicSnap(person: PersonID(person, field: "person"), coordinate: place(around: spot, within: metres),
                               takenAt: end.addingTimeInterval(-random.unit() * 11 * 3600))
            }
        }
        var all: [PublicSnap] = []
        for crowd in 0..<4 {
            let spot = place(around: centre, within: 1200)
            for member in 0..<(5 + Int(random.next() % 8)) {
                all += try snaps(by: "crowd\(crowd)-\(member)", count: 1 + Int(random.next() % 8), around: spot, within: 150)
            }
        }
        for loner in 0..<12 {
            all += try snaps(by: "loner\(loner)", count: 1 + Int(random.next() % 20), around: place(around: centre, within: 1200), within: 60)
        }
        return all
    }

    /// The distinct posters of each cell the glow is drawn from (every Snap here is in the window and received
    /// before the epoch drawn), counted the direct way.
    static func posters(_ snaps: [PublicSnap], zoom: Int) -> [String: Set<String>] {
        var posters: [String: Set<String>] = [:]
        for snap in snaps { posters[cell(snap.coordinate, zoom: zoom), default: []].insert(snap.person.rawValue) }
        return posters
    }

    static func cell(_ coordinate: Coordinate, zoom: Int) -> String {
        let point = WebMercator.projectUnchecked(lat: coordinate.lat, lon: coordinate.lon)
        let span = WebMercator.worldSize / Double(1 << zoom)
        return "\(Int(((point.x + WebMercator.halfWorld) / span).rounded(.down))),\(Int(((WebMercator.halfWorld - point.y) / span).rounded(.down)))"
    }

    /// Every public output near `places`, and the frame's glow over the whole world.
    static func outputs(of map: InProcessMap, near places: [Coordinate]) async throws -> [String: Answer] {
        var paths = ["/tiles.json", "/tiles/15/9652/12319.mvt"]
        for zoom in [13, 15, 17] {
            for place in places {
                let tile = try TileID(containing: place, zoom: zoom)
                paths += ["/heat/\(zoom)/\(tile.x)/\(tile.y).png", "/heat/\(zoom)/\(tile.x)/\(tile.y)@2x.png"]
            }
        }
        var answers: [String: Answer] = [:]
        for path in Set(paths) {
            let answer = await map.fetch(path)
            answers[path] = Answer(status: answer.status, tag: answer.header("ETag"), length: answer.body.count, body: answer.body)
        }
        let frame = await map.fetch("/v1/me/frame.png", query: ["layers": "heat", "center": "\(centre.lat),\(centre.lon)", "zoom": "14",
                                                                "size": "320x320", "scale": "1"])
        answers["frame"] = Answer(status: frame.status, tag: frame.header("ETag"), length: frame.body.count, body: frame.body)
        return answers
    }

    static func differences(_ a: [String: Answer], _ b: [String: Answer]) -> [String] {
        Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func removingAPersonBelowTheFloorChangesNoByte(seed: UInt64) async throws {
        let captured = try SceneLoader(dataDirectory: InProcessMap.dataDirectory).load().capturedAt
        let (snaps, now) = (try Self.world(seed: seed, before: captured.addingTimeInterval(-60)), captured.addingTimeInterval(30))
        let full = try InProcessMap(snaps: snaps, at: now)
        let settings = full.engine.glow.aggregate.settings
        let posters = Self.posters(snaps, zoom: settings.cellZoom)
        let cells = Dictionary(grouping: snaps) { $0.person.rawValue }.mapValues { Set($0.map { Self.cell($0.coordinate, zoom: settings.cellZoom) }) }
        let hidden = cells.filter { $0.value.allSatisfy { (posters[$0]?.count ?? 0) < settings.minimumPosters } }.keys.sorted()
        let shown = cells.filter { $0.value.contains { (posters[$0]?.count ?? 0) >= settings.minimumPosters } }.keys.sorted()
        try #require(hidden.count >= 2 && !shown.isEmpty, "seed \(seed): the world has people below the floor and cells above it")
        // The person below the floor nearest a drawn cell (where a leak would show most), then all of them at once.
        let drawn = posters.filter { $0.value.count >= settings.minimumPosters }.keys
        let nearest = try #require(hidden.min { Self.distance(cells[$0]!, to: drawn) < Self.distance(cells[$1]!, to: drawn) })
        let places = [Self.centre] + [nearest, shown[0]].compactMap { person in snaps.first { $0.person.rawValue == person }?.coordinate }
        let everyone = try await Self.outputs(of: full, near: places)
        #expect(everyone["frame"]?.status == 200 && everyone.values.contains { $0.status == 200 && $0.length > 200 }, "something glows")
        for removed in [[nearest], hidden] {
            let without = try await Self.outputs(of: InProcessMap(snaps: snaps.filter { !removed.contains($0.person.rawValue) }, at: now), near: places)
            #expect(Self.differences(everyone, without).isEmpty, "seed \(seed): removing \(removed) changed \(Self.differences(everyone, without))")
        }
        let withoutShown = try await Self.outputs(of: InProcessMap(snaps: snaps.filter { $0.person.rawValue != shown[0] }, at: now), near: places)
        #expect(!Self.differences(everyone, withoutShown).isEmpty, "seed \(seed): removing \(shown[0]), in a drawn cell, changes something")
    }

    /// How far (in cells, the larger of the two offsets) the nearest of `cells` lies from any of `drawn`.
    static func distance(_ cells: Set<String>, to drawn: some Collection<String>) -> Int {
        func parse(_ key: String) -> (Int, Int) {
            let parts = key.split(separator: ",").compactMap { Int($0) }
            return (parts[0], parts[1])
        }
        return cells.map(parse).map { a in drawn.map(parse).map { b in max(abs(a.0 - b.0), abs(a.1 - b.1)) }.min() ?? .max }.min() ?? .max
    }
}
