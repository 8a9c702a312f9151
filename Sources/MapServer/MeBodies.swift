import Foundation
import GeoCore
import LiveMap

/// The JSON bodies of the signed-in endpoints, as clients send them.
enum MeBodies {
    /// `PUT /v1/me/location`: where the phone is, how sure it is, when (now if absent) and an optional place name.
    struct Location: Decodable {
        let at: Date?
        let lat: Double
        let lon: Double
        let accuracyMeters: Double
        let place: String?
        let activity: Activity?
        let speedMetersPerSecond: Double?

        enum CodingKeys: String, CodingKey, CaseIterable { case lat, lon, accuracyMeters, at, place, activity, speedMetersPerSecond }

        init(from decoder: any Decoder) throws {
            let fields = try JSONBody.fields(decoder, CodingKeys.self)
            at = try fields.decodeIfPresent(String.self, forKey: .at).map { try MeBodies.time($0, field: "at") }
            lat = try fields.decode(Double.self, forKey: .lat)
            lon = try fields.decode(Double.self, forKey: .lon)
            accuracyMeters = try fields.decode(Double.self, forKey: .accuracyMeters)
            place = try fields.decodeIfPresent(String.self, forKey: .place)
            activity = try fields.decodeIfPresent(String.self, forKey: .activity).map { try Activity.parse($0) }
            speedMetersPerSecond = try fields.decodeIfPresent(Double.self, forKey: .speedMetersPerSecond)
        }
    }

    /// `POST /v1/me/snaps`: a Snap's place, in range, and when it was taken (now if absent).
    struct Snap: Decodable {
        let coordinate: Coordinate
        let at: Date?

        enum CodingKeys: String, CodingKey, CaseIterable { case lat, lon, at }

        init(from decoder: any Decoder) throws {
            let fields = try JSONBody.fields(decoder, CodingKeys.self)
            do {
                coordinate = try Coordinate(lat: fields.decode(Double.self, forKey: .lat), lon: fields.decode(Double.self, forKey: .lon))
            } catch let error as BadField {
                throw JSONBody.invalid(error.field, error.message)
            }
            at = try fields.decodeIfPresent(String.self, forKey: .at).map { try MeBodies.time($0, field: "at") }
        }
    }

    /// `PUT /v1/me/sharing`: a ghost mode, an audience, or both.
    struct Sharing: Decodable {
        /// Who sees the person: a mode and, for the modes that list people, their ids.
        struct Audience: Decodable {
            let mode: String
            let ids: [String]

            enum CodingKeys: String, CodingKey, CaseIterable { case mode, ids }

            init(from decoder: any Decoder) throws {
                let fields = try JSONBody.fields(decoder, CodingKeys.self)
                mode = try fields.decode(String.self, forKey: .mode)
                ids = try fields.decodeIfPresent([String].self, forKey: .ids) ?? []
            }
        }
        let ghost: String?
        let audience: Audience?

        enum CodingKeys: String, CodingKey, CaseIterable { case ghost, audience }

        init(from decoder: any Decoder) throws {
            let fields = try JSONBody.fields(decoder, CodingKeys.self)
            ghost = try fields.decodeIfPresent(String.self, forKey: .ghost)
            audience = try fields.decodeIfPresent(Audience.self, forKey: .audience)
            guard ghost != nil || audience != nil else { throw JSONBody.invalid("body", "needs ghost, audience or both") }
        }
    }

    struct FriendStatus: Encodable {
        let id: String
        let status: String
    }

    struct SharingAnswer: Encodable {
        struct AudienceAnswer: Encodable {
            let mode: String
            let ids: [String]
        }
        let ghost: String
        let ghostUntil: String?
        let audience: AudienceAnswer
    }

    struct FriendEntry: Encodable {
        let id: String
        let name: String
        let status: String
        /// `MM-DD`, for friends who set one.
        let birthday: String?
    }

    /// `PUT /v1/me/birthday` and its answer: `MM-DD`, or null for none.
    struct BirthdayBody: Codable {
        let birthday: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case birthday }

        init(birthday: String?) { self.birthday = birthday }

        init(from decoder: any Decoder) throws {
            let fields = try JSONBody.fields(decoder, CodingKeys.self)
            guard fields.contains(.birthday) else { throw JSONBody.invalid("birthday", "is required: MM-DD, or null to clear") }
            birthday = try fields.decodeIfPresent(String.self, forKey: .birthday)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(birthday, forKey: .birthday)
        }
    }

    struct FriendList: Encodable {
        let friends: [FriendEntry]
    }

    /// An ISO 8601 time (fractional seconds allowed), naming `field` when malformed.
    static func time(_ text: String, field: String) throws -> Date {
        guard let date = ISO8601Time.date(from: text) else {
            throw JSONBody.invalid(field, "must be an ISO 8601 time such as \(ISO8601Time.example)")
        }
        return date
    }
}
