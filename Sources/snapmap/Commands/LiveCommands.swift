import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapScene

/// `snapmap users add|list|token|revoke|remove`: the operator's view of people and their sign-in tokens.
let runUsers: Command.Run = { options in
    let arguments = try options.positionals()
    let (scene, _, live, _) = try LiveOptions.live(options)
    do {
        return try users(arguments, options, scene: scene, live: live)
    } catch LiveMapError.notFound(let id) {
        throw UnknownPerson(id: id)
    }
}

/// An id the operator named that is no person in the store.
struct UnknownPerson: Error, CustomStringConvertible {
    let id: String
    var description: String { "no person \"\(id.prefix(64))\" in the live store ('snapmap users list' shows who is)" }
}

private func users(_ arguments: [String], _ options: ParsedOptions, scene: Scene, live: LiveMapService) throws -> String {
    switch (arguments[0], arguments.count) {
    case ("add", 2):
        let person = try live.addPerson(id: arguments[1], name: options.required("name"), color: options.value("color"))
        return "added \(person.id) (\(person.name)); sharing is off until they turn Ghost Mode off"
    case ("list", 1):
        return try live.people().map { "\($0.id)\t\($0.name)\t\($0.color)" }.joined(separator: "\n")
    case ("token", 2):
        return try live.mintToken(for: arguments[1])
    case ("revoke", 2):
        return "revoked \(try live.revokeTokens(of: arguments[1])) tokens of \(arguments[1])"
    case ("remove", 2):
        try live.removePerson(arguments[1])
        return "removed \(arguments[1]) and everything of theirs"
    default:
        throw UsageError(description: "expected add ID, list, token ID, revoke ID or remove ID")
    }
}

/// `snapmap friends add|remove A B`, `friends list ID`: friendships as the operator sets them.
let runFriends: Command.Run = { options in
    let arguments = try options.positionals()
    let (scene, _, live, _) = try LiveOptions.live(options)
    switch (arguments[0], arguments.count) {
    case ("add", 3):
        let first = try live.person(arguments[1]).id
        let second = try live.person(arguments[2]).id
        try live.requestFriend(first, second.rawValue)
        return "\(first) and \(second) are \(try live.requestFriend(second, first.rawValue).rawValue)"
    case ("remove", 3):
        try live.removeFriend(try live.person(arguments[1]).id, arguments[2])
        return "\(arguments[1]) and \(arguments[2]) are no longer friends"
    case ("list", 2):
        return try live.relations(of: live.person(arguments[1]).id).map { "\($0.person.id)\t\($0.person.name)\t\($0.status.rawValue)" }
            .joined(separator: "\n")
    default:
        throw UsageError(description: "expected add A B, remove A B or list ID")
    }
}

/// `snapmap locate ID --at LAT,LON`: records a person's fix, as their phone would.
let runLocate: Command.Run = { options in
    let (scene, _, live, now) = try LiveOptions.live(options)
    let person = try live.person(options.positional())
    let coordinate = try Coordinate(parsing: options.required("at"), field: "--at")
    let taken = try options.request.clock(scene: scene, default: now, name: "taken")
    let accuracy = try options.request.number("accuracy", in: LocationFix.accuracyRange) ?? DemoSeed.fixtureAccuracy
    let activity = try options.value("activity").map { text throws(LiveMapError) in try Activity.parse(text, field: "--activity") }
    let speed = try options.request.number("speed", in: LocationFix.speedRange)
    let kept = try live.updateLocation(person.id, fix: LocationFix(coordinate: coordinate, accuracyMeters: accuracy, takenAt: taken,
                                                                   place: options.value("place"), activity: activity, speedMetersPerSecond: speed), now: now)
    return kept ? "\(person.id) is at \(coordinate)" : "ignored: \(person.id) has a newer fix"
}

/// `snapmap sharing ID [--ghost …] [--audience …]`: shows or changes a person's sharing settings.
let runSharing: Command.Run = { options in
    let (_, _, live, now) = try LiveOptions.live(options)
    let person = try live.person(options.positional())
    let audience = options.value("audience").map { text -> (mode: String, ids: [String]) in
        let parts = text.split(separator: ":", maxSplits: 1)
        return (String(parts.first ?? ""), parts.count > 1 ? parts[1].split(separator: ",").map(String.init) : [])
    }
    var settings = try live.sharing(of: person.id)
    if options.value("ghost") != nil || audience != nil {
        settings = try live.setSharing(person.id, ghost: options.value("ghost"), audience: audience, now: now)
    }
    let ids = settings.audience.ids.map(\.rawValue).joined(separator: ",")
    return "\(person.id): ghost \(settings.ghost.name(at: now)), audience \(settings.audience.mode)\(ids.isEmpty ? "" : ":" + ids)"
}

/// `snapmap birthday ID [--set MM-DD|none]`: shows or changes the birthday a person's friends see.
let runBirthday: Command.Run = { options in
    let (_, _, live, _) = try LiveOptions.live(options)
    let person = try live.person(options.positional())
    if let text = options.value("set") {
        try live.setBirthday(person.id, text == "none" ? nil : try Birthday(parsing: text, field: "--set"))
    }
    return "\(person.id): birthday \(try live.birthday(of: person.id)?.description ?? "none")"
}
