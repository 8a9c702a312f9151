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
        if let fix, now.timeIntervalSince(fix.takenAt) <= freshFor {
            let speed = fix.speedMetersPerSecond ?? 0
            if fix.activity == .flying || speed > flyingAbove { return .flying }
            if fix.activity == .automotive || speed >= drivingFrom { return .driving }
        }
        // Most friends have neither: they need no calendar.
        guard birthday != nil || fix?.activity == .still else { return .standing }
        let calendar = calendarIn(timeZone)
        if let birthday, isBirthday(birthday, now: now, calendar: calendar) { return .birthday }
        if let fix, fix.activity == .still, let midnight = nightStart(now, calendar: calendar), fix.takenAt < midnight { return .asleep }
        return .standing
    }

    /// The first instant after `now` at which the pose of the same inputs could change with no write (an activity or
    /// speed growing stale, within a millisecond; a midnight; the night's end); nil when only a write can change it.
    public static func nextChange(fix: LocationFix?, birthday: Birthday?, now: Date, timeZone: TimeZone = timeZone) -> Date? {
        var times: [Date] = []
        if let fix, fix.activity == .flying || fix.activity == .automotive || (fix.speedMetersPerSecond ?? 0) >= drivingFrom {
            times.append(fix.takenAt.addingTimeInterval(freshFor + 0.001))
        }
        guard birthday != nil || fix?.activity == .still else { return times.filter { $0 > now }.min() }
        let calendar = calendarIn(timeZone)
        let midnight = calendar.startOfDay(for: now)
        if let next = calendar.date(byAdding: .day, value: 1, to: midnight) {
            times.append(next)
        }
        if fix?.activity == .still, let dawn = calendar.date(bySettingHour: nightEndsAtHour, minute: 0, second: 0, of: now) { times.append(dawn) }
        return times.filter { $0 > now }.min()
    }

    /// New York's Gregorian calendar, made once.
    static let newYork: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }()

    static func calendarIn(_ timeZone: TimeZone) -> Calendar {
        guard timeZone != Self.timeZone else { return newYork }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// Whether `now` falls on the birthday's day; a 29 February birthday falls on the 28th in other years.
    static func isBirthday(_ birthday: Birthday, now: Date, calendar: Calendar) -> Bool {
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        guard let year = today.year, let month = today.month, let day = today.day else { return false }
        let leap = DateComponents(calendar: calendar, year: year, month: 2, day: 29).isValidDate
        if birthday.month == 2 && birthday.day == 29 && !leap { return month == 2 && day == 28 }
        return birthday.month == month && birthday.day == day
    }

    /// The midnight that began the night `now` is in, or nil when `now` is not in the local night.
    static func nightStart(_ now: Date, calendar: Calendar) -> Date? {
        let midnight = calendar.startOfDay(for: now)
        guard calendar.component(.hour, from: now) < nightEndsAtHour else { return nil }
        return midnight
    }
}
