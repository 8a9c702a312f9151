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
/// case also names answers the input must change and answers it must leave alone, so no case passes by changing
/// nothing. Request parameters and the style file are in `ETagParameterTests` and `ETagStyleTests`.
@Suite("ETags cover every input: the live world and the clock")
struct ETagInputTests {
    static let inView = ["layout", "frame", "pinsOnly"]
    static let elsewhere = ["frameMcCarren", "glowMcCarren", "frameLeo", "glowDomino"]

    static func expect(_ changed: Set<String>, change: [String], keep: [String], _ label: String) {
        #expect(changed.isSuperset(of: change), "\(label) should change \(Set(change).subtracting(changed).sorted())")
        #expect(changed.isDisjoint(with: keep), "\(label) should keep \(changed.intersection(keep).sorted())")
    }

    @Test(arguments: ["move", "appear", "hide", "unseen", "viewer", "viewerNudged"])
    func friends(change: String) async throws {
        let world = try ETagWorld()
        let now = world.clock.now
        let live = world.live
        let (sam, jordan) = (try PersonID("samriv"), try PersonID("jordan"))
        let changed = try await world.changed(by: change, ETagProbes.all) {
            switch change {
            case "move":
                try live.updateLocation(jordan, fix: LocationFix(lat: 40.7150, lon: -73.9690, accuracyMeters: 8, takenAt: now), now: now)
            case "appear":
                let newcomer = try live.addPerson(id: "newcomer", name: "Nia Newcomer").id
                try live.setSharing(newcomer, ghost: "off", audience: nil, now: now)
                try live.requestFriend(newcomer, "samriv")
                try live.requestFriend(sam, "newcomer")
                try live.updateLocation(newcomer, fix: LocationFix(lat: 40.7120, lon: -73.9560, accuracyMeters: 8, takenAt: now), now: now)
            case "hide":
                try live.setSharing(jordan, ghost: "3h", audience: nil, now: now)
            case "unseen":
                // Rae, a friend in Ghost Mode, and a stranger move in the middle of every private viewport's friends.
                try live.updateLocation(PersonID("rae"), fix: LocationFix(lat: 40.7170, lon: -73.9590, accuracyMeters: 8, takenAt: now), now: now)
                let stranger = try live.addPerson(id: "stranger", name: "Sol Stranger").id
                try live.setSharing(stranger, ghost: "off", audience: nil, now: now)
                try live.updateLocation(stranger, fix: LocationFix(lat: 40.7205, lon: -73.9513, accuracyMeters: 8, takenAt: now), now: now)
            case "viewer":
                try live.updateLocation(sam, fix: LocationFix(lat: 40.7250, lon: -73.9500, accuracyMeters: 8, takenAt: now), now: now)
            default:
                // A metre: the card's distance ("880 m away") reads the same.
                try live.updateLocation(sam, fix: LocationFix(lat: 40.71501, lon: -73.9580, accuracyMeters: 8, takenAt: now), now: now)
            }
        }
        let publicNames = Array(ETagProbes.publicNames)
        switch change {
        case "move": Self.expect(changed, change: Self.inView + ["selectedFrame", "layoutSelected", "zoom"], keep: Self.elsewhere + publicNames, change)
        case "appear": Self.expect(changed, change: Self.inView, keep: Self.elsewhere + publicNames, change)
        case "hide": Self.expect(changed, change: Self.inView + ["selectedFrame", "zoom"], keep: Self.elsewhere + publicNames, change)
        case "unseen": #expect(changed.isEmpty, "what Sam may not see changed \(changed.sorted())")
        case "viewer": Self.expect(changed, change: ["selectedFrame", "layoutSelected"], keep: Self.inView + Self.elsewhere + publicNames, change)
        default: Self.expect(changed, change: ["layoutSelected"], keep: ["selectedFrame"] + Self.inView + Self.elsewhere + publicNames, change)
        }
    }

    @Test(arguments: ["second", "minute", "epoch", "snaps", "hour"])
    func clock(change: String) async throws {
        let world = try ETagWorld()
        let epoch = Double(world.engine.heatStyle.epochSeconds)
        let nextEpoch = (world.clock.now.timeIntervalSince1970 / epoch).rounded(.up) * epoch + 30
        let changed = try await world.changed(by: change, ETagProbes.all) {
            switch change {
            case "second": world.advance(20)
            case "minute": world.advance(60)
            case "epoch": world.clock.set(Date(timeIntervalSince1970: nextEpoch))
            case "snaps":
                // Five new posters at Domino Park during the epoch: drawn from the next one.
                let now = world.clock.now
                for index in 0..<5 {
                    let poster = try world.live.addPerson(id: "poster\(index)", name: "Poster \(index)").id
                    try world.live.importSnaps([PublicSnap(person: poster, coordinate: ETagProbes.glowAt, takenAt: now.addingTimeInterval(-60))], now: now)
                }
                world.clock.set(Date(timeIntervalSince1970: nextEpoch))
            default: world.advance(3600)
            }
        }
        let labelled = ["layout", "layoutSelected", "frame", "pinsOnly", "selectedFrame"]
        let glow = ["glowMcCarren", "glowDomino", "heatMcCarren", "heatMcCarren2x", "heatDomino"]
        let base = ["tile", "tile2x", "mvt", "mvtPlain", "tileJSON", "vectorJSON", "style"]
        switch change {
        case "second": #expect(changed.isEmpty, "within a minute nothing changes: \(changed.sorted())")
        case "minute", "epoch": Self.expect(changed, change: labelled, keep: ["frameMcCarren", "frameLeo", "zoom"] + glow + base, change)
        case "snaps":
            Self.expect(changed, change: labelled + ["glowDomino", "heatDomino"],
                        keep: ["frameMcCarren", "frameLeo", "glowMcCarren", "heatMcCarren", "heatMcCarren2x"] + base, change)
        default: Self.expect(changed, change: labelled + ["frameLeo"] + glow, keep: base, change)
        }
    }
}
