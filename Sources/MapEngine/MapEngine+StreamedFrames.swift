import Foundation
import GeoCore
import MapScene
import PinDrawing
import PinLayout
import Raster

/// A frame as PNG, with the layout its pins were drawn from (when it has pins).
public struct EncodedFrame {
    public let png: [UInt8]
    public let width: Int
    public let height: Int
    public let layout: PinLayoutResult?
}

/// Frames as PNG band by band: a band is rendered, its pins and card drawn over it in frame coordinates, and
/// it is handed to the encoder, which compresses it at once; bands are drawn on every core, no canvas of the
/// whole frame is made, and a large frame holds only a few bands at a time. The bytes are those of the
/// whole-canvas path (a band gets exactly its rows of the whole frame).
extension MapEngine {
    /// Frames of more pixels than this hold at most `streamedBandsInFlight` bands at a time (the whole 16-bit
    /// canvas of one would be 64 MiB and more).
    public static let streamedFramePixels = 8 * 1024 * 1024
    /// Bands drawn at once in a frame above `streamedFramePixels`: memory is bounded by this many bands, whatever
    /// the core count.
    public static let streamedBandsInFlight = 2

    /// About the most memory drawing and encoding one frame of `pixels` takes beside the caches: a whole canvas
    /// and its PNG up to `streamedFramePixels`; above, a few bands and the PNG.
    public static func renderBytes(pixels: Int) -> Int { pixels <= streamedFramePixels ? 16 * pixels : 4 * pixels }

    /// The PNG of a frame (at the selection camera of `selected`, with its card, when `atSelection`). Frames
    /// over shared layers, and frames too small to encode in bands, are drawn on one canvas; the others band by
    /// band, at most `streamedBandsInFlight` at a time above `streamAbove` pixels.
    public func encodeFrame(_ viewport: Viewport, layers: Set<MapLayer>, friends: [Friend], selected: String? = nil, atSelection: Bool = false,
                            now: Date, viewer: Coordinate? = nil, sharing: SharedLayers? = nil,
                            streamAbove: Int = MapEngine.streamedFramePixels) throws -> EncodedFrame {
        // The selection camera keeps the frame's size, so the size decides the path before any layout is made.
        let (width, height) = (viewport.pixelWidth, viewport.pixelHeight)
        // A layer too large to be kept is not shared: drawn in bands, the frame never holds a whole canvas.
        let sharing = sharing.flatMap { $0.keeps(cost: width * height * SharedLayer.bytesPerPixel) ? $0 : nil }
        if sharing == nil, width * height >= PNGCodec.minimumBandedPixels,
           let frame = try encodeInBands(viewport, layers: layers, friends: friends, selected: selected, atSelection: atSelection, now: now,
                                         viewer: viewer, inFlight: width * height > streamAbove ? Self.streamedBandsInFlight : .max) {
            return frame
        }
        let frame = if atSelection, let selected {
            try renderSelectedFrame(viewport, layers: layers, friends: friends, selected: selected, now: now, viewer: viewer, sharing: sharing)
        } else {
            try renderFrame(viewport, layers: layers, friends: friends, selected: selected, now: now, sharing: sharing)
        }
        let png = try frame.png()
        if frame.shared != nil { framePool.recycle(frame.canvas) }
        return EncodedFrame(png: png, width: width, height: height, layout: frame.layout)
    }

    /// The frame encoded band by band, `inFlight` bands at most at a time; nil when it needs the whole-canvas
    /// encoding (an RGBA frame that turned out opaque, as `PNGCodec.encode` decides its channels).
    private func encodeInBands(_ viewport: Viewport, layers: Set<MapLayer>, friends: [Friend], selected: String?, atSelection: Bool,
                               now: Date, viewer: Coordinate?, inFlight: Int) throws -> EncodedFrame? {
        var framed = viewport
        var layout: PinLayoutResult?
        if atSelection {
            guard let selected else { throw BadParameter(name: "selected", message: "is required at the selection camera") }
            (framed, layout, _) = try selectionLayout(viewport, friends: friends, selected: selected, now: now, viewer: viewer)
        }
        try checkFrame(framed)
        let drawn = atSelection ? layers.union([.pins]) : layers
        if drawn.contains(.pins), layout == nil { layout = try self.layout(framed, friends: friends, selected: selected, now: now) }
        let overlay = layout.map { Overlay(layout: $0, friends: friends, cardColor: cardColor(of: selected, among: friends),
                                           cardFace: cardFace(of: selected, among: friends)) }
        guard let png = try streamFrame(framed, layers: drawn.subtracting([.pins]), overlay: overlay, now: now, inFlight: inFlight) else { return nil }
        return EncodedFrame(png: png, width: viewport.pixelWidth, height: viewport.pixelHeight, layout: layout)
    }

    /// What is drawn over the base and glow of each band: the pins of a layout and, when it has one, its card.
    private struct Overlay {
        let layout: PinLayoutResult
        let friends: [Friend]
        let cardColor: Color
        let cardFace: AvatarLook?
    }

    /// The card's avatar colour: the selected friend's, grey when unknown (as `renderSelectedFrame` draws it).
    func cardColor(of selected: String?, among friends: [Friend]) -> Color {
        (try? Color(hex: friends.first { $0.id == selected }?.color ?? "#8A8D91")) ?? .black
    }

    /// The card's cartoon: the selected friend's look, unless the style draws initials.
    func cardFace(of selected: String?, among friends: [Friend]) -> AvatarLook? {
        guard pinLook.avatar != .initials, let friend = friends.first(where: { $0.id == selected }) else { return nil }
        return scene.look(of: friend.id, color: friend.color)
    }

    /// Renders the frame's bands (at most `inFlight` at a time, taken top to bottom), draws the overlay over each
    /// and hands it to the encoder; nil when the frame needs the whole-canvas encoding (see `PNGStreamEncoder.finish`).
    private func streamFrame(_ viewport: Viewport, layers: Set<MapLayer>, overlay: Overlay?, now: Date, inFlight: Int) throws -> [UInt8]? {
        let view = MapView(viewport: viewport)
        let (bands, tops) = Self.bands(of: view)
        let encoder = try PNGStreamEncoder(width: view.width, height: view.height, opaque: layers.contains(.base))
        let names = layers.contains(.base) ? baseMap.placeNames(for: view) : []
        let boxes = pinBoxes(overlay?.layout)
        try ConcurrentMap.forEach(bands.count, workers: inFlight) { index in
            let canvas = try self.renderBase(bands[index], of: view, layers: layers, now: now)
            canvas.originY = tops[index]
            if !names.isEmpty { self.baseMap.drawPlaceNames(names, of: view, avoiding: boxes, into: canvas) }
            // The order of the whole-canvas path: pins, the credit, then the card over them.
            if let overlay { self.drawPins(overlay.layout, friends: overlay.friends, into: canvas) }
            if layers.contains(.base) { self.drawCredit(viewport, into: canvas) }
            if let overlay, let card = overlay.layout.card {
                self.cardLook.draw(card, color: overlay.cardColor, look: overlay.cardFace, font: self.labelFont, masks: self.shadowMasks,
                                   scale: viewport.scale, into: canvas)
            }
            try encoder.append(canvas)
        }
        return try encoder.finish()
    }
}
