import Foundation

/// Someone on the map: an id, a display name (kept to `PersonText`'s rule, in NFC), an avatar colour and
/// optionally an avatar image (a path under the data directory). Construction validates.
public struct Person: Hashable, Sendable {
    public let id: PersonID
    public let name: String
    /// `#RRGGBB`.
    public let color: String
    public let avatar: String?

    public init(id: PersonID, name: String, color: String, avatar: String? = nil) throws(LiveMapError) {
        let name = try PersonText.checked(name, field: "name")
        guard color.utf8.count == 7, color.first == "#", color.dropFirst().allSatisfy(\.isHexDigit) else {
            throw .invalid(field: "color", message: "must be #RRGGBB, got \"\(color.prefix(16))\"")
        }
        if let avatar {
            guard !avatar.isEmpty, avatar.count <= 128, !avatar.hasPrefix("/"), !avatar.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else {
                throw .invalid(field: "avatar", message: "must be a relative path inside the data directory without . or .. parts")
            }
        }
        self.id = id
        self.name = name
        self.color = color
        self.avatar = avatar
    }
}

extension Person {
    /// For people read back from a store that validated them when they were written.
    init(trusted id: PersonID, name: String, color: String, avatar: String?) {
        self.id = id
        self.name = name
        self.color = color
        self.avatar = avatar
    }
}
