import Foundation
import Raster

/// Frame canvases kept for the next viewer: a frame drawn over a shared layer starts from a kept canvas made a
/// copy of the layer again (only what the last frame drew over the same layer is copied back), instead of a fresh
/// copy whose every page is faulted in and zeroed by the system before the copy fills it.
final class FramePool: @unchecked Sendable {
    /// Canvases kept (about as many as frames drawn at once); the least recently kept goes first.
    static let capacity = 4
    /// Bytes of canvases kept at most (four phone frames' 24 MB fit; a larger canvas is not kept).
    static let budget = 128 << 20
    private let lock = NSLock()
    private var kept: [Canvas] = []
    private var keptBytes = 0

    /// A canvas holding `layer`'s pixels: a kept one that was last a copy of it, or one of its size, or a new copy.
    func copy(of layer: Canvas) throws -> Canvas {
        lock.lock()
        let index = kept.lastIndex { $0.isCopy(of: layer) } ?? kept.lastIndex { $0.width == layer.width && $0.height == layer.height }
        let reused = index.map { kept.remove(at: $0) }
        keptBytes -= reused?.byteCount ?? 0
        lock.unlock()
        guard let reused else { return try layer.copy() }
        try reused.reset(to: layer)
        return reused
    }

    /// Keeps a canvas nothing else holds any more (its frame encoded), within `capacity` and `budget`.
    func recycle(_ canvas: Canvas) {
        canvas.releaseScratch()
        guard canvas.byteCount <= Self.budget / 2 else { return }
        lock.lock()
        defer { lock.unlock() }
        kept.append(canvas)
        keptBytes += canvas.byteCount
        while kept.count > Self.capacity || keptBytes > Self.budget { keptBytes -= kept.removeFirst().byteCount }
    }

    /// The bytes of the canvases kept now.
    var bytes: Int { lock.withLock { keptBytes } }
}
