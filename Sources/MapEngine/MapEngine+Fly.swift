import Foundation
import GeoCore
import MapScene
import PinDrawing
import PinLayout
import Raster

/// The fly-to as an animation: the van Wijk–Nuij path to a selected friend, each frame a full render at its
/// camera, ending on the selected frame with its card sliding up.
extension MapEngine {
    public static let flyFrameRates = [30, 60]
    /// The card's slide: a critically damped spring that settles within this many seconds.
    public static let cardSlideSeconds = 0.3
    /// The largest fly-to frame, in pixels (an iPad-sized screen at @2x); every frame is a full render.
    public static let flyMaxPixels = 6_000_000
    /// The most pixels of all a fly-to's frames together (its APNG is about a quarter of a byte a pixel): the scene's
    /// fly-to on a phone at 30 frames a second is 36 frames of 3 Mpx.
    public static let flyMaxTotalPixels = 300_000_000

    /// About the most memory a fly-to of frames of `pixels` takes: a frame drawn on every core, and its APNG.
    public static func flyRenderBytes(pixels: Int) -> Int {
        ProcessInfo.processInfo.activeProcessorCount * renderBytes(pixels: pixels) + flyMaxTotalPixels / 2
    }

    /// Checks a fly-to's parameters and size (each frame, and all together) before anything is drawn.
    public func checkFly(_ viewport: Viewport, friends: [Friend], selected: String, now: Date, viewer: Coordinate? = nil,
                         framesPerSecond: Int = 30) throws {
        _ = try flyPath(viewport, friends: friends, selected: selected, now: now, viewer: viewer, framesPerSecond: framesPerSecond)
    }

    /// The fly-to's framed viewport, layout, path frames and card slides, checked against the size limits.
    private func flyPath(_ viewport: Viewport, friends: [Friend], selected: String, now: Date, viewer: Coordinate?,
                         framesPerSecond: Int) throws -> (framed: Viewport, layout: PinLayoutResult, path: [FlyFrame], slides: Int) {
        guard Self.flyFrameRates.contains(framesPerSecond) else {
            throw BadField(field: "fps", message: "must be 30 or 60, got \(framesPerSecond)")
        }
        let (framed, layout, answer) = try selectionLayout(viewport, friends: friends, selected: selected, now: now, viewer: viewer)
        guard framed.pixelWidth * framed.pixelHeight <= Self.flyMaxPixels else {
            throw BadField(field: "size", message: "a fly-to frame of \(framed.pixelWidth)×\(framed.pixelHeight) px is too large: allowed at most \(Self.flyMaxPixels) pixels")
        }
        let step = Int(FlyToPath.framesPerSecond) / framesPerSecond
        let path = stride(from: 0, to: answer.path.count - 1, by: step).map { answer.path[$0] }
        let slides = max(1, Int((Self.cardSlideSeconds * Double(framesPerSecond)).rounded()))
        let total = (path.count + (layout.card == nil ? 0 : slides)) * framed.pixelWidth * framed.pixelHeight
        guard total <= Self.flyMaxTotalPixels else {
            throw BadField(field: "size", message: "this fly-to is \(path.count) frames of \(framed.pixelWidth)×\(framed.pixelHeight) px, "
                               + "\(total / 1_000_000) Mpx in all: allowed at most \(Self.flyMaxTotalPixels / 1_000_000) Mpx (ask a smaller size or scale, or fps=30)")
        }
        return (framed, layout, path, slides)
    }

    /// The fly-to's frames; it throws `RenderStopped` as soon as `stopWhen` says so (checked before each frame).
    public func flyAnimation(_ viewport: Viewport, friends: [Friend], selected: String, now: Date, viewer: Coordinate? = nil,
                             framesPerSecond: Int = 30, stopWhen: @escaping @Sendable () -> Bool = { false }) throws -> [APNG.Frame] {
        let (framed, layout, path, slides) = try flyPath(viewport, friends: friends, selected: selected, now: now, viewer: viewer,
                                                         framesPerSecond: framesPerSecond)
        let delay = 1000 / framesPerSecond
        var frames = try APNG.frames(path.count) { index in
            guard !stopWhen() else { throw RenderStopped() }
            let frame = path[index]
            return try APNG.Frame(canvas: self.renderFrame(framed.with(Camera(center: frame.center, zoom: frame.zoom)), layers: [.base, .heat, .pins],
                                                    friends: friends, selected: selected, now: now).canvas, delayMilliseconds: delay)
        }
        guard let card = cardInk(layout, selected: selected, friends: friends) else { return frames }
        // The card covers only the bottom: each slide frame recompresses only the bands it changes.
        let (frame, plan) = try composeFrame(framed, layers: [.base, .heat, .pins], layout: layout, friends: friends, card: nil, now: now, sharing: nil)
        let settled = SharedLayer(canvas: frame.canvas)
        frames += try APNG.frames(slides) { slide in
            guard !stopWhen() else { throw RenderStopped() }
            let index = slide + 1
            let t = Double(index) / Double(slides)
            let omega = 22.0
            let progress = index == slides ? 1 : 1 - (1 + omega * t * Self.cardSlideSeconds) * exp(-omega * t * Self.cardSlideSeconds)
            let canvas = try settled.canvas.copy()
            // Whole pixels, so that every slide frame reuses the card's blurred shadow mask.
            let offset = (card.card.rect.height * (1 - progress) * framed.scale).rounded() / framed.scale
            var sliding = plan
            sliding.card = CardInk(card: card.card.moved(down: offset), color: card.color, face: card.face)
            try self.draw(sliding, .card ... .card, into: canvas)
            return APNG.Frame(png: try settled.png(of: canvas), width: canvas.width, height: canvas.height,
                              delayMilliseconds: index == slides ? 1000 : delay)
        }
        return frames
    }
}

/// A render given up part way because whoever asked for it has gone.
public struct RenderStopped: Error, Sendable {
    public init() {}
}
