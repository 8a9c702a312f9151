import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapRequest

/// `/v1/me/footsteps`, `/v1/me/footsteps.json` and `/v1/me/explored.json`: the signed-in person's private history of
/// places, and how much of each neighbourhood it has explored, for them alone.
extension MapAPI {
    /// `PUT /v1/me/footsteps`: keep Footsteps or stop.
    struct FootstepsChange: ClosedBody {
        let on: Bool

        enum CodingKeys: String, CodingKey, CaseIterable { case on }
    }

    struct FootstepsAnswer: Encodable {
        let on: Bool
        let places: Int
    }

    /// A page of the places as a GeoJSON FeatureCollection of Points, each with its first and last visit, and the
    /// cursor of the next page (`next`, absent on the last).
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
        let next: String?

        init(_ places: [Footstep], next: FootstepsCursor?) {
            self.next = next?.description
            let dates = ISO8601DateFormatter()
            dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            features = places.map { place in
                Feature(geometry: Feature.Geometry(coordinates: [place.coordinate.lon, place.coordinate.lat]),
                        properties: Feature.Visits(firstVisit: dates.string(from: place.firstVisit), lastVisit: dates.string(from: place.lastVisit)))
            }
        }
    }

    /// The share of each neighbourhood explored, with how it is measured.
    struct ExploredAnswer: Encodable {
        let radiusMeters: Double
        let cutMeters: Double
        let neighbourhoods: [Exploration]
    }

    /// `GET /v1/me/explored.json`: measured on the render pool (a long history reaches many streets) from the places
    /// near the neighbourhoods' streets alone, read through the store's index of places.
    func explored(_ me: PersonID) throws -> HTTPResponse {
        let places = try live.footsteps(of: me, in: try engine.exploredBounds()).map { WebMercator.projectUnchecked(lat: $0.lat, lon: $0.lon) }
        let engine = self.engine
        return renders.answer(for: me.rawValue) { _ in
            let answer = ExploredAnswer(radiusMeters: MapEngine.visitedRadiusMeters, cutMeters: MapEngine.exploredCutMeters,
                                        neighbourhoods: try engine.explored(places: places))
            return try Self.encoded(answer, status: 200, headers: [("Cache-Control", "private, no-store")])
        }
    }

    func footsteps(_ me: PersonID, _ request: HTTPRequest, geoJSON: Bool) throws -> HTTPResponse {
        let headers = [("Cache-Control", "private, no-store")]
        if geoJSON {
            let parameters = RequestParameters(request.query)
            let limit = try parameters.number("limit", in: Double(Footsteps.pageSizes.lowerBound)...Double(Footsteps.pageSizes.upperBound))
            guard limit.map({ $0 == $0.rounded() }) ?? true else {
                throw BadField(field: "limit", message: "must be a whole number from \(Footsteps.pageSizes.lowerBound) to \(Footsteps.pageSizes.upperBound)")
            }
            var after: FootstepsCursor?
            if let text = try parameters.string("after") {
                guard let cursor = FootstepsCursor(text) else {
                    throw BadField(field: "after", message: "must be the next cursor of a previous page (MS.SKIP), got \"\(text.prefix(40))\"")
                }
                after = cursor
            }
            let page = Footsteps.page(try live.footsteps(of: me), after: after, limit: limit.map { Int($0) } ?? Footsteps.pageSizes.upperBound)
            let body = try CompactJSONEncoder.encode(FootstepsGeoJSON(page.places, next: page.next))
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
