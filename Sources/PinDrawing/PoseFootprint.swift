import GeoCore
import LiveMap
import PinLayout
import Raster

/// The box a pin's Actionmoji poses draw beyond its avatar, where `PinRenderer` draws them (around the one avatar, or
/// around each face shown in a group's bubble), one pixel wider on every side for anti-aliasing on any pixel grid.
public struct PoseFootprint: PinFootprinting {
    public init() {}

    public func extent(poses: [String], avatar: ScreenRect, scale: Double) -> ScreenRect? {
        let whole = avatar.pixels(scale: scale)
        let circles = poses.count == 1 ? [whole] : PinRenderer.faceCircles(in: whole, members: poses.count)
        var box: Rect?
        // zip stops at the faces shown: the "+N" circle, if any, has no pose.
        for (circle, name) in zip(circles.prefix(PinRenderer.shownMembers), poses) {
            guard let pose = Pose(rawValue: name), let drawn = PosePainter.extent(pose, around: circle) else { continue }
            box = box.map { $0.union(drawn) } ?? drawn
        }
        guard let box = box?.outset(by: 1) else { return nil }
        return ScreenRect(x: box.x / scale, y: box.y / scale, width: box.width / scale, height: box.height / scale)
    }
}
