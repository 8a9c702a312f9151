import Foundation
import GeoCore
import LiveMap
import PinLayout
import Testing
@testable import MapEngine

/// With the real poses: a lone friend's label takes its first anchor whatever their pose, clear of what the pose draws
/// (measured from the renderer's pixels, as `PoseFootprintTests` does); before, a flyer's window blocked every anchor.
@Suite("Poses and their own pins' labels")
struct PoseLabelTests {
    @Test(arguments: [Pose.driving, .flying, .birthday, .asleep])
    func aLoneFriendsLabelTakesItsFirstAnchorClearOfTheirPose(pose: Pose) throws {
        let engine = try EngineFixture.engine.get()
        var theo = try #require(engine.scene.friend(id: "theo"))
        theo.pose = pose
        for scale in [1.0, 2, 3] {
            let viewport = try Viewport(center: theo.coordinate, zoom: 16, size: ScreenSize(width: 300, height: 300), scale: scale)
            let pin = try #require(try engine.layout(viewport, friends: [theo], now: engine.scene.capturedAt).pin("theo"))
            let (avatar, label) = (try #require(pin.avatarRect), try #require(pin.labelRect, "\(pose) at \(scale)x: \(pin.labelHidden ?? "")"))
            let drawn = try #require(try PoseFootprintTests.drawn([theo], avatar: avatar, scale: scale, engine: engine))
            #expect(pin.anchor == LabelAnchor.allCases[0] && !label.overlaps(drawn.box), "\(pose) at \(scale)x: \(label) and \(drawn.box)")
        }
    }
}
