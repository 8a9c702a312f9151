import Foundation
import Testing
@testable import LiveMap

/// The part of the conformance suite about Actionmoji's inputs (run by `StoreConformance.run` on every store): the
/// activity and speed kept with a fix, and the birthday a person sets.
extension StoreConformance {
    static func motionAndBirthday(_ store: any LiveStore) throws {
        let (kit, lou, max) = (try PersonID("kit"), try PersonID("lou"), try PersonID("max"))
        for id in [kit, lou, max] { _ = try store.addPerson(person(id.rawValue), settings: SharingSettings(ghost: .off, audience: .friends)) }
        for (a, b) in [(kit, lou), (lou, kit), (max, kit)] { try store.addAsk(from: a, to: b, details: FriendDetails()) }

        let driving = try LocationFix(lat: 40.7185, lon: -73.9627, accuracyMeters: 8, takenAt: t0.addingTimeInterval(-30),
                                      activity: .automotive, speedMetersPerSecond: 12.25)
        #expect(try store.recordFix(driving, of: kit))
        #expect(try store.fix(of: kit) == driving)
        #expect(try store.candidate(viewer: lou, person: kit)?.facts.fix == driving)
        #expect(try store.candidates(of: lou).first { $0.person.id == kit }?.facts.fix == driving)
        #expect(try store.viewers(of: kit).first { $0.facts.viewer == lou }?.facts.fix == driving)
        for (index, activity) in Activity.allCases.enumerated() {
            let fix = try LocationFix(lat: 40.71, lon: -73.96, accuracyMeters: 5, takenAt: t0.addingTimeInterval(Double(index - 29)),
                                      activity: activity, speedMetersPerSecond: Double(index) * 50)
            #expect(try store.recordFix(fix, of: kit))
            #expect(try store.fix(of: kit) == fix)
        }
        let bare = try fix(40.72, -73.95, at: 0)
        #expect(try store.recordFix(bare, of: kit))
        #expect(try store.fix(of: kit) == bare, "a fix without an activity or speed keeps none of the last one's")

        #expect(try store.birthday(of: kit) == nil)
        let theDay = try Birthday(month: 2, day: 29)
        try store.setBirthday(theDay, of: kit)
        #expect(try store.birthday(of: kit) == theDay)
        #expect(try store.relations(of: lou).first { $0.person.id == kit }?.birthday == theDay, "a friend sees it")
        #expect(try store.relations(of: kit).first { $0.person.id == max }.map { $0.status == .incoming && $0.birthday == nil } == true)
        try store.setBirthday(theDay, of: max)
        #expect(try store.relations(of: kit).first { $0.person.id == max }?.birthday == nil, "a request's sender is no friend yet")
        try store.setBirthday(nil, of: kit)
        #expect(try store.birthday(of: kit) == nil && store.relations(of: lou).first?.birthday == nil)

        let nobody = try PersonID("nobody")
        try store.setBirthday(theDay, of: nobody)
        #expect(try store.person(nobody) == nil && store.birthday(of: nobody) == nil, "setting one makes nobody exist")
        #expect(try store.removePerson(max))
        #expect(try store.addPerson(person("max"), settings: .newPerson))
        #expect(try store.birthday(of: max) == nil, "a removed person's birthday goes with them")
        for id in [kit, lou, max] { _ = try store.removePerson(id) }
    }
}
