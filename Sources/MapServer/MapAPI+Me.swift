import Foundation
import GeoCore
import LiveMap
import MapEngine
import PinLayout

/// `/v1/me/…`: everything a signed-in person reads and changes. A token reads and changes its own person only.
extension MapAPI {
    static let unauthorized = MapAPI.json(401, ["error": "sign-in required: send Authorization: Bearer <token>"],
                                          headers: [("WWW-Authenticate", "Bearer realm=\"snapmap\"")])

    /// The person a request's bearer token signs in, with the token's hash; nil for a missing, malformed, unknown
    /// or revoked token.
    func signedIn(_ request: HTTPRequest) throws -> (person: PersonID, tokenHash: String)? {
        guard let header = request.authorization, header.hasPrefix("Bearer "),
              let hash = LiveMapService.tokenHash(ifWellFormed: String(HeaderText.trimmingWhitespace(header.dropFirst(7)))),
              let person = try live.store.tokenOwner(hash: hash) else { return nil }
        return (person, hash)
    }

    func me(_ request: HTTPRequest) throws -> HTTPResponse {
        if let allowedHosts, !allowedHosts.contains(Self.hostName(request.host)) {
            return Self.json(421, ["error": "this server does not answer private requests for that host name"])
        }
        guard let session = try signedIn(request) else { return Self.unauthorized }
        let me = session.person
        if let misdirected = misdirected(me) { return misdirected }
        guard !request.bodyTooLarge else { return Self.json(413, ["error": "the body is larger than \(HTTPServer.bodyLimit) bytes"]) }
        if request.path == "/v1/me" {
            guard request.method == "DELETE" else { return Self.json(405, ["error": "method \(request.method.prefix(16)) is not allowed here; use DELETE"], headers: [("Allow", "DELETE")]) }
            try live.removePerson(me.rawValue)
            return HTTPResponse(status: 204, contentType: "application/json", body: [])
        }
        let path = String(request.path.dropFirst("/v1/me/".count))
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (request.method, parts.first ?? "") {
        case ("DELETE", "session") where parts.count == 1:
            try live.signOut(tokenHash: session.tokenHash)
            return HTTPResponse(status: 204, contentType: "application/json", body: [])
        case ("PUT", "location") where parts.count == 1: return try updateLocation(me, request)
        case ("POST", "snaps") where parts.count == 1: return try postSnap(me, request)
        case ("GET", "birthday") where parts.count == 1, ("HEAD", "birthday") where parts.count == 1, ("PUT", "birthday") where parts.count == 1:
            return try birthday(me, request)
        case ("GET", "sharing") where parts.count == 1, ("HEAD", "sharing") where parts.count == 1: return try sharing(me)
        case ("PUT", "sharing") where parts.count == 1: return try updateSharing(me, request)
        case ("GET", "friends") where parts.count == 1, ("HEAD", "friends") where parts.count == 1: return try friends(me)
        case ("POST", "friends") where parts.count == 2, ("DELETE", "friends") where parts.count == 2,
             ("POST", "blocks") where parts.count == 2, ("DELETE", "blocks") where parts.count == 2:
            return try relation(me, request.method, parts[0], parts[1])
        case ("GET", "live-shares") where parts.count == 1, ("HEAD", "live-shares") where parts.count == 1, ("POST", "live-shares") where parts.count == 1,
             ("PATCH", "live-shares") where parts.count == 2, ("DELETE", "live-shares") where parts.count == 2:
            return try liveShares(me, request, parts)
        case ("GET", "footsteps") where parts.count == 1, ("HEAD", "footsteps") where parts.count == 1, ("PUT", "footsteps") where parts.count == 1,
             ("DELETE", "footsteps") where parts.count == 1, ("GET", "footsteps.json") where parts.count == 1, ("HEAD", "footsteps.json") where parts.count == 1:
            return try footsteps(me, request, geoJSON: parts[0] == "footsteps.json")
        case ("GET", "explored.json") where parts.count == 1, ("HEAD", "explored.json") where parts.count == 1: return try explored(me)
        case ("GET", "events") where parts.count == 1: return try eventStream(me, tokenHash: session.tokenHash)
        case ("GET", "orders") where parts.count == 2, ("HEAD", "orders") where parts.count == 2: return try getOrder(me, parts[1])
        case ("POST", "orders") where parts.count == 3 && ["pickup", "dropoff"].contains(parts[2]): return try moveOrder(me, parts[1], parts[2])
        case ("GET", "orders") where parts.count == 3 && Self.trackingAnswers.contains(parts[2]),
             ("HEAD", "orders") where parts.count == 3 && Self.trackingAnswers.contains(parts[2]):
            return try tracking(me, parts[1], parts[2], request)
        case ("GET", _) where parts.count == 1 && Self.mapAnswers.contains(parts[0]), ("HEAD", _) where parts.count == 1 && Self.mapAnswers.contains(parts[0]):
            return try map(me, request, answer: parts[0])
        default:
            guard let allowed = Self.allowedMethods(parts) else { return Self.json(404, ["error": "no such resource: \(request.path.prefix(80))"]) }
            return Self.json(405, ["error": "method \(request.method.prefix(16)) is not allowed here; use \(allowed)"], headers: [("Allow", allowed)])
        }
    }

