import CMalloc

/// glibc's allocator set for rendering. By default a block over 128 KB (a frame's 24 MB canvas, its bands'
/// buffers) is mapped fresh and unmapped when freed, so every frame pays a page fault and a zeroed page per 4 KB
/// it touches; kept in the heap instead, the pages are reused from one frame to the next.
public enum HeapTuning {
    /// Blocks smaller than this come from the heap: the phone frame's 24 MB canvas fits; the bands of the largest
    /// frames (41 MB and more) are still mapped and given back, so its peak memory stays bounded.
    static let mapThreshold: Int32 = 32 << 20
    /// Free memory at the heap's top is returned to the system only above this much.
    static let trimThreshold: Int32 = 128 << 20

    /// Sets the thresholds for this process (`snapmap` and `snapmap-bench` do, before anything else).
    public static func keepFrameBlocks() {
        _ = mallopt(M_MMAP_THRESHOLD, mapThreshold)
        _ = mallopt(M_TRIM_THRESHOLD, trimThreshold)
    }

    /// Gives the heap's free memory back to the system, so that resident memory counts what is held (benchmarks).
    public static func returnFreeMemory() {
        _ = malloc_trim(0)
    }
}
