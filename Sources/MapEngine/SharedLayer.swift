import BaseMap
import Foundation
import PinLayout
import Raster

/// The layers every viewer of a viewport shares, and (made on first use) their PNG bands, so that a viewer's
/// frame recompresses only the bands its pins touch.
public final class SharedLayer: @unchecked Sendable {
    /// Variants with the place names drawn kept per layer besides the one with no name moved: viewers whose pins
    /// leave the names in the same places share one.
    static let maxNamedVariants = 3
    /// Viewers who must have seen a placement (other than the one with no name moved) before it earns a variant:
    /// a variant's first frame encodes every band, so a placement made for few viewers would cost more than it saves.
    static let sightingsForVariant = 4
    /// Placements counted per layer (the count starts again when full).
    static let maxSightings = 64
    /// What a layer may come to hold: its canvas and named variants, each 8 bytes a pixel and about one for PNG bands.
    static let bytesPerPixel = 9 * (2 + maxNamedVariants)

    public let canvas: Canvas
    /// The place names of the layer's view, drawn per viewer clear of their pins, and where they show with no pins.
    let names: [PlaceName]
    let unobstructed: [Rect]
    private let lock = NSLock()
    private var encoded: PNGBands?
    /// This layer with the names where no pin moves them (most viewers), made on first use and kept.
    private var named: SharedLayer?
    /// This layer with the names where some pins move them, by where they show (least recently used first).
    private var variants: [(shown: [Rect], layer: SharedLayer)] = []
    private var sightings: [[Rect]: Int] = [:]

    init(canvas: Canvas, names: [PlaceName] = [], unobstructed: [Rect] = []) {
        self.canvas = canvas
        self.names = names
        self.unobstructed = unobstructed
    }

    /// The layer with its place names drawn by `draw` on a copy where `shown` says they go (the boxes of the names
    /// shown, in placement order), so that viewers whose pins leave the names in the same places share it and
    /// recompress only their pins' bands; nil while a placement has not earned a variant (the caller then draws the
    /// names on its own copy).
    func withNames(shown: [Rect], _ draw: (Canvas) -> Void) throws -> SharedLayer? {
        lock.lock()
        defer { lock.unlock() }
        if shown == unobstructed {
            if let named { return named }
            named = try drawn(draw)
            return named
        }
        if let index = variants.firstIndex(where: { $0.shown == shown }) {
            let variant = variants.remove(at: index)
            variants.append(variant)
            return variant.layer
        }
        if sightings.count >= Self.maxSightings { sightings.removeAll() }
        let seen = sightings[shown, default: 0] + 1
        guard seen >= Self.sightingsForVariant else {
            sightings[shown] = seen
            return nil
        }
        sightings[shown] = nil
        let made = try drawn(draw)
        if variants.count >= Self.maxNamedVariants { variants.removeFirst() }
        variants.append((shown, made))
        return made
    }

    private func drawn(_ draw: (Canvas) -> Void) throws -> SharedLayer {
        let copy = try canvas.copy()
        draw(copy)
        return SharedLayer(canvas: copy, names: names, unobstructed: unobstructed)
    }

    /// The PNG of `frame`, which is this layer with pins drawn over a copy: the same bytes as `PNGCodec.encode`.
    public func png(of frame: Canvas) throws -> [UInt8] {
        lock.lock()
        let bands: PNGBands
        do {
            defer { lock.unlock() }
            if let encoded { bands = encoded } else {
                bands = try PNGBands(canvas)
                encoded = bands
            }
        }
        return try bands.png(of: frame, over: canvas)
    }
}

/// A rendered frame, the layout its pins were drawn from (when it has pins), and the shared layer it was
/// drawn over (when it came through the shared-layer cache).
public struct RenderedFrame {
    public let canvas: Canvas
    public let layout: PinLayoutResult?
    public var shared: SharedLayer?

    /// The frame as PNG, through the shared layer's bands when there is one (the same bytes either way).
    public func png() throws -> [UInt8] {
        if let shared { return try shared.png(of: canvas) }
        return try PNGCodec.encode(canvas)
    }
}
