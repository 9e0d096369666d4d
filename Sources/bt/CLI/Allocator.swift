#if canImport(Glibc)
@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

/// Allocator settings for commands that run many large simulations in one process.
enum Allocator {
    /// Asks glibc's malloc to serve large blocks from its heap and keep freed memory instead of
    /// returning it to the kernel (`M_MMAP_THRESHOLD`, `M_TRIM_THRESHOLD` = 1 GiB), so repeated
    /// runs reuse already-mapped pages rather than page-faulting fresh ones. No-op elsewhere.
    static func keepFreedMemory() {
        #if canImport(Glibc)
        let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3  // glibc <malloc.h>
        _ = mallopt(trimThreshold, 1 << 30)
        _ = mallopt(mmapThreshold, 1 << 30)
        #endif
    }
}
