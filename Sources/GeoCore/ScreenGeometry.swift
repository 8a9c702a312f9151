// Re-exported: a module that imports GeoCore uses its points and rectangles with Planar's operations.
@_exported import Planar

/// The space of the screen in points, origin top-left, y down (a point is `scale` pixels on a canvas).
public enum Points {}

/// A position on screen in points.
public typealias ScreenPoint = PlanePoint<Points>

/// A width and height in points.
public struct ScreenSize: Hashable, Sendable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Parses `WxH`.
    public init(parsing text: String, field: String) throws(BadField) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1] else {
            throw BadField(field: field, message: "expected WxH in points, got \"\(text)\"")
        }
        self.init(width: width, height: height)
    }
}

/// An axis-aligned rectangle on screen in points.
public typealias ScreenRect = PlaneRect<Points>

extension ScreenRect {
    /// This rectangle shrunk by the insets (negative insets grow it).
    public func inset(by insets: EdgeInsets) -> ScreenRect {
        ScreenRect(x: x + insets.left, y: y + insets.top,
                   width: width - insets.left - insets.right, height: height - insets.top - insets.bottom)
    }
}

/// Distances in points from each edge of a viewport (status bar, card, sheet).
public struct EdgeInsets: Hashable, Sendable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on all four sides.
    public init(all value: Double) {
        self.init(top: value, left: value, bottom: value, right: value)
    }

    /// The sum of two sets of insets, side by side.
    public static func + (lhs: EdgeInsets, rhs: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: lhs.top + rhs.top, left: lhs.left + rhs.left, bottom: lhs.bottom + rhs.bottom, right: lhs.right + rhs.right)
    }

    /// Validates every side as finite and within `0…limit`.
    public func validated(field: String, limit: Double) throws(BadField) -> EdgeInsets {
        for (name, value) in [("top", top), ("left", left), ("bottom", bottom), ("right", right)] {
            try BadField.check(value, "\(field).\(name)", in: 0...limit)
        }
        return self
    }
}
