import Foundation
import Testing
@testable import LiveMap

/// What a phone may send for Actionmoji, and the errors that name the field and what it allows.
@Suite("Actionmoji inputs")
struct ActionmojiInputTests {
    static let t0 = Date(timeIntervalSince1970: 1_796_000_000)

    @Test func activitiesAreTheSixTheSensorsNameAndNothingElse() throws {
        for activity in Activity.allCases { #expect(try Activity.parse(activity.rawValue) == activity) }
        for text in ["", "Walking", "driving", "still ", "swimming"] {
            #expect(throws: LiveMapError.invalid(field: "activity", message: "must be one of still, walking, running, cycling, automotive, flying, got \"\(text)\"")) {
                try Activity.parse(text)
            }
        }
    }

    @Test func speedIsBoundedAndFiniteAndNamedWhenNot() throws {
        for speed in [0, 7, 69.9, 400] {
            #expect(try LocationFix(lat: 40.7, lon: -73.9, accuracyMeters: 5, takenAt: Self.t0, speedMetersPerSecond: speed).speedMetersPerSecond == speed)
        }
        for speed in [-0.01, 400.01, .nan, .infinity] {
            let error = #expect(throws: LiveMapError.self) {
                try LocationFix(lat: 40.7, lon: -73.9, accuracyMeters: 5, takenAt: Self.t0, speedMetersPerSecond: speed)
            }
            #expect(error?.field == "speedMetersPerSecond")
            #expect(speed.isNaN || speed.isInfinite || error?.description.contains("0.0 … 400.0") == true, "\(String(describing: error))")
        }
    }

    /// Every (month, day) a calendar of a leap year has is a birthday, and nothing else is, against Foundation's calendar.
    @Test func birthdaysAreTheDaysOfALeapYearAgainstTheCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for month in 0...13 {
            for day in 0...32 {
                let real = DateComponents(calendar: calendar, year: 2024, month: month, day: day).isValidDate
                let made = try? Birthday(month: month, day: day)
                #expect((made != nil) == real, "\(month)-\(day)")
                if let made { #expect(try Birthday(parsing: made.description) == made) }
            }
        }
        #expect(try Birthday(parsing: "7-4") == Birthday(month: 7, day: 4))
        #expect(try Birthday(month: 7, day: 4).description == "07-04")
        for text in ["", "07", "07-04-1990", "July-4", "007-04", "-7-4", "07-", "+7-4"] {
            #expect(throws: LiveMapError.invalid(field: "birthday", message: "must be MM-DD, got \"\(text)\"")) { try Birthday(parsing: text) }
        }
        // The body's field is named (the month and day are not fields of their own there).
        for text in ["04-31", "13-01", "0-0", "02-30"] {
            #expect(throws: LiveMapError.invalid(field: "birthday", message: "must be a month 1…12 and a day of it (02-29 allowed), got \"\(text)\"")) { try Birthday(parsing: text) }
        }
        #expect(throws: LiveMapError.invalid(field: "day", message: "must be in 1…30 for month 4, got 31")) { try Birthday(month: 4, day: 31) }
    }
}
