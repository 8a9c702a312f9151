import Foundation
import LiveMap

/// `snapmap live start|pause|resume|stop A B`, `live list ID`: Live Location shares as the operator sets them (A
/// shares with friend B), by the server's clock.
let runLiveShare: Command.Run = { options in
    let arguments = try options.positionals()
    let (_, _, live, now) = try LiveOptions.live(options)
    let dates = ISO8601DateFormatter()
    func line(_ share: LiveShare) -> String {
        "\(share.from)\t\(share.to)\tuntil \(dates.string(from: share.until))\(share.paused ? "\tpaused" : "")"
    }
    do {
        switch (arguments.first ?? "", arguments.count) {
        case ("start", 3):
            return line(try live.startLiveShare(live.person(arguments[1]).id, with: arguments[2], duration: options.required("for"), now: now))
        case ("pause", 3), ("resume", 3), ("stop", 3):
            let (from, to) = (try live.person(arguments[1]).id, try live.person(arguments[2]).id)
            if arguments[0] == "stop" {
                try live.stopLiveShare(from, with: to.rawValue)
                return "\(from) no longer shares live with \(to)"
            }
            return line(try live.pauseLiveShare(from, with: to.rawValue, paused: arguments[0] == "pause", now: now))
        case ("list", 2):
            return try live.liveShares(of: live.person(arguments[1]).id, at: now).map(line).joined(separator: "\n")
        default:
            throw UsageError(description: "expected start A B --for 15m|1h|8h, pause A B, resume A B, stop A B or list ID")
        }
    } catch LiveMapError.notFound(let id) {
        throw UnknownPerson(id: id)
    }
}
