import Foundation
import LiveMap

/// `/v1/me/live-shares`: Live Location. A share is named by the friend it goes to (one per friend), so
/// `PATCH`/`DELETE /v1/me/live-shares/{id}` change the caller's own share with friend `id`.
extension MapAPI {
    /// `POST /v1/me/live-shares`: whom to share with, and for how long.
    struct LiveShareStart: ClosedBody {
        let friend: String
        let duration: String

        enum CodingKeys: String, CodingKey, CaseIterable { case friend, duration }
    }

    /// `PATCH /v1/me/live-shares/{id}`: pause (true) or resume (false).
    struct LiveSharePause: ClosedBody {
        let paused: Bool

        enum CodingKeys: String, CodingKey, CaseIterable { case paused }
    }

    struct LiveShareList: Encodable {
        let shares: [LiveShare]
    }

    func liveShares(_ me: PersonID, _ request: HTTPRequest, _ parts: [String]) throws -> HTTPResponse {
        let headers = [("Cache-Control", "private, no-store")]
        if request.method == "GET" || request.method == "HEAD" {
            return try Self.encoded(LiveShareList(shares: live.liveShares(of: me, at: clock())), status: 200, headers: headers)
        }
        if let wait = writeLimiter.take(me.rawValue) { return Self.tooMany(wait) }
        switch (request.method, parts.count) {
        case ("POST", 1):
            let body = try JSONBody.decode(LiveShareStart.self, from: request.body)
            return try Self.encoded(live.startLiveShare(me, with: body.friend, duration: body.duration, now: clock()), status: 200, headers: headers)
        case ("PATCH", 2):
            let body = try JSONBody.decode(LiveSharePause.self, from: request.body)
            let friend = parts[1]
            return try Self.encoded(live.pauseLiveShare(me, with: friend, paused: body.paused, now: clock()), status: 200, headers: headers)
        default:
            try live.stopLiveShare(me, with: parts[1])
            return HTTPResponse(status: 204, contentType: "application/json", body: [])
        }
    }
}
