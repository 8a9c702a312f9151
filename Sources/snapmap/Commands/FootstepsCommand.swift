import Foundation
import GeoCore
import LiveMap

/// `snapmap footsteps on|off|show|explored|clear ID`: a person's Footsteps as the operator sees and changes them.
let runFootsteps: Command.Run = { options in
    let arguments = try options.positionals()
    guard arguments.count == 2, ["on", "off", "show", "explored", "clear"].contains(arguments[0]) else {
        throw UsageError(description: "expected on ID, off ID, show ID, explored ID or clear ID")
    }
    let (_, _, live, _) = try LiveOptions.live(options)
    let person: PersonID
    do {
        person = try live.person(arguments[1]).id
    } catch LiveMapError.notFound(let id) {
        throw UnknownPerson(id: id)
    }
    let dates = ISO8601DateFormatter()
    switch arguments[0] {
    case "on", "off":
        try live.setFootsteps(person, on: arguments[0] == "on")
        return "\(person) keeps Footsteps: \(arguments[0])"
    case "clear":
        return "cleared \(try live.clearFootsteps(person)) places of \(person)"
    case "explored":
        let engine = try DataLocator.engine(options)
        let places = try live.footsteps(of: person, in: try engine.exploredBounds()).map { WebMercator.projectUnchecked(lat: $0.lat, lon: $0.lon) }
        return try engine.explored(places: places).map { "\($0.text)\t\(Int($0.exploredMeters.rounded())) of \(Int($0.streetMeters.rounded())) m" }
            .joined(separator: "\n")
    default:
        return try live.footsteps(of: person).map { "\(dates.string(from: $0.firstVisit))\t\(dates.string(from: $0.lastVisit))\t\($0.coordinate.lat),\($0.coordinate.lon)" }
            .joined(separator: "\n")
    }
}
