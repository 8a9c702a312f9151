import Foundation
import GeoCore
import Testing
@testable import LiveMap

/// Footsteps: the thinning against a model written here (haversine distances on walks whose steps stay far from the
/// 50 m threshold), and the part of the conformance suite both stores run.
@Suite("Footsteps")
struct FootstepsTests {
    /// A walk of fixes: short steps (about 10 m) and long ones (about 200 m), at gaps of 1 to 20 minutes.
    static func walk(seed: UInt64, count: Int) throws -> [(Coordinate, Date)] {
        var random = SplitMix64(seed: seed)
        var (lat, lon, time) = (40.71, -73.96, StoreConformance.t0)
        return try (0..<count).map { _ in
            let long = random.next() % 4 == 0
            let metres = long ? 200.0 : 10.0
            let angle = Double(random.next() % 360) * .pi / 180
            lat += metres * cos(angle) / 111_320
            lon += metres * sin(angle) / (111_320 * cos(lat * .pi / 180))
            time = time.addingTimeInterval(Double(60 * (1 + random.next() % 20)))
            return (try Coordinate(lat: lat, lon: lon), time)
        }
    }

    static func haversine(_ a: Coordinate, _ b: Coordinate) -> Double {
        let (p1, p2) = (a.lat * .pi / 180, b.lat * .pi / 180)
        let (dp, dl) = (p2 - p1, (b.lon - a.lon) * .pi / 180)
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * 6_371_008.8 * asin(sqrt(h))
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func thinningKeepsAPlacePerFiftyMetresOrTenMinutes(seed: UInt64) throws {
        let walk = try Self.walk(seed: seed, count: 400)
        var places: [Footstep] = []
        var model: [(coordinate: Coordinate, first: Date, last: Date)] = []
        for (coordinate, time) in walk {
            let (place, extendsLast) = Footsteps.next(after: places.last, coordinate: coordinate, at: time)
            if extendsLast { places[places.count - 1] = place } else { places.append(place) }
            if let last = model.last, time.timeIntervalSince(last.last) < 600, Self.haversine(last.coordinate, coordinate) < 50 {
                model[model.count - 1].last = time
            } else {
                model.append((coordinate, time, time))
            }
        }
        #expect(places.map(\.coordinate) == model.map(\.coordinate) && places.map(\.firstVisit) == model.map(\.first)
                && places.map(\.lastVisit) == model.map(\.last))
        #expect(places.count > 50 && places.count < walk.count, "the walk both extends places and starts them: \(places.count) of \(walk.count)")
    }
}

