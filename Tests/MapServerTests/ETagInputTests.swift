import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapServer
import Testing

/// ETags cover every input of what they tag, and nothing else: for each input of the private and public answers (a
/// friend's move, appearing, hiding; people Sam may not see; Sam's own fix; the clock's seconds, minute, the glow's
/// epoch with and without new Snaps, the hour), changed one at a time in process, every answer's tag changes exactly
/// when its bytes do and a revalidation with the old tag is 304 exactly when they did not (`ETagWorld.holds`). Each
/// step also names answers it must change and answers it must leave alone, so none passes by changing nothing; the
/// steps of a test run in turn in one world. Request parameters and the style are in `ETagParameterTests` and
/// `ETagStyleTests`.
@Suite("ETags cover every input: the live world and the clock")
struct ETagInputTests {
    static let inView = ["layout", "frame", "pinsOnly"]
    static let elsewhere = ["frameMcCarren", "glowMcCarren", "frameLeo", "glowDomino"]

    /// One change of the world, the answers it must change and those it must keep.
    struct Step {
        let name: String
        let change: () throws -> Void
        let changes: [String]
        let keeps: [String]
    }

    /// Makes each step in turn, each checked against the world the step before left.
    static func run(_ world: ETagWorld, _ steps: [Step]) async throws {
        for step in steps {
            let changed = try await world.changed(by: step.name, ETagProbes.all, step.change)
            #expect(changed.isSuperset(of: step.changes), "\(step.name) should change \(Set(step.changes).subtracting(changed).sorted())")
            #expect(changed.isDisjoint(with: step.keeps), "\(step.name) should keep \(changed.intersection(step.keeps).sorted())")
        }
    }

    @Test func friends() async throws {
        let world = try ETagWorld()
        let (live, now) = (world.live, world.clock.now)
        let (sam, jordan) = (try PersonID("samriv"), try PersonID("jordan"))
        let publicNames = Array(ETagProbes.publicNames)
        let everything = ETagProbes.all.map(\.name)
        // Each fix a second after the last: an older one is ignored.
        let taken = StepCounter()
        func fix(_ lat: Double, _ lon: Double) throws -> LocationFix {
            try LocationFix(lat: lat, lon: lon, accuracyMeters: 8, takenAt: now.addingTimeInterval(taken.next()))
        }
        try await Self.run(world, [
            // Rae, a friend in Ghost Mode, and a stranger move in the middle of every private viewport's friends.
            Step(name: "unseen", change: {
                try live.updateLocation(PersonID("rae"), fix: fix(40.7170, -73.9590), now: now)
                let stranger = try live.addPerson(id: "stranger", name: "Sol Stranger").id
                try live.setSharing(stranger, ghost: "off", audience: nil, now: now)
                try live.updateLocation(stranger, fix: fix(40.7205, -73.9513), now: now)
            }, changes: [], keeps: everything),
            // A metre: the card's distance ("880 m away") reads the same; the selected layout has it in metres.
            Step(name: "Sam moves a metre", change: { try live.updateLocation(sam, fix: fix(40.71501, -73.9580), now: now) },
                 changes: ["layoutSelected"], keeps: ["selectedFrame"] + Self.inView + Self.elsewhere + publicNames),
            Step(name: "Sam moves", change: { try live.updateLocation(sam, fix: fix(40.7250, -73.9500), now: now) },
                 changes: ["selectedFrame", "layoutSelected"], keeps: Self.inView + Self.elsewhere + publicNames),
            Step(name: "Jordan moves", change: { try live.updateLocation(jordan, fix: fix(40.7150, -73.9690), now: now) },
                 changes: Self.inView + ["selectedFrame", "layoutSelected", "zoom"], keeps: Self.elsewhere + publicNames),
            Step(name: "a friend appears", change: {
                let newcomer = try live.addPerson(id: "newcomer", name: "Nia Newcomer").id
                try live.setSharing(newcomer, ghost: "off", audience: nil, now: now)
                try live.requestFriend(newcomer, "samriv")
                try live.requestFriend(sam, "newcomer")
                try live.updateLocation(newcomer, fix: fix(40.7120, -73.9560), now: now)
            }, changes: Self.inView, keeps: Self.elsewhere + publicNames),
            Step(name: "Jordan hides", change: { try live.setSharing(jordan, ghost: "3h", audience: nil, now: now) },
                 changes: Self.inView + ["selectedFrame", "zoom"], keeps: Self.elsewhere + publicNames),
        ])
    }

    @Test func clock() async throws {
        let world = try ETagWorld()
        let epoch = Double(world.engine.glow.style.epochSeconds)
        func epochAfter(_ date: Date) -> Date { Date(timeIntervalSince1970: (date.timeIntervalSince1970 / epoch).rounded(.up) * epoch + 30) }
        let labelled = ["layout", "layoutSelected", "frame", "pinsOnly", "selectedFrame"]
        let glow = ["glowMcCarren", "glowDomino", "heatMcCarren", "heatMcCarren2x", "heatDomino"]
        let base = ["tile", "tile2x", "mvt", "mvtPlain", "tileJSON", "vectorJSON", "style", "glyphs"]
        try await Self.run(world, [
            Step(name: "20 seconds", change: { world.advance(20) }, changes: [], keeps: ETagProbes.all.map(\.name)),
            // Labels read "3m", not "2m"; the group's label has no time and Leo's reads "3h" still.
            Step(name: "a minute", change: { world.advance(60) }, changes: labelled, keeps: ["frameMcCarren", "frameLeo", "zoom"] + glow + base),
            Step(name: "the next epoch", change: { world.clock.set(epochAfter(world.clock.now)) }, changes: labelled,
                 keeps: ["frameMcCarren", "frameLeo", "zoom"] + glow + base),
            // Five new posters at Domino Park during the epoch: drawn from the next one, and nowhere near McCarren Park.
            Step(name: "new Snaps and the next epoch", change: {
                let now = world.clock.now
                for index in 0..<5 {
                    let poster = try world.live.addPerson(id: "poster\(index)", name: "Poster \(index)").id
                    let snap = try PublicSnap(person: poster, coordinate: ETagProbes.glowAt, takenAt: now.addingTimeInterval(-60))
                    try world.live.importSnaps([snap], now: now)
                }
                world.clock.set(epochAfter(now))
            }, changes: labelled + ["glowDomino", "heatDomino"],
            keeps: ["frameMcCarren", "frameLeo", "glowMcCarren", "heatMcCarren", "heatMcCarren2x"] + base),
            // Every Snap weighs less, and Leo was seen 4 hours ago.
            Step(name: "the next hour", change: { world.advance(3600) }, changes: labelled + ["frameLeo"] + glow, keeps: base),
        ])
    }
}

/// 1, 2, 3, …
final class StepCounter {
    private var count = 0.0

    func next() -> Double {
        count += 1
        return count
    }
}
