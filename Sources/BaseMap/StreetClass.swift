/// OpenStreetMap `highway` classes in drawing order: small streets first, main streets last (on top).
public enum StreetClass: String, CaseIterable, Sendable, Codable, Comparable {
    case livingStreet = "living_street"
    case unclassified
    case residential
    case tertiary
    case secondary
    case primary

    public var rank: UInt8 { UInt8(Self.allCases.firstIndex(of: self) ?? 0) }

    public init?(rank: UInt8) {
        guard Int(rank) < Self.allCases.count else { return nil }
        self = Self.allCases[Int(rank)]
    }

    public static func < (lhs: StreetClass, rhs: StreetClass) -> Bool { lhs.rank < rhs.rank }
}
