import Foundation
import GeoCore
import LiveMap
import PinLayout
import Testing
@testable import MapEngine
@testable import MapScene

/// A random world built through the service (Live Location shares, pauses and expiries included), checked viewer by
/// viewer against a model of the privacy rule written here, independently of `VisibilityRule`, at several clock
/// times: layouts, taps and zooms show exactly whom the model allows,
/// read from the store, from an in-memory view kept by the changes, and from one loaded from the store after them.
@Suite("Privacy against an independent model")
struct PrivacyModelTests {
    struct Model {
        var asks = Set<[String]>()
        var blocks = Set<[String]>()
        var ghostUntil: [String: Double] = [:]       // seconds since t0; .infinity = until turned off
        var audience: [String: (mode: String, ids: Set<String>)] = [:]
        var fixAt: [String: Double] = [:]            // seconds since t0
        var live: [[String]: (from: Double, until: Double)] = [:]  // [sharer, friend]: seconds since t0, while not paused

        func isLive(_ person: String, to viewer: String, at t: Double) -> Bool {
            live[[person, viewer]].map { $0.from <= t && t < $0.until } ?? false
        }

        func sees(_ viewer: String, _ person: String, at t: Double) -> Bool {
            guard viewer != person, asks.contains([viewer, person]), asks.contains([person, viewer]) else { return false }
            guard !blocks.contains([viewer, person]), !blocks.contains([person, viewer]) else { return false }
            guard let at = fixAt[person], at > t - 86_400, at <= t + 60 else { return false }
            if isLive(person, to: viewer, at: t) { return true }
            if let until = ghostUntil[person], t < until { return false }
            let (mode, ids) = audience[person] ?? ("friends", [])
            return !(mode == "friendsExcept" && ids.contains(viewer) || mode == "only" && !ids.contains(viewer))
        }
    }

    /// Where the answers are read from.
    enum Reads: String, CaseIterable {
        case store, viewKeptByTheChanges, viewLoadedAfterThem
    }

