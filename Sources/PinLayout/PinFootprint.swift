import GeoCore

/// What a pin draws beyond its round avatar (an Actionmoji pose: a car, a plane window, balloons, "z z"): labels keep
/// clear of it and a tap on it hits the pin. The module that draws pins answers it; the layout only places around it.
public protocol PinFootprinting: Sendable {
    /// The box in points that a pin with its avatar in `avatar` draws beyond the avatar's circle at `scale` pixels a
    /// point, for `poses` (one friend's, or a group's members' in the group's order); nil when it draws nothing more.
    func extent(poses: [String], avatar: ScreenRect, scale: Double) -> ScreenRect?
}
