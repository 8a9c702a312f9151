import Foundation
import GeoCore
import PinLayout
import Raster

/// The fly-to as an animation: the van Wijk–Nuij path to a selected friend, each frame a full render at its
/// camera, ending on the selected frame with its card sliding up.
extension MapEngine {
    public static let flyFrameRates = [30, 60]
    /// The card's slide: a critically damped spring that settles within this many seconds.
    public static let cardSlideSeconds = 0.3

    public func flyAnimation(_ viewport: Viewport, friends: [Friend], selected: String, now: Date, viewer: Coordinate? = nil,
                             framesPerSecond: Int = 30) throws -> [APNG.Frame] {
        guard Self.flyFrameRates.contains(framesPerSecond) else {
            throw BadParameter(name: "fps", message: "must be 30 or 60, got \(framesPerSecond)")
        }
        let (framed, layout, answer) = try selectionLayout(viewport, friends: friends, selected: selected, now: now, viewer: viewer)
        let step = Int(FlyToPath.framesPerSecond) / framesPerSecond
        let delay = 1000 / framesPerSecond
        let path = stride(from: 0, to: answer.path.count - 1, by: step).map { answer.path[$0] }
        var frames = try ConcurrentMap.map(path) { frame in
            try self.renderFrame(framed.with(Camera(center: frame.center, zoom: frame.zoom)), layers: [.base, .heat, .pins], friends: friends,
                                 selected: selected, now: now).canvas
        }.map { APNG.Frame(canvas: try $0.get(), delayMilliseconds: delay) }
        guard let card = layout.card else { return frames }
        let color = (try? Color(hex: friends.first { $0.id == selected }?.color ?? "#8A8D91")) ?? .black
        let settled = try renderFrame(framed, layers: [.base, .heat, .pins], friends: friends, selected: selected, now: now).canvas
        let slides = max(1, Int((Self.cardSlideSeconds * Double(framesPerSecond)).rounded()))
        for index in 1...slides {
            let t = Double(index) / Double(slides)
            let omega = 22.0
            let progress = index == slides ? 1 : 1 - (1 + omega * t * Self.cardSlideSeconds) * exp(-omega * t * Self.cardSlideSeconds)
            let canvas = try settled.copy()
            cardLook.draw(card.moved(down: card.rect.height * (1 - progress)), color: color, font: labelFont, masks: shadowMasks,
                          scale: framed.scale, into: canvas)
            frames.append(APNG.Frame(canvas: canvas, delayMilliseconds: index == slides ? 1000 : delay))
        }
        return frames
    }
}
