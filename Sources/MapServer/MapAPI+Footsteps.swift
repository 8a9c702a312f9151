import Foundation
import LiveMap

/// `/v1/me/footsteps` and `/v1/me/footsteps.json`: the signed-in person's private history of places, for them alone.
extension MapAPI {
    /// `PUT /v1/me/footsteps`: keep Footsteps or stop.
    struct FootstepsChange: Decodable {
        let on: Bool

        enum CodingKeys: String, CodingKey, CaseIterable { case on }

        init(from decoder: any Decoder) throws {
            on = try JSONBody.fields(decoder, CodingKeys.self).decode(Bool.self, forKey: .on)
        }
    }

    struct FootstepsAnswer: Encodable {
        let on: Bool
        let places: Int
    }

    /// The places as a GeoJSON FeatureCollection of Points, each with its first and last visit.
    struct FootstepsGeoJSON: Encodable {
        struct Feature: Encodable {
            struct Geometry: Encodable {
                let type = "Point"
                let coordinates: [Double]
            }
            struct Visits: Encodable {
                let firstVisit: String
                let lastVisit: String
            }
            let type = "Feature"
            let geometry: Geometry
            let properties: Visits
        }
        let type = "FeatureCollection"
        let features: [Feature]

        init(_ places: [Footstep]) {
            let dates = ISO8601DateFormatter()
            dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            features = places.map { place in
                Feature(geometry: Feature.Geometry(coordinates: [place.coordinate.lon, place.coordinate.lat]),
                        properties: Feature.Visits(firstVisit: dates.string(from: place.firstVisit), lastVisit: dates.string(from: place.lastVisit)))
            }
        }
    }

    func footsteps(_ me: PersonID, _ request: HTTPRequest, geoJSON: Bool) throws -> HTTPResponse {
        let headers = [("Cache-Control", "private, no-store")]
        if geoJSON {
            let body = try CompactJSONEncoder.encode(FootstepsGeoJSON(try live.footsteps(of: me)))
            return HTTPResponse(status: 200, contentType: "application/geo+json", body: body, headers: headers)
        }
        switch request.method {
        case "PUT":
            if let wait = writeLimiter.take(me.rawValue) { return Self.tooMany(wait) }
            try live.setFootsteps(me, on: JSONBody.decode(FootstepsChange.self, from: request.body).on)
        case "DELETE":
            try live.clearFootsteps(me)
            return HTTPResponse(status: 204, contentType: "application/json", body: [])
        default: break
        }
        let state = try live.footstepsState(of: me)
        return try Self.encoded(FootstepsAnswer(on: state.on, places: state.places), status: 200, headers: headers)
    }
}
