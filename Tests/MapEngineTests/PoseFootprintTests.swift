import Foundation
import GeoCore
import LiveMap
import PinLayout
import Raster
import Testing
@testable import MapEngine
@testable import MapScene
@testable import PinDrawing

/// Poses are part of a pin's footprint: over random viewports of posed friends (crowds and groups included, at scales
/// 1 to 3), no label covers a pixel that a pose draws, and a tap on a pose's drawing hits its pin. What a pose draws is
/// measured from the renderer's pixels (the posed pin against the same pin standing), never from the extents the
/// layout is handed.
@Suite("Actionmoji poses in label placement and hits")
struct PoseFootprintTests {
    /// What a pin's poses drew: the box of the pixels that differ from the pin standing, in the frame's points, and the
    /// differing pixel farthest (by the larger of its two offsets) from the avatar's centre.
    struct Drawn {
        let box: ScreenRect
        let farthest: ScreenPoint
    }

    /// Draws the pin (one friend, or a group's bubble of `members`) with its avatar at `avatar` twice, posed and
    /// standing, on a canvas four avatars wide, at the frame's pixel alignment (moved by whole pixels); nil when no
    /// pixel differs.
    static func drawn(_ members: [Friend], avatar: ScreenRect, scale: Double, engine: MapEngine) throws -> Drawn? {
        let whole = avatar.pixels(scale: scale)
        let side = Int((4 * whole.width).rounded(.up)) + 2
        let (tx, ty) = (Double(side / 2) - whole.center.x.rounded(.down), Double(side / 2) - whole.center.y.rounded(.down))
        let moved = ScreenRect(x: avatar.x + tx / scale, y: avatar.y + ty / scale, width: avatar.width, height: avatar.height)
        func draw(_ friends: [Friend]) throws -> [UInt8] {
            let byID = Dictionary(uniqueKeysWithValues: friends.map { ($0.id, $0) })
            let renderer = PinRenderer(look: engine.pinLook, font: engine.labelFont, friends: byID, avatars: [:],
                                       looks: byID.mapValues { engine.scene.look(of: $0.id, color: $0.color) }, shadows: ShadowMasks())
            let canvas = try Canvas(width: side, height: side, background: .white)
            renderer.drawAvatars(PinRenderer.Drawable(zIndex: 0, avatar: moved, label: nil, members: friends.map(\.id), selected: false, text: ("", "")),
                                 scale: scale, into: canvas)
            return canvas.straightRGBA8()
        }
        let posed = try draw(members)
        let standing = try draw(members.map { var friend = $0; friend.pose = .standing; return friend })
        var (x0, y0, x1, y1) = (side, side, -1, -1)
        var farthest = (distance: -1, x: 0, y: 0)
        posed.withUnsafeBytes { posed in
            standing.withUnsafeBytes { standing in
                // Rows alike byte for byte are skipped whole; in the others, pixels are compared as 32-bit words.
                for y in 0..<side where memcmp(posed.baseAddress! + y * side * 4, standing.baseAddress! + y * side * 4, side * 4) != 0 {
                    for x in 0..<side where posed.loadUnaligned(fromByteOffset: (y * side + x) * 4, as: UInt32.self)
                        != standing.loadUnaligned(fromByteOffset: (y * side + x) * 4, as: UInt32.self) {
                        (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
                        let distance = max(abs(x - side / 2), abs(y - side / 2))
                        if distance > farthest.distance { farthest = (distance, x, y) }
                    }
                }
            }
        }
        guard x1 >= 0 else { return nil }
        #expect(x0 > 0 && y0 > 0 && x1 < side - 1 && y1 < side - 1, "the canvas holds the whole drawing")
        let box = ScreenRect(x: (Double(x0) - tx) / scale, y: (Double(y0) - ty) / scale, width: Double(x1 + 1 - x0) / scale,
                             height: Double(y1 + 1 - y0) / scale)
        return Drawn(box: box, farthest: ScreenPoint(x: (Double(farthest.x) + 0.5 - tx) / scale, y: (Double(farthest.y) + 0.5 - ty) / scale))
    }

    /// The drawn pose boxes of a layout's pins and groups, and every label box placed.
    static func boxes(_ layout: PinLayoutResult, friends: [Friend], engine: MapEngine) throws -> (poses: [(id: String, box: ScreenRect)], labels: [ScreenRect]) {
        let byID = Dictionary(uniqueKeysWithValues: friends.map { ($0.id, $0) })
        var poses: [(id: String, box: ScreenRect)] = []
        for pin in layout.pins where pin.visible && pin.groupId == nil {
            guard let avatar = pin.avatarRect, let friend = byID[pin.id], let drawn = try drawn([friend], avatar: avatar, scale: layout.viewport.scale, engine: engine)
            else { continue }
            poses.append((pin.id, drawn.box))
        }
        for group in layout.groups where group.visible {
            guard let avatar = group.avatarRect,
                  let drawn = try drawn(group.members.compactMap { byID[$0] }, avatar: avatar, scale: layout.viewport.scale, engine: engine) else { continue }
            poses.append((group.id, drawn.box))
        }
        let labels = layout.pins.filter { $0.visible && $0.groupId == nil }.compactMap(\.labelRect) + layout.groups.compactMap(\.labelRect)
        return (poses, labels)
    }

    /// The scene's friends plus `extra` near them (a crowd: labels compete), each with a random pose, most of them posed.
    static func posedFriends(_ scene: Scene, extra: Int, random: inout SplitMix64) throws -> [Friend] {
        var friends = scene.friends
        for index in 0..<extra {
            let model = scene.friends[index % scene.friends.count]
            friends.append(Friend(id: "crowd\(index)", name: "Crowd \(index)", place: model.place,
                                  coordinate: try Coordinate(lat: Double.random(in: 40.706...40.726, using: &random),
                                                             lon: Double.random(in: -73.972 ... -73.946, using: &random)),
                                  lastSeen: model.lastSeen, snapstreak: 0, bestFriend: false, color: model.color, avatar: nil))
        }
        let poses: [Pose] = [.flying, .driving, .birthday, .asleep, .birthday, .driving, .asleep, .standing]
        return friends.map { var friend = $0; friend.pose = poses[Int.random(in: 0..<poses.count, using: &random)]; return friend }
    }

    @Test func noLabelCoversWhatAPoseDrawsInRandomViewports() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        var random = SplitMix64(seed: 2929)
        var (checked, posesSeen, coveredWithoutFootprints) = (0, 0, 0)
        for _ in 0..<10 {
            let friends = try Self.posedFriends(scene, extra: Int.random(in: 0...10, using: &random), random: &random)
            let viewport = try Viewport(center: Coordinate(lat: Double.random(in: 40.712...40.720, using: &random),
                                                           lon: Double.random(in: -73.964 ... -73.954, using: &random)),
                                        zoom: Double.random(in: 14...17, using: &random), size: scene.viewport.size,
                                        scale: [1.0, 2, 3][Int.random(in: 0...2, using: &random)], insets: scene.viewport.insets)
            let selected = Bool.random(using: &random) ? friends.randomElement(using: &random)?.id : nil
            let layout = try engine.layout(viewport, friends: friends, selected: selected, now: scene.capturedAt)
            let (poses, labels) = try Self.boxes(layout, friends: friends, engine: engine)
            for label in labels {
                for pose in poses {
                    #expect(!label.overlaps(pose.box), "a label at \(label) covers \(pose.id)'s pose drawn at \(pose.box), zoom \(viewport.zoom)")
                    checked += 1
                }
            }
            posesSeen += poses.count
            // The same friends laid out as if pins were their avatars alone: labels do cover poses, so the check can fail.
            let plain = PinLayoutEngine(style: engine.pinLook.layout, measurer: FontMeasurer(font: engine.labelFont, scale: viewport.scale))
                .layout(subjects: engine.subjects(friends), viewport: viewport, selected: selected, now: scene.capturedAt)
            let unaware = try Self.boxes(plain, friends: friends, engine: engine)
            coveredWithoutFootprints += unaware.labels.filter { label in unaware.poses.contains { label.overlaps($0.box) } }.count
        }
        #expect(posesSeen >= 40 && checked >= 400, "\(posesSeen) poses drawn, \(checked) label and pose pairs checked")
        #expect(coveredWithoutFootprints > 0, "without the poses' footprints some label covers a pose")
    }