extension StoreConformance {
    /// Footsteps are kept only while on, inside the fix's write, thinned, bounded by the year, cleared at once, and go
    /// with their person.
    static func footsteps(_ store: any LiveStore) throws {
        let (gus, hal) = (try PersonID("gus"), try PersonID("hal"))
        for id in [gus, hal] { _ = try store.addPerson(person(id.rawValue), settings: .newPerson) }
        let nobody = try PersonID("nobody")
        #expect(try !store.footstepsOn(gus) && !store.footstepsOn(nobody))
        _ = try store.recordFix(fix(40.7000, -73.9500, at: 0), of: gus)
        #expect(try store.footsteps(of: gus).isEmpty, "nothing is kept while off")
        try store.setFootsteps(on: true, of: gus)
        try store.setFootsteps(on: true, of: nobody)
        #expect(try store.footstepsOn(gus) && !store.footstepsOn(hal) && !store.footstepsOn(nobody))
        _ = try store.recordFix(fix(40.7001, -73.9500, at: 60), of: gus)
        _ = try store.recordFix(fix(40.7002, -73.9500, at: 120), of: gus)
        _ = try store.recordFix(fix(40.7100, -73.9500, at: 180), of: gus)
        _ = try store.recordFix(fix(40.7100, -73.9500, at: 30), of: gus)
        _ = try store.recordFix(fix(40.7101, -73.9500, at: 1000), of: gus)
        _ = try store.recordFix(fix(40.7200, -73.9500, at: 1060), of: hal)
        let places = try store.footsteps(of: gus)
        #expect(places.map(\.coordinate.lat) == [40.7001, 40.7100, 40.7101], "an older fix adds nothing; a gap of 10 minutes starts a place")
        #expect(places.map(\.firstVisit) == [t0.addingTimeInterval(60), t0.addingTimeInterval(180), t0.addingTimeInterval(1000)])
        #expect(try places.first?.lastVisit == t0.addingTimeInterval(120) && store.footsteps(of: hal).isEmpty)
        _ = try store.recordFix(fix(40.7300, -73.9500, at: Footsteps.keptFor + 500), of: gus)
        #expect(try store.footsteps(of: gus).map(\.coordinate.lat) == [40.7101, 40.7300], "places last seen more than a year before go")
        try store.setFootsteps(on: false, of: gus)
        _ = try store.recordFix(fix(40.7400, -73.9500, at: Footsteps.keptFor + 600), of: gus)
        #expect(try store.footsteps(of: gus).count == 2, "off stops keeping and keeps what was kept")
        #expect(try store.clearFootsteps(of: gus) == 2 && store.footsteps(of: gus).isEmpty)
        try store.setFootsteps(on: true, of: hal)
        _ = try store.recordFix(fix(40.7200, -73.9500, at: Footsteps.keptFor + 700), of: hal)
        #expect(try store.footsteps(of: hal).count == 1 && store.removePerson(hal))
        #expect(try store.addPerson(person("hal"), settings: .newPerson) && !store.footstepsOn(hal) && store.footsteps(of: hal).isEmpty,
                "a deleted account takes its Footsteps along")
    }

    /// The places inside a box, through the store's index, are those of the whole history inside it, for random boxes
    /// from a street's width to the world, with another person's places in the same streets; after the year drops some,
    /// after a clear and after the account goes, the index holds what the history holds.
    static func footstepsByPlace(_ store: any LiveStore) throws {
        let (ivy, jon) = (try PersonID("ivy"), try PersonID("jon"))
        for id in [ivy, jon] {
            _ = try store.addPerson(person(id.rawValue), settings: .newPerson)
            try store.setFootsteps(on: true, of: id)
        }
        var random = SplitMix64(seed: 29)
        for index in 0..<120 {
            for id in [ivy, jon] {
                let at = Double(index * 700) + (id == ivy ? 0 : 1)
                _ = try store.recordFix(fix(.random(in: 40.68...40.74, using: &random), .random(in: -73.99 ... -73.92, using: &random), at: at), of: id)
            }
        }
        func check(_ id: PersonID, _ moment: String) throws {
            let all = try store.footsteps(of: id).map(\.coordinate)
            var hits = 0
            for size in [0.0005, 0.005, 0.02, 0.06, 400] {
                let (lat, lon) = (Double.random(in: 40.68...40.74, using: &random), Double.random(in: -73.99 ... -73.92, using: &random))
                let box = try GeoBoundingBox(west: max(lon - size, -180), south: max(lat - size / 2, -90), east: min(lon + size, 180), north: min(lat + size / 2, 90))
                let expected = all.filter { (box.south...box.north).contains($0.lat) && (box.west...box.east).contains($0.lon) }
                let found = try store.footsteps(of: id, in: box)
                #expect(found.count == expected.count && Set(found) == Set(expected), "\(moment): \(found.count) places in \(box), \(expected.count) expected")
                hits += found.count
            }
            #expect(all.isEmpty || hits > 0, "\(moment): the boxes found places")
        }
        try check(ivy, "kept")
        #expect(try store.footsteps(of: ivy).count > 100)
        _ = try store.recordFix(fix(40.7100, -73.9500, at: Footsteps.keptFor + 30_000), of: ivy)
        #expect(try (1..<100).contains(store.footsteps(of: ivy).count), "the year dropped some places")
        try check(ivy, "after the year")
        #expect(try store.clearFootsteps(of: ivy) > 0)
        try check(ivy, "cleared")
        #expect(try store.footsteps(of: ivy, in: GeoBoundingBox(west: -180, south: -90, east: 180, north: 90)).isEmpty)
        try check(jon, "another's")
        #expect(try store.removePerson(jon) && store.addPerson(person("jon"), settings: .newPerson))
        #expect(try store.footsteps(of: jon, in: GeoBoundingBox(west: -180, south: -90, east: 180, north: 90)).isEmpty, "a deleted account's places go")
    }
}