    @Test(arguments: Reads.allCases)
    func everyViewerSeesExactlyWhomTheModelAllows(reads: Reads) throws {
        let engine = try EngineFixture.engine.get()
        let store = try SQLiteLiveStore(path: EngineFixture.temporaryURL("privacy-\(reads).db").path, synchronous: false)
        let kept = LiveView(store: store)
        try kept.load()
        let live = LiveMapService(store: reads == .viewKeptByTheChanges ? kept : store)
        let t0 = engine.scene.capturedAt
        var random = SplitMix64(seed: 2026)
        let ids = (0..<56).map { "p\($0)" }
        var model = Model()
        for id in ids {
            try live.addPerson(id: id, name: "Person \(id.dropFirst())")
            model.ghostUntil[id] = .infinity
        }
        let pick = { (random: inout SplitMix64) in ids[Int(random.next() % UInt64(ids.count))] }
        for _ in 0..<900 {
            let (a, b) = (pick(&random), pick(&random))
            guard a != b else { continue }
            let me = try PersonID(a)
            switch random.next() % 10 {
            case 0..<6:
                if (try? live.requestFriend(me, b)) != nil { model.asks.insert([a, b]) }
            case 6:
                if (try? live.removeFriend(me, b)) != nil { model.asks.remove([a, b]); model.asks.remove([b, a]) }
            case 7:
                if (try? live.block(me, b)) != nil { model.blocks.insert([a, b]); model.asks.remove([a, b]); model.asks.remove([b, a]) }
            default:
                if (try? live.unblock(me, b)) != nil { model.blocks.remove([a, b]) }
            }
        }
        let ghosts = ["off", "off", "off", "3h", "24h", "untilOff"]
        for id in ids {
            let me = try PersonID(id)
            let ghost = ghosts[Int(random.next() % UInt64(ghosts.count))]
            let mode = ["friends", "friends", "friendsExcept", "only"][Int(random.next() % 4)]
            let listed = mode == "friends" ? [] : (0..<Int(random.next() % 12)).map { _ in pick(&random) }
            try live.setSharing(me, ghost: ghost, audience: (mode, listed), now: t0)
            let untils: [String: Double] = ["off": -.infinity, "3h": 3 * 3600, "24h": 24 * 3600, "untilOff": .infinity]
            model.ghostUntil[id] = untils[ghost]
            model.audience[id] = (mode, Set(listed))
            for _ in 0..<Int(random.next() % 3) {
                let age = Double(random.next() % 30 * 3600) - Double(random.next() % 50)
                let coordinate = try Coordinate(lat: 40.705 + Double(random.next() % 1000) / 60_000, lon: -73.972 + Double(random.next() % 1000) / 40_000)
                let fix = try LocationFix(coordinate: coordinate, accuracyMeters: 10, takenAt: t0.addingTimeInterval(-age))
                let inWindow = -age > -86_400 && -age <= 60
                do {
                    if try live.updateLocation(me, fix: fix, now: t0) { model.fixAt[id] = max(model.fixAt[id] ?? -.infinity, -age) }
                    #expect(inWindow, "a fix \(age) s old was accepted")
                } catch {
                    #expect(!inWindow, "a fix \(age) s old was refused: \(error)")
                }
            }
        }
        // Live Location: shares started at several clock times, some paused, some resumed, some stopped; then
        // friendships end and blocks come, which no share outlives.
        let durations: [(String, Double)] = [("15m", 900), ("1h", 3600), ("8h", 8 * 3600)]
        for _ in 0..<300 {
            let (a, b) = (pick(&random), pick(&random))
            let (duration, seconds) = durations[Int(random.next() % 3)]
            // Some made at a clock ahead of the checks' first times (an operator's --clock): they show from their start.
            let start = (Double(random.next() % 6) - 3) * 1200
            guard (try? live.startLiveShare(PersonID(a), with: b, duration: duration, now: t0.addingTimeInterval(start))) != nil else { continue }
            #expect(model.asks.contains([a, b]) && model.asks.contains([b, a]), "\(a) shares with \(b) only as friends")
            model.live[[a, b]] = (start, start + seconds)
            switch random.next() % 6 {
            case 0 where start + seconds > 0:
                try live.pauseLiveShare(PersonID(a), with: b, paused: true, now: t0)
                model.live[[a, b]] = nil
            case 1 where start + seconds > 0:
                try live.pauseLiveShare(PersonID(a), with: b, paused: true, now: t0)
                try live.pauseLiveShare(PersonID(a), with: b, paused: false, now: t0)
            case 2:
                try live.stopLiveShare(PersonID(a), with: b)
                model.live[[a, b]] = nil
            default: break
            }
        }
        for _ in 0..<60 {
            let (a, b) = (pick(&random), pick(&random))
            guard a != b else { continue }
            if random.next() % 2 == 0 {
                if (try? live.removeFriend(PersonID(a), b)) != nil { model.asks.remove([a, b]); model.asks.remove([b, a]) }
            } else if (try? live.block(PersonID(a), b)) != nil {
                model.blocks.insert([a, b]); model.asks.remove([a, b]); model.asks.remove([b, a])
            }
        }
        let loaded = LiveView(store: store)
        try loaded.load()
        let view: LiveView? = reads == .store ? nil : reads == .viewKeptByTheChanges ? kept : loaded
        #expect(view?.isCurrent ?? true, "the view answers, not the store behind it")
        let reader = view.map { LiveMapService(store: $0) } ?? live
        let viewport = try engine.scene.viewport.with(Camera(center: Coordinate(lat: 40.7135, lon: -73.9595), zoom: 13))
        var seenSomeone = 0
        let times: [Double] = [0, 600, 2 * 3600, 4 * 3600, 25 * 3600]
        for t in times {
            let now = t0.addingTimeInterval(t)
            for viewer in ids {
                let friends = try reader.friends(of: PersonID(viewer), at: now)
                let expected = Set(ids.filter { model.sees(viewer, $0, at: t) })
                #expect(Set(friends.map(\.id)) == expected, "\(viewer) at +\(t / 3600) h")
                let live = Set(friends.filter { $0.liveUntil != nil }.map(\.id))
                #expect(live == Set(expected.filter { model.isLive($0, to: viewer, at: t) }), "\(viewer)'s live friends at +\(t / 3600) h")
                seenSomeone += expected.isEmpty ? 0 : 1
                let layout = try engine.layout(viewport, friends: friends, now: now)
                #expect(Set(layout.pins.map(\.id)).isSubset(of: expected))
                for person in ids where !expected.contains(person) {
                    #expect(throws: UnknownFriend.self) { try engine.zoom(to: person, friends: friends, from: viewport, layout: layout) }
                    #expect(throws: UnknownFriend.self) { try engine.layout(viewport, friends: friends, selected: person, now: now) }
                }
                for pin in layout.pins {
                    guard let rect = pin.avatarRect else { continue }
                    let hit = engine.hit(rect.center, in: layout)
                    #expect(hit.id.map { id in expected.contains(id) || layout.group(id) != nil } ?? true)
                }
            }
        }
        #expect(seenSomeone > 20, "the random world is not empty")
    }
}
