import BaseMap
import Foundation
import PinLayout
import Raster

/// The layers every viewer of a viewport shares, and (made on first use) their PNG bands, so that a viewer's
/// frame recompresses only what its pins (and the place names they move) change.
public final class SharedLayer: @unchecked Sendable {
    /// What a layer may come to hold, a pixel: its canvas and the one with names (8 bytes each), and their PNG bands
    /// (compressed, filtered and parsed; `SharedLayerCostTests` measures them against this).
    public static let bytesPerPixel = 2 * (8 + 5)

    public let canvas: Canvas
    /// The place names of the layer's view, and where they show when no pin is in the way.
    let names: [PlaceName]
    let unobstructed: [NamePlacement]
    private let lock = NSLock()
    private var encoded: PNGBands?
    /// This layer with the names where no pin moves them, made on first use, and the pixels each name paints.
    private var named: (layer: SharedLayer, inks: [NamePlacement: Rect])?

    init(canvas: Canvas, names: [PlaceName] = [], unobstructed: [NamePlacement] = []) {
        canvas.releaseScratch()
        self.canvas = canvas
        self.names = names
        self.unobstructed = unobstructed
    }

    /// The layer with its names drawn by `draw` where no pin moves them, and the whole pixels `ink` gives for each
    /// (made once, on a copy).
    func withNames(_ draw: (Canvas) -> Void, ink: (NamePlacement) -> Rect?) throws -> (layer: SharedLayer, inks: [NamePlacement: Rect]) {
        lock.lock()
        defer { lock.unlock() }
        if let named { return named }
        let copy = try canvas.copy()
        draw(copy)
        let made = (SharedLayer(canvas: copy), Dictionary(uniqueKeysWithValues: unobstructed.compactMap { placement in ink(placement).map { (placement, $0) } }))
        named = made
        return made
    }

    /// The bytes held now: the canvas, its PNG bands and the layer with names, as far as they have been made.
    public var byteCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return canvas.byteCount + (encoded?.byteCount ?? 0) + (named?.layer.byteCount ?? 0)
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
