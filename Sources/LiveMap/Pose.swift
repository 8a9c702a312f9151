import Foundation

/// The Actionmoji pose a friend's pin shows: what they are doing, as far as their viewer may know it.
public enum Pose: String, CaseIterable, Hashable, Sendable, Codable {
    case flying, driving, birthday, asleep, standing
}

/// Chooses a pose from what a viewer may see of a friend (their visible fix, their birthday), at the server's clock,
/// in priority order: flying, driving, birthday, asleep, standing. Pure: the same inputs give the same pose.
public enum PoseRule {
    /// An activity or speed older than this (by the fix's time) says nothing of now: the friend is standing.
    public static let freshFor: TimeInterval = 15 * 60
    /// Faster than this (m/s) is flying, as is the `flying` activity.
    public static let flyingAbove = 70.0
    /// From this speed (m/s) up to `flyingAbove` is driving, as is the `automotive` activity.
    public static let drivingFrom = 7.0
    /// The local night: from midnight until this hour, a friend still since before midnight is asleep.
    public static let nightEndsAtHour = 6
    /// Where the map is, whose calendar days and nights the poses follow.
    public static let timeZone = TimeZone(identifier: "America/New_York")!

    /// The pose of a friend whose visible fix is `fix` (nil: none the viewer may see) and birthday `birthday`, at `now`.
    public static func pose(fix: LocationFix?, birthday: Birthday?, now: Date, timeZone: TimeZone = timeZone) -> Pose {
        var clock = PoseClock(now: now, timeZone: timeZone)
        return pose(fix: fix, birthday: birthday, clock: &clock)
    }

    /// The pose as `pose(fix:birthday:now:timeZone:)` chooses it, at `clock`'s reading (whose local day is found once).
    public static func pose(fix: LocationFix?, birthday: Birthday?, clock: inout PoseClock) -> Pose {
        if let fix, clock.now.timeIntervalSince(fix.takenAt) <= freshFor {
            let speed = fix.speedMetersPerSecond ?? 0
            if fix.activity == .flying || speed > flyingAbove { return .flying }
            if fix.activity == .automotive || speed >= drivingFrom { return .driving }
        }
        // Most friends have neither: they need no calendar.
        guard birthday != nil || fix?.activity == .still else { return .standing }
        let day = clock.day
        if let birthday, day.isBirthday(birthday) { return .birthday }
        if let fix, fix.activity == .still, day.hour < nightEndsAtHour, fix.takenAt < day.midnight { return .asleep }
        return .standing
    }

    /// The first instant after `now` at which the pose of the same inputs could change with no write (an activity or
    /// speed growing stale, within a millisecond; a midnight; the night's end); nil when only a write can change it.
    public static func nextChange(fix: LocationFix?, birthday: Birthday?, now: Date, timeZone: TimeZone = timeZone) -> Date? {
        var clock = PoseClock(now: now, timeZone: timeZone)
        return nextChange(fix: fix, birthday: birthday, clock: &clock)
    }

    /// The instant `nextChange(fix:birthday:now:timeZone:)` finds, at `clock`'s reading.
    public static func nextChange(fix: LocationFix?, birthday: Birthday?, clock: inout PoseClock) -> Date? {
        let now = clock.now
        var next: Date?
        func consider(_ time: Date) {
            if time > now, next.map({ time < $0 }) ?? true { next = time }
        }
        if let fix, fix.activity == .flying || fix.activity == .automotive || (fix.speedMetersPerSecond ?? 0) >= drivingFrom {
            consider(fix.takenAt.addingTimeInterval(freshFor + 0.001))
        }
        if birthday != nil || fix?.activity == .still {
            let day = clock.day
            consider(day.nextMidnight)
            if fix?.activity == .still { consider(day.dawn) }
        }
        return next
    }
}

/// One clock reading in the poses' time zone, whose local day is found on first need and then kept: a read poses all
/// of a viewer's friends, and finds when their poses change, at one reading.
public struct PoseClock: Sendable {
    public let now: Date
    public let timeZone: TimeZone
    private var found: LocalDay?

    public init(now: Date, timeZone: TimeZone = PoseRule.timeZone) {
        (self.now, self.timeZone) = (now, timeZone)
    }

    var day: LocalDay {
        mutating get {
            if let found { return found }
            let day = LocalDay.of(now, timeZone)
            found = day
            return day
        }
    }
}

/// The calendar facts of one clock reading in one time zone that poses need, all the same through the reading's local
/// hour: computed once and kept for every reading inside that hour (a server reads its clock per request), since
/// Foundation's calendar arithmetic costs microseconds a call.
struct LocalDay: Sendable {
    let month: Int
    let day: Int
    let leapYear: Bool
    let hour: Int
    let midnight: Date
    let nextMidnight: Date
    let dawn: Date

    private final class Last: @unchecked Sendable {
        let lock = NSLock()
        var entry: (hour: Range<Date>, zone: TimeZone, day: LocalDay)?
    }
    private static let last = Last()

    static func of(_ now: Date, _ timeZone: TimeZone) -> LocalDay {
        last.lock.lock()
        defer { last.lock.unlock() }
        if let entry = last.entry, entry.hour.contains(now), entry.zone == timeZone { return entry.day }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour], from: now)
        let midnight = calendar.startOfDay(for: now)
        let day = LocalDay(month: parts.month ?? 0, day: parts.day ?? 0,
                           leapYear: DateComponents(calendar: calendar, year: parts.year, month: 2, day: 29).isValidDate, hour: parts.hour ?? 0,
                           midnight: midnight, nextMidnight: calendar.date(byAdding: .day, value: 1, to: midnight) ?? midnight.addingTimeInterval(86_400),
                           dawn: calendar.date(bySettingHour: PoseRule.nightEndsAtHour, minute: 0, second: 0, of: now) ?? midnight)
        // The local hour holding `now` (either of the two an autumn DST change repeats); none found, nothing kept.
        let hour = calendar.dateInterval(of: .hour, for: now).map { $0.start..<$0.end } ?? now..<now
        last.entry = (hour, timeZone, day)
        return day
    }

    /// Whether this is the birthday's day; a 29 February birthday falls on the 28th in other years.
    func isBirthday(_ birthday: Birthday) -> Bool {
        if birthday.month == 2 && birthday.day == 29 && !leapYear { return month == 2 && day == 28 }
        return birthday.month == month && birthday.day == day
    }
}