    /// A Host header without its port (IPv6 literals keep their brackets), lowercased.
    static func hostName(_ host: String?) -> String {
        guard let host else { return "" }
        // ASCII (every name a client sends) byte by byte: lowercasing by Unicode's rules was 1.4% of a revalidation.
        if host.utf8.allSatisfy({ $0 < 0x80 }) {
            let bytes = Array(host.utf8)
            let bracketed = bytes.first == UInt8(ascii: "[")
            let end = bytes.firstIndex(of: UInt8(ascii: bracketed ? "]" : ":")) ?? bytes.count
            let name = bytes[..<end].map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 } + (bracketed ? [UInt8(ascii: "]")] : [])
            return String(decoding: name, as: UTF8.self)
        }
        let lowered = host.lowercased()
        if lowered.hasPrefix("[") { return String(lowered.prefix { $0 != "]" }) + "]" }
        return String(lowered.prefix { $0 != ":" })
    }

    static let mapAnswers: Set<String> = ["layout.json", "frame.png", "hit", "zoom", "fly.png"]

    /// Every route under `/v1/me/` (`{id}` a person's or an order's id) and the methods it takes, as 405 answers name them in Allow.
    static let meRoutes: [String: String] = [
        "location": "PUT", "snaps": "POST", "sharing": "GET, HEAD, PUT", "friends": "GET, HEAD", "friends/{id}": "POST, DELETE",
        "blocks/{id}": "POST, DELETE", "events": "GET", "session": "DELETE", "orders/{id}": "GET, HEAD", "orders/{id}/pickup": "POST",
        "orders/{id}/dropoff": "POST", "orders/{id}/layout.json": "GET, HEAD", "orders/{id}/frame.png": "GET, HEAD",
        "live-shares": "GET, HEAD, POST", "live-shares/{id}": "PATCH, DELETE", "footsteps": "GET, HEAD, PUT, DELETE", "footsteps.json": "GET, HEAD",
        "birthday": "GET, HEAD, PUT",
        "explored.json": "GET, HEAD",
    ].merging(mapAnswers.map { ($0, "GET, HEAD") }) { first, _ in first }

    static func allowedMethods(_ parts: [String]) -> String? {
        switch parts.count {
        case 1: return meRoutes[parts[0]]
        case 2: return meRoutes[parts[0] + "/{id}"]
        case 3: return meRoutes[parts[0] + "/{id}/" + parts[2]]
        default: return nil
        }
    }

    private func updateLocation(_ me: PersonID, _ request: HTTPRequest) throws -> HTTPResponse {
        if let wait = locationLimiter.take(me.rawValue) { return Self.tooMany(wait) }
        let body = try JSONBody.decode(MeBodies.Location.self, from: request.body)
        let now = clock()
        let fix = try LocationFix(lat: body.lat, lon: body.lon, accuracyMeters: body.accuracyMeters, takenAt: body.at ?? now, place: body.place,
                                  activity: body.activity, speedMetersPerSecond: body.speedMetersPerSecond)
        let (live, drives, events) = (self.live, self.drives, self.events)
        return .later { send in
            do {
                try live.updateLocation(me, fix: fix, now: now) { result in
                    switch result {
                    case .success:
                        Self.dasherMoved(me, fix, at: now, drives: drives, events: events)
                        send(HTTPResponse(status: 204, contentType: "application/json", body: []))
                    case .failure(let error): send(Self.failure(error))
                    }
                }
            } catch {
                send(Self.failure(error))
            }
        }
    }

    private func postSnap(_ me: PersonID, _ request: HTTPRequest) throws -> HTTPResponse {
        if let wait = snapLimiter.take(me.rawValue) { return Self.tooMany(wait) }
        let body = try JSONBody.decode(MeBodies.Snap.self, from: request.body)
        let now = clock()
        let snap = try PublicSnap(person: me, coordinate: body.coordinate, takenAt: body.at ?? now)
        let live = self.live
        try LiveMapService.checkSnapTime(snap.takenAt, now: now)
        return .later { send in
            do {
                try live.postSnap(snap, now: now) { result in
                    switch result {
                    case .success(true): send(HTTPResponse(status: 204, contentType: "application/json", body: []))
                    // The account was deleted while the request was under way: as every request of it now, 401.
                    case .success(false): send(Self.unauthorized)
                    case .failure(let error): send(Self.failure(error))
                    }
                }
            } catch {
                send(Self.failure(error))
            }
        }
    }

    private func sharing(_ me: PersonID) throws -> HTTPResponse {
        let settings = try live.sharing(of: me)
        let now = clock()
        var until: String?
        if case .timed(_, let end) = settings.ghost, end > now { until = ISO8601DateFormatter().string(from: end) }
        let answer = MeBodies.SharingAnswer(ghost: settings.ghost.name(at: now), ghostUntil: until,
                                            audience: .init(mode: settings.audience.mode, ids: settings.audience.ids.map(\.rawValue)))
        return try Self.encoded(answer, status: 200, headers: [("Cache-Control", "private, no-store")])
    }

    private func updateSharing(_ me: PersonID, _ request: HTTPRequest) throws -> HTTPResponse {
        if let wait = writeLimiter.take(me.rawValue) { return Self.tooMany(wait) }
        let body = try JSONBody.decode(MeBodies.Sharing.self, from: request.body)
        try live.setSharing(me, ghost: body.ghost, audience: body.audience.map { (mode: $0.mode, ids: $0.ids) }, now: clock())
        return try sharing(me)
    }

    private func friends(_ me: PersonID) throws -> HTTPResponse {
        let list = try live.relations(of: me).map { MeBodies.FriendEntry(id: $0.person.id.rawValue, name: $0.person.name, status: $0.status.rawValue,
                                                                        birthday: $0.birthday?.description) }
        return try Self.encoded(MeBodies.FriendList(friends: list), status: 200, headers: [("Cache-Control", "private, no-store")])
    }

    private func relation(_ me: PersonID, _ method: String, _ kind: String, _ other: String) throws -> HTTPResponse {
        if let wait = writeLimiter.take(me.rawValue) { return Self.tooMany(wait) }
        switch (kind, method) {
        case ("friends", "POST"):
            let status = try live.requestFriend(me, other)
            return try Self.encoded(MeBodies.FriendStatus(id: other, status: status.rawValue), status: 200)
        case ("friends", _): try live.removeFriend(me, other)
        case ("blocks", "POST"): try live.block(me, other)
        default: try live.unblock(me, other)
        }
        return HTTPResponse(status: 204, contentType: "application/json", body: [])
    }

    private func eventStream(_ me: PersonID, tokenHash: String) throws -> HTTPResponse {
        guard events.admit(me) else { return Self.tooMany(EventHub.sweepInterval) }
        let hub = events
        return HTTPResponse(status: 200, contentType: "text/event-stream", body: [],
                            headers: [("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")],
                            stream: { stream in hub.subscribe(me, tokenHash: tokenHash, stream: stream) })
    }

    static func tooMany(_ seconds: Double) -> HTTPResponse {
        json(429, ["error": "too many requests; retry after the Retry-After seconds"], headers: [("Retry-After", String(max(1, Int(seconds.rounded(.up)))))])
    }
}