    /// A tap on the far end of each pose's drawing (the car's bumper, the window's corner, a balloon, the second "z")
    /// hits the pin; the same point on the friend standing does not.
    @Test(arguments: [Pose.driving, .flying, .birthday, .asleep])
    func aTapOnAPoseHitsItsPin(pose: Pose) throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        var theo = try #require(scene.friend(id: "theo"))
        theo.pose = pose
        let viewport = try Viewport(center: theo.coordinate, zoom: 16, size: ScreenSize(width: 300, height: 300), scale: 2)
        let layout = try engine.layout(viewport, friends: [theo], now: scene.capturedAt)
        let avatar = try #require(layout.pin("theo")?.avatarRect)
        let far = try #require(try Self.drawn([theo], avatar: avatar, scale: 2, engine: engine)).farthest
        #expect(max(abs(far.x - avatar.center.x), abs(far.y - avatar.center.y)) > engine.pinLook.layout.minimumTouchTarget / 2,
                "the point lies outside the avatar's own touch target")
        let hit = engine.hit(far, in: layout)
        #expect(hit.kind == .pin && hit.id == "theo", "\(hit)")
        theo.pose = .standing
        let standing = try engine.layout(viewport, friends: [theo], now: scene.capturedAt)
        #expect(engine.hit(far, in: standing).kind != .pin)
    }
}
