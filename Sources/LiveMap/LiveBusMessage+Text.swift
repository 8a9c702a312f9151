import Foundation
import GeoCore

/// One line of text per bus message, the same on every transport (Redis pub/sub, the SQLite change log): a kind
/// letter and its fields separated by `|` (ids never hold one; a fix's place, which may, comes last). Unknown or
/// malformed text decodes to nil.
extension LiveBusMessage {
    /// The key whose hash picks a transport's shard for the message (the person it is about).
    public var key: String {
        switch self {
        case .change(.person(let id)), .change(.sessions(let id)), .change(.removed(let id)), .fix(let id, _): return id.rawValue
        case .change(.pair(let first, _)): return first.rawValue
        case .snap(let snap): return snap.person.rawValue
        case .order(let notice): return notice.customer.rawValue
        case .resync: return ""
        }
    }

    public var text: String {
        switch self {
        case .change(.person(let id)): return "p|\(id.rawValue)"
        case .change(.pair(let first, let second)): return "a|\(first.rawValue)|\(second.rawValue)"
        case .change(.sessions(let id)): return "t|\(id.rawValue)"
        case .change(.removed(let id)): return "r|\(id.rawValue)"
        case .fix(let id, let fix):
            // The place goes last: it is the one field that may hold a `|`. No activity or speed is an empty field.
            return "f|\(id.rawValue)|\(fix.coordinate.lat)|\(fix.coordinate.lon)|\(fix.accuracyMeters)|\(LocationFix.milliseconds(fix.takenAt))|"
                + "\(fix.activity?.rawValue ?? "")|\(fix.speedMetersPerSecond.map { String($0) } ?? "")|\(fix.place ?? "")"
        case .snap(let snap):
            return "s|\(snap.person.rawValue)|\(snap.coordinate.lat)|\(snap.coordinate.lon)|\(Int((snap.takenAt.timeIntervalSince1970 * 1000).rounded()))"
        case .order(let notice): return "o|\(notice.customer.rawValue)|\(notice.order)"
        case .resync: return "x"
        }
    }

    public init?(text: String) {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        func id(_ index: Int) -> PersonID? { try? PersonID(parts[index]) }
        switch (parts[0], parts.count) {
        case ("p", 2): guard let a = id(1) else { return nil }; self = .change(.person(a))
        case ("a", 3): guard let a = id(1), let b = id(2) else { return nil }; self = .change(.pair(a, b))
        case ("t", 2): guard let a = id(1) else { return nil }; self = .change(.sessions(a))
        case ("r", 2): guard let a = id(1) else { return nil }; self = .change(.removed(a))
        case ("x", 1): self = .resync
        case ("f", 9...):
            func optional<T>(_ text: String, _ parse: (String) -> T?) -> T?? { text.isEmpty ? .some(nil) : parse(text).map { .some($0) } }
            guard let a = id(1), let lat = Double(parts[2]), let lon = Double(parts[3]), let accuracy = Double(parts[4]), let ms = Int(parts[5]),
                  let activity = optional(parts[6], Activity.init(rawValue:)), let speed = optional(parts[7], Double.init),
                  let fix = try? LocationFix(lat: lat, lon: lon, accuracyMeters: accuracy, takenAt: LocationFix.date(ms),
                                             place: parts[8...].joined(separator: "|"), activity: activity, speedMetersPerSecond: speed)
            else { return nil }
            self = .fix(a, fix)
        case ("o", 3): guard let customer = id(1), (try? PersonID(parts[2])) != nil else { return nil }; self = .order(OrderNotice(order: parts[2], customer: customer))
        case ("s", 5):
            guard let person = id(1), let lat = Double(parts[2]), let lon = Double(parts[3]), let ms = Int(parts[4]),
                  let coordinate = try? Coordinate(lat: lat, lon: lon),
                  let snap = try? PublicSnap(person: person, coordinate: coordinate, takenAt: Date(timeIntervalSince1970: Double(ms) / 1000)) else { return nil }
            self = .snap(snap)
        default: return nil
        }
    }
}
