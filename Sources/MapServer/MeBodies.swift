import Foundation
import GeoCore

/// The JSON bodies of the signed-in endpoints, as clients send them.
enum MeBodies {
    static let locationFields = ["lat", "lon", "accuracyMeters", "at", "place"]
    static let sharingFields = ["ghost", "audience"]
    static let snapFields = ["lat", "lon", "at"]
    static let audienceFields = ["mode", "ids"]

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
    }

    struct FriendList: Encodable {
        let friends: [FriendEntry]
    }

    /// An ISO 8601 time (fractional seconds allowed), naming `field` when malformed.
    static func time(_ text: String, field: String) throws -> Date {
        guard let date = ISO8601Time.date(from: text) else {
            throw JSONBody.Invalid(field: field, message: "must be an ISO 8601 time such as \(ISO8601Time.example)")
        }
        return date
    }
}
