import Foundation
import GeoCore
import Testing
@testable import LiveMap

/// The pose rule: priorities and boundaries enumerated, against a model that reads New York's wall clock from
/// `DateFormatter` text (not the rule's `Calendar` arithmetic).
@Suite("Actionmoji pose rule")
struct PoseRuleTests {
    /// 2026-07-04 00:30 in New York (EDT, UTC−4): a birthday's day, inside the night.
    static let justAfterMidnight = ISO8601DateFormatter().date(from: "2026-07-04T04:30:00Z")!

    static func fix(_ age: TimeInterval, before now: Date, _ activity: Activity?, _ speed: Double?) throws -> LocationFix {
        try LocationFix(lat: 40.7185, lon: -73.9627, accuracyMeters: 8, takenAt: now.addingTimeInterval(-age), activity: activity, speedMetersPerSecond: speed)
    }

    /// New York's wall clock as "yyyy-MM-dd HH" text.
    static func wallClock(_ date: Date) -> (day: String, monthDay: String, hour: Int) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "America/New_York")
        formatter.dateFormat = "yyyy-MM-dd HH"
        let text = formatter.string(from: date)
        return (String(text.prefix(10)), String(text.dropFirst(5).prefix(5)), Int(text.suffix(2))!)
    }

    /// The words, read literally; `clock` is New York's wall clock at `now`, `fixDay` the fix's day there.
    static func model(_ fix: LocationFix?, _ birthday: Birthday?, _ now: Date, clock: (day: String, monthDay: String, hour: Int), fixDay: String) -> Pose {
        if let fix, now.timeIntervalSince(fix.takenAt) <= 900 {
            if fix.activity == .flying || (fix.speedMetersPerSecond ?? 0) > 70 { return .flying }
            if fix.activity == .automotive || (7...70).contains(fix.speedMetersPerSecond ?? 0) { return .driving }
        }
        if let birthday, clock.monthDay == birthday.description { return .birthday }
        if let fix, fix.activity == .still, clock.hour < 6, fixDay < clock.day { return .asleep }
        return .standing
    }

    @Test func eachPriorityWinsOverTheOnesBelowIt() throws {
        let now = Self.justAfterMidnight
        let today = try Birthday(month: 7, day: 4)
        let stillSinceEvening = try Self.fix(3600, before: now, .still, 0)
        #expect(PoseRule.pose(fix: stillSinceEvening, birthday: nil, now: now) == .asleep)
        #expect(PoseRule.pose(fix: stillSinceEvening, birthday: today, now: now) == .birthday, "birthday over asleep")
        #expect(PoseRule.pose(fix: try Self.fix(60, before: now, .automotive, nil), birthday: today, now: now) == .driving, "driving over birthday")
        #expect(PoseRule.pose(fix: try Self.fix(60, before: now, .automotive, 250), birthday: today, now: now) == .flying, "flying over driving")
        #expect(PoseRule.pose(fix: try Self.fix(60, before: now, .flying, 0), birthday: today, now: now) == .flying)
        #expect(PoseRule.pose(fix: nil, birthday: today, now: now) == .birthday, "a birthday needs no fix")
        #expect(PoseRule.pose(fix: nil, birthday: nil, now: now) == .standing, "nothing visible: standing")
    }

    @Test func speedAndAgeBoundaries() throws {
        let now = Self.justAfterMidnight.addingTimeInterval(12 * 3600)
        let cases: [(TimeInterval, Activity?, Double?, Pose)] = [
            (0, nil, 6.99, .standing), (0, nil, 7, .driving), (0, .walking, 70, .driving), (0, .running, 70.01, .flying),
            (0, .still, 400, .flying), (0, .cycling, 0, .standing), (900, .automotive, nil, .driving), (900.001, .automotive, nil, .standing),
            (900, nil, 71, .flying), (901, .flying, 300, .standing), (-30, .flying, nil, .flying),
        ]
        for (age, activity, speed, pose) in cases {
            let fix = try Self.fix(age, before: now, activity, speed)
            #expect(PoseRule.pose(fix: fix, birthday: nil, now: now) == pose, "\(age) s, \(String(describing: activity)), \(String(describing: speed))")
        }
    }

    @Test func birthdayAndNightFollowNewYorksClockNotUTCs() throws {
        let today = try Birthday(month: 7, day: 4)
        // 03:59 UTC on the 4th is 23:59 on the 3rd in New York; 04:00 UTC is midnight.
        let beforeMidnight = ISO8601DateFormatter().date(from: "2026-07-04T03:59:59Z")!
        let midnight = ISO8601DateFormatter().date(from: "2026-07-04T04:00:00Z")!
        #expect(PoseRule.pose(fix: nil, birthday: today, now: beforeMidnight) == .standing)
        #expect(PoseRule.pose(fix: nil, birthday: today, now: midnight) == .birthday)
        #expect(PoseRule.pose(fix: nil, birthday: today, now: midnight.addingTimeInterval(24 * 3600 - 0.001)) == .birthday)
        #expect(PoseRule.pose(fix: nil, birthday: today, now: midnight.addingTimeInterval(24 * 3600)) == .standing)
        let still = try LocationFix(lat: 40.7, lon: -73.9, accuracyMeters: 5, takenAt: beforeMidnight, activity: .still)
        #expect(PoseRule.pose(fix: still, birthday: nil, now: midnight) == .asleep, "still since the last fix before midnight")
        #expect(PoseRule.pose(fix: still, birthday: nil, now: midnight.addingTimeInterval(6 * 3600 - 1)) == .asleep)
        #expect(PoseRule.pose(fix: still, birthday: nil, now: midnight.addingTimeInterval(6 * 3600)) == .standing, "the night ends at 6")
        #expect(PoseRule.pose(fix: still, birthday: nil, now: beforeMidnight.addingTimeInterval(0.5)) == .standing, "not yet night")
        let afterMidnight = try LocationFix(lat: 40.7, lon: -73.9, accuracyMeters: 5, takenAt: midnight.addingTimeInterval(60), activity: .still)
        #expect(PoseRule.pose(fix: afterMidnight, birthday: nil, now: midnight.addingTimeInterval(3600)) == .standing, "a fix after midnight: awake then")
        let walking = try LocationFix(lat: 40.7, lon: -73.9, accuracyMeters: 5, takenAt: beforeMidnight, activity: .walking)
        #expect(PoseRule.pose(fix: walking, birthday: nil, now: midnight.addingTimeInterval(3600)) == .standing, "only still is asleep")
        let leapDay = try Birthday(month: 2, day: 29)
        #expect(PoseRule.pose(fix: nil, birthday: leapDay, now: ISO8601DateFormatter().date(from: "2027-02-28T17:00:00Z")!) == .birthday)
        #expect(PoseRule.pose(fix: nil, birthday: leapDay, now: ISO8601DateFormatter().date(from: "2028-02-28T17:00:00Z")!) == .standing)
        #expect(PoseRule.pose(fix: nil, birthday: leapDay, now: ISO8601DateFormatter().date(from: "2028-02-29T17:00:00Z")!) == .birthday)
    }

    /// Every combination of activity, speed, fix age, birthday and hour across a DST change agrees with the model
    /// (leap days aside, which the model does not know), posed with one shared clock per hour.
    @Test func agreesWithTheLiteralModelEverywhere() throws {
        let speeds: [Double?] = [nil, 0, 6.9, 7, 35, 70, 70.1, 250]
        let ages: [TimeInterval] = [0, 600, 900, 901, 3 * 3600, 20 * 3600]
        let activities: [Activity?] = [nil] + Activity.allCases
        let birthdays = [nil, try Birthday(month: 3, day: 8), try Birthday(month: 3, day: 9)]
        // Hourly through 2026-03-07 12:00 to 03-09 12:00 New York time (clocks spring forward on the 8th).
        let start = ISO8601DateFormatter().date(from: "2026-03-07T17:00:00Z")!
        var (checked, differing) = (0, [String]())
        var poses = Set<Pose>()
        for hour in 0..<48 {
            let now = start.addingTimeInterval(Double(hour) * 3600 + 17)
            let clock = Self.wallClock(now)
            // One PoseClock for the hour, as a read shares one among a viewer's friends.
            var poseClock = PoseClock(now: now)
            for age in ages {
                let fixDay = Self.wallClock(now.addingTimeInterval(-age)).day
                for activity in activities {
                    for speed in speeds {
                        let fix = try Self.fix(age, before: now, activity, speed)
                        for birthday in birthdays {
                            let pose = PoseRule.pose(fix: fix, birthday: birthday, clock: &poseClock)
                            poses.insert(pose)
                            if pose != Self.model(fix, birthday, now, clock: clock, fixDay: fixDay) { differing.append("\(now) \(age) \(fix) \(String(describing: birthday))") }
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ, first \(differing.prefix(3))")
        #expect(checked == 48 * 6 * 7 * 8 * 3 && poses == Set(Pose.allCases), "every pose is met")
    }
}

extension PoseRuleTests {
    /// Readings in clock order, a few inside each hour then the hour's last millisecond and the next hour's first
    /// instant, through two days across the spring DST change: each poses as the model says whatever reading came
    /// before it (a reading's calendar facts are kept through its local hour, never past it).
    @Test func readingsInClockOrderKeepAnHoursCalendarOnlyThroughIt() throws {
        let start = ISO8601DateFormatter().date(from: "2026-03-07T17:00:00Z")!
        let still = try Self.fix(3600, before: start, .still, 0)
        let fixDay = Self.wallClock(still.takenAt).day
        let birthday = try Birthday(month: 3, day: 8)
        var seen = Set<Pose>()
        for hour in 0..<48 {
            for offset in [0, 1, 1799, 3599.999] {
                let now = start.addingTimeInterval(Double(hour) * 3600 + offset)
                let clock = Self.wallClock(now)
                let poses = (PoseRule.pose(fix: still, birthday: nil, now: now), PoseRule.pose(fix: nil, birthday: birthday, now: now))
                #expect(poses.0 == Self.model(still, nil, now, clock: clock, fixDay: fixDay), "asleep at \(now)")
                #expect(poses.1 == Self.model(nil, birthday, now, clock: clock, fixDay: fixDay), "birthday at \(now)")
                seen.formUnion([poses.0, poses.1])
            }
        }
        #expect(seen == [.asleep, .birthday, .standing])
    }

    /// Between `now` and `nextChange` the pose stays what it was at `now`, sampled densely; with no next change it stays
    /// for the two days sampled. Seeded, over the same inputs as the model test.
    @Test func thePoseHoldsUntilItsNextChange() throws {
        var generator = SplitMix64(seed: 29)
        let start = ISO8601DateFormatter().date(from: "2026-03-07T17:00:00Z")!
        var changed = 0
        for _ in 0..<300 {
            let now = start.addingTimeInterval(Double.random(in: 0...(48 * 3600), using: &generator))
            let activity = ([nil] + Activity.allCases).randomElement(using: &generator)!
            let speed = ([nil, 0, 8, 90] as [Double?]).randomElement(using: &generator)!
            let fix = try Self.fix(Double.random(in: -30...(20 * 3600), using: &generator), before: now, activity, speed)
            let birthday = [nil, try Birthday(month: 3, day: 8)].randomElement(using: &generator)!
            let pose = PoseRule.pose(fix: fix, birthday: birthday, now: now)
            let next = PoseRule.nextChange(fix: fix, birthday: birthday, now: now)
            let end = next ?? now.addingTimeInterval(48 * 3600)
            #expect(end > now)
            for step in 0..<64 {
                let t = now.addingTimeInterval(end.timeIntervalSince(now) * Double(step) / 64)
                #expect(PoseRule.pose(fix: fix, birthday: birthday, now: t) == pose, "\(fix) \(String(describing: birthday)) at \(t), next \(String(describing: next))")
            }
            let justBefore = end.addingTimeInterval(-0.002)
            if justBefore > now { #expect(PoseRule.pose(fix: fix, birthday: birthday, now: justBefore) == pose) }
            if let next, PoseRule.pose(fix: fix, birthday: birthday, now: next) != pose { changed += 1 }
        }
        #expect(changed > 20, "the next change is often a real one: \(changed)")
    }
}

