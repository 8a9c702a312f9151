import CMalloc

/// glibc's allocator set for a frame server. By default a block over 128 KB (a frame's 24 MB canvas copy, its bands'
/// buffers) is mapped fresh and unmapped when freed, so every frame pays a page fault and a zeroed page per 4 KB
/// it touches; kept in the heap instead, the pages are reused from one frame to the next.
public enum HeapTuning {
    /// Blocks smaller than this come from the heap: the largest frame's canvas copy fits.
    static let mapThreshold: Int32 = 96 << 20
    /// Free memory at the heap's top is returned to the system only above this much.
    static let trimThreshold: Int32 = 512 << 20

    /// Sets the thresholds for this process.
    public static func forServing() {
        _ = mallopt(M_MMAP_THRESHOLD, mapThreshold)
        _ = mallopt(M_TRIM_THRESHOLD, trimThreshold)
    }
}
