import Foundation
import Raster

/// Frame canvases kept for the next viewer: a frame drawn over a shared layer starts from a kept canvas made a
/// copy of the layer again (only what the last frame drew over the same layer is copied back), instead of a fresh
/// copy whose every page is faulted in and zeroed by the system before the copy fills it.
final class FramePool: @unchecked Sendable {
    /// Canvases kept (about as many as frames drawn at once); the least recently kept goes first.
    static let capacity = 4
    private let lock = NSLock()
    private var kept: [Canvas] = []

    /// A canvas holding `layer`'s pixels: a kept one that was last a copy of it, or one of its size, or a new copy.
    func copy(of layer: Canvas) throws -> Canvas {
        lock.lock()
        let index = kept.lastIndex { $0.isCopy(of: layer) } ?? kept.lastIndex { $0.width == layer.width && $0.height == layer.height }
        let reused = index.map { kept.remove(at: $0) }
        lock.unlock()
        guard let reused else { return try layer.copy() }
        try reused.reset(to: layer)
        return reused
    }

    /// Keeps a canvas nothing else holds any more (its frame encoded).
    func recycle(_ canvas: Canvas) {
        lock.lock()
        defer { lock.unlock() }
        if kept.count >= Self.capacity { kept.removeFirst() }
        kept.append(canvas)
    }
}
