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
    /// band, at most `streamedBandsInFlight` at a time above `streamAbove` pixels; a banded frame stops (throwing
    /// `RenderStopped`) before its next band once `stopWhen` says so. `places` are the viewer's own Footsteps, tinted
    /// with the footsteps layer (whose frames share nothing).
    public func encodeFrame(_ viewport: Viewport, layers: Set<MapLayer>, friends: [Friend], selected: String? = nil, atSelection: Bool = false,
                            now: Date, viewer: Coordinate? = nil, places: [MercatorPoint] = [], sharing: SharedLayers? = nil,
                            streamAbove: Int = MapEngine.streamedFramePixels,
                            stopWhen: @escaping @Sendable () -> Bool = { false }) throws -> EncodedFrame {
        // The selection camera keeps the frame's size, so the size decides the path before any layout is made.
        let (width, height) = (viewport.pixelWidth, viewport.pixelHeight)
        // A layer too large to be kept is not shared: drawn in bands, the frame never holds a whole canvas.
        let sharing = sharing.flatMap { $0.keeps(cost: width * height * SharedLayer.bytesPerPixel) && !layers.contains(.footsteps) ? $0 : nil }
        if sharing == nil, width * height >= PNGCodec.minimumBandedPixels,
           let frame = try encodeInBands(viewport, layers: layers, friends: friends, selected: selected, atSelection: atSelection, now: now,
                                         viewer: viewer, places: places, inFlight: width * height > streamAbove ? Self.streamedBandsInFlight : .max,
                                         stopWhen: stopWhen) {
            return frame
        }
        let frame = if atSelection, let selected {
            try renderSelectedFrame(viewport, layers: layers, friends: friends, selected: selected, now: now, viewer: viewer, places: places, sharing: sharing)
        } else {
            try renderFrame(viewport, layers: layers, friends: friends, selected: selected, now: now, places: places, sharing: sharing)
        }
        let png = try frame.png()
        if frame.shared != nil { framePool.recycle(frame.canvas) }
        return EncodedFrame(png: png, width: width, height: height, layout: frame.layout)
    }

    /// The frame encoded band by band, `inFlight` bands at most at a time; nil when it needs the whole-canvas
    /// encoding (an RGBA frame that turned out opaque, as `PNGCodec.encode` decides its channels).
    private func encodeInBands(_ viewport: Viewport, layers: Set<MapLayer>, friends: [Friend], selected: String?, atSelection: Bool,
                               now: Date, viewer: Coordinate?, places: [MercatorPoint], inFlight: Int, stopWhen: @escaping @Sendable () -> Bool) throws -> EncodedFrame? {
        var framed = viewport
        var layout: PinLayoutResult?
        if atSelection {
            guard let selected else { throw BadField(field: "selected", message: "is required at the selection camera") }
            (framed, layout, _) = try selectionLayout(viewport, friends: friends, selected: selected, now: now, viewer: viewer)
        }
        try checkFrame(framed)
        let drawn = atSelection ? layers.union([.pins]) : layers
        if drawn.contains(.pins), layout == nil { layout = try self.layout(framed, friends: friends, selected: selected, now: now) }
        let plan = plan(framed, layers: drawn, layout: layout, friends: friends, card: cardInk(layout, selected: selected, friends: friends), now: now,
                        places: places)
        guard let png = try streamFrame(plan, inFlight: inFlight, stopWhen: stopWhen) else { return nil }
        return EncodedFrame(png: png, width: viewport.pixelWidth, height: viewport.pixelHeight, layout: layout)
    }

    /// Draws the plan's bands through the card (at most `inFlight` at a time, taken top to bottom) and hands each to
    /// the encoder; nil when the frame needs the whole-canvas encoding (see `PNGStreamEncoder.finish`). Throws
    /// `RenderStopped` before a band once `stopWhen` says so.
    private func streamFrame(_ plan: FramePlan, inFlight: Int, stopWhen: @escaping @Sendable () -> Bool) throws -> [UInt8]? {
        let (bands, tops) = Self.bands(of: plan.view)
        let encoder = try PNGStreamEncoder(width: plan.view.width, height: plan.view.height, opaque: plan.layers.contains(.base))
        try encoder.append(bands: bands.count, inFlight: inFlight) { index in
            guard !stopWhen() else { throw RenderStopped() }
            return try self.drawBand(plan, bands[index], top: tops[index], through: .card)
        }
        return try encoder.finish()
    }
}
