import Foundation
@testable import LiveMap
import Testing

/// A kept fix carried by the bus: its text names it exactly as the stores keep it, and a view applies it without
/// reading the store, newer fix wins whatever the order of arrival.
@Suite("Carried fixes")
struct CarriedFixTests {
    @Test func aFixTravelsAsTheStoresKeepIt() throws {
        // A time between milliseconds, and a place holding the separator.
        let fix = try LocationFix(lat: 40.712_345_678_9, lon: -73.961_234_5, accuracyMeters: 7.25, takenAt: LiveViewTests.t0.addingTimeInterval(0.123_456),
                                  place: "Pier | 5", activity: .cycling, speedMetersPerSecond: 5.123_456_789)
        let message = LiveBusMessage.fix(PersonID(trusted: "bob"), fix)
        #expect(LiveBusMessage(text: message.text) == .fix(PersonID(trusted: "bob"), fix.asStored))
        #expect(abs(fix.asStored.takenAt.timeIntervalSince(LiveViewTests.t0.addingTimeInterval(0.123))) < 1e-6)
        #expect(fix.asStored != fix && fix.asStored.asStored == fix.asStored)
        #expect(fix.asStored.activity == .cycling && fix.asStored.speedMetersPerSecond == fix.speedMetersPerSecond && fix.asStored.place == fix.place)
        // Every activity, and none: no speed and no place travel as empty fields.
        for activity in Activity.allCases.map(Optional.some) + [nil] {
            let bare = try LocationFix(lat: 40.7, lon: -73.9, accuracyMeters: 5, takenAt: LiveViewTests.t0, activity: activity)
            #expect(LiveBusMessage(text: LiveBusMessage.fix(PersonID(trusted: "bob"), bare).text) == .fix(PersonID(trusted: "bob"), bare))
        }
        for broken in ["f|bob|40.7|-73.9|5|notms|||", "f|bob|91|-73.9|5|1|||", "f|bob|40.7|-73.9|5|1|dancing||", "f|bob|40.7|-73.9|5|1||fast|",
                       "f|bob|40.7|-73.9|5|1||401|", "f|bob|40.7|-73.9|5|1|", "f|bob|40.7|-73.9|5"] {
            #expect(LiveBusMessage(text: broken) == nil, "\(broken)")
        }
    }

    @Test func aViewKeepsTheNewerCarriedFixWithoutReadingTheStore() throws {
        let (path, elsewhere, ann, bob) = try LiveViewTests.annAndBob()
        let bus = LiveViewTests.ManualBus()
        bus.caughtUp(at: .max)
        // The server's clock, at which a change is weighed for who must hear of it: Bob's fixes are current then.
        let view = LiveView(store: try SQLiteLiveStore(path: path, synchronous: false), clock: { LiveViewTests.t0.addingTimeInterval(5) })
        let viewed = LiveMapService(store: view)
        viewed.attach(bus)
        #expect(view.isCurrent)
        let fixes = try (1...3).map {
            try LocationFix(lat: 40.71 + Double($0) / 1000, lon: -73.96, accuracyMeters: 5, takenAt: LiveViewTests.t0.addingTimeInterval(Double($0)),
                            activity: Activity.allCases[$0], speedMetersPerSecond: Double($0))
        }
        let stamp = view.answerStamp(of: ann)
        // Carried fixes the store never had: what the view shows can only come from the messages.
        bus.deliver(.fix(bob, fixes[1]))
        #expect(view.answerStamp(of: ann) != stamp, "Ann, who sees Bob, is told")
        bus.deliver(.fix(bob, fixes[0]))
        #expect(try view.fix(of: bob) == fixes[1], "an older fix arriving later changes nothing")
        #expect(try viewed.visibleFriends(of: ann, at: LiveViewTests.t0.addingTimeInterval(5)).map(\.fix) == [fixes[1]])
        bus.deliver(.fix(bob, fixes[2]))
        #expect(try view.fix(of: bob) == fixes[2])
        #expect(try SQLiteLiveStore(path: path, synchronous: false).fix(of: bob) == nil)

        // Someone the view does not hold is read from the store, as for any change of a person.
        let cy = try elsewhere.addPerson(id: "cy", name: "Cy").id
        try elsewhere.updateLocation(cy, fix: fixes[0], now: LiveViewTests.t0)
        bus.deliver(.fix(cy, fixes[0]))
        #expect(try view.fix(of: cy) == fixes[0].asStored)
        #expect(view.isCurrent)
    }

    /// The writer's own view keeps a fix as the store keeps it (motion included) without reading it back, and re-reads
    /// a birthday with the person: the store is the reference.
    @Test func aWriteThroughTheViewKeepsWhatTheStoreKeeps() throws {
        let path = SQLiteStoreTests.temporaryPath()
        let store = try SQLiteLiveStore(path: path, synchronous: false)
        let view = LiveView(store: store, clock: { LiveViewTests.t0 })
        let live = LiveMapService(store: view)
        let bus = LiveViewTests.ManualBus()
        bus.caughtUp(at: .max)
        live.attach(bus)
        let ann = try live.addPerson(id: "ann", name: "Ann").id
        let bob = try live.addPerson(id: "bob", name: "Bob").id
        try live.requestFriend(ann, "bob")
        try live.requestFriend(bob, "ann")
        for (step, activity) in Activity.allCases.enumerated() {
            let fix = try LocationFix(lat: 40.71, lon: -73.96 + Double(step) / 1000, accuracyMeters: 5, takenAt: LiveViewTests.t0.addingTimeInterval(0.000_4 + Double(step)),
                                      place: "Step \(step)", activity: activity, speedMetersPerSecond: Double(step) * 1.5)
            #expect(try view.recordFix(fix, of: bob))
            #expect(view.isCurrent)
            #expect(try view.candidate(viewer: ann, person: bob)?.facts.fix == store.fix(of: bob), "\(activity)")
        }
        let theDay = try Birthday(month: 12, day: 2)
        try live.setBirthday(bob, theDay)
        #expect(try view.candidate(viewer: ann, person: bob)?.birthday == store.birthday(of: bob))
        #expect(try store.birthday(of: bob) == theDay)
    }
}
