import Foundation

/// WGS 84 degrees.
public struct Coordinate: Codable, Sendable, Equatable {
    public let lat: Double
    public let lon: Double

    public init(lat: Double, lon: Double) {
        (self.lat, self.lon) = (lat, lon)
    }
}

/// A point on screen, in points from the top-left corner.
public struct ScreenPoint: Codable, Sendable, Equatable {
    public let x: Double
    public let y: Double
}

/// A rectangle on screen, in points.
public struct ScreenRect: Codable, Sendable, Equatable {
    public let x: Double
    public let y: Double
    public let width: Double
    public let height: Double
}

/// What a map answer shows: the scene's viewport where a field is nil.
public struct MapViewport: Sendable, Equatable {
    public var center: Coordinate?
    public var zoom: Double?
    /// Points, width × height.
    public var size: (width: Double, height: Double)?
    public var scale: Double?

    public init(center: Coordinate? = nil, zoom: Double? = nil, size: (width: Double, height: Double)? = nil, scale: Double? = nil) {
        (self.center, self.zoom, self.size, self.scale) = (center, zoom, size, scale)
    }

    public static func == (lhs: MapViewport, rhs: MapViewport) -> Bool {
        lhs.center == rhs.center && lhs.zoom == rhs.zoom && lhs.size?.width == rhs.size?.width && lhs.size?.height == rhs.size?.height
            && lhs.scale == rhs.scale
    }

    var query: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let center { items.append(URLQueryItem(name: "center", value: "\(center.lat),\(center.lon)")) }
        if let zoom { items.append(URLQueryItem(name: "zoom", value: String(zoom))) }
        if let size { items.append(URLQueryItem(name: "size", value: "\(size.width)x\(size.height)")) }
        if let scale { items.append(URLQueryItem(name: "scale", value: String(scale))) }
        return items
    }
}

/// One friend in a layout; a friend in a group is drawn by the group's pin.
public struct LaidOutPin: Codable, Sendable, Equatable {
    public let id: String
    public let name: String
    public let labelText: String
    public let coordinate: Coordinate
    public let screenPoint: ScreenPoint
    public let visible: Bool
    public let avatarRect: ScreenRect?
    public let labelRect: ScreenRect?
    public let anchor: String?
    public let groupId: String?
    public let zIndex: Int
    public let selected: Bool
    /// The Actionmoji pose to draw: flying, driving, birthday, asleep or standing.
    public let pose: String
}

/// Friends who stand together, drawn as one pin.
public struct LaidOutGroup: Codable, Sendable, Equatable {
    public let id: String
    public let members: [String]
    public let labelText: String
    public let coordinate: Coordinate
    public let screenPoint: ScreenPoint
    public let visible: Bool
    public let avatarRect: ScreenRect?
    public let labelRect: ScreenRect?
    public let zIndex: Int
}

/// The selected friend's card, for a phone to draw natively.
public struct SelectionCard: Codable, Sendable, Equatable {
    public let friend: String
    public let name: String
    public let seen: String
    public let place: String
    public let distanceMeters: Double?
    public let deepLink: String
    public let rect: ScreenRect
}

/// `GET /v1/me/layout.json`: every friend on the map placed, labels resolved.
public struct Layout: Codable, Sendable, Equatable {
    public let now: Date
    public let selected: String?
    public let pins: [LaidOutPin]
    public let groups: [LaidOutGroup]
    public let card: SelectionCard?
}

/// `GET /v1/me/hit`: what a tap hit.
public struct Hit: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case pin, group, label, none }
    public let kind: Kind
    public let id: String?
    public let members: [String]?
}

/// A camera: where the map is centred and its zoom.
public struct Camera: Codable, Sendable, Equatable {
    public let center: Coordinate
    public let zoom: Double
}

/// `GET /v1/me/zoom`: the camera that shows a friend above the card, and the fly-to path there.
public struct Zoom: Codable, Sendable, Equatable {
    public struct Step: Codable, Sendable, Equatable {
        public let time: Double
        public let center: Coordinate
        public let zoom: Double
    }
    public let target: String
    public let camera: Camera
    public let screenPoint: ScreenPoint
    public let duration: Double
    public let path: [Step]
    public let keepsUserZoom: Bool
}

/// `GET /v1/route/state.json`: the courier on a delivery route.
public struct CourierState: Codable, Sendable, Equatable {
    public let progress: Double
    public let drivenMeters: Double
    public let remainingMeters: Double
    public let coordinate: Coordinate
    public let arrived: Bool
}
