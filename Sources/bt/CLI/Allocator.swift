#if canImport(Glibc)
import Glibc

@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

/// Allocator settings of the bt process (not of the library: a host program keeps its own).
enum Allocator {
    /// Asks glibc's malloc to serve large blocks from its heap and keep freed memory instead of
    /// returning it to the kernel (`M_MMAP_THRESHOLD`, `M_TRIM_THRESHOLD` = 1 GiB), so repeated
    /// runs reuse already-mapped pages rather than page-faulting fresh ones. Called first thing
    /// for every command: a sweep's or a screen's thousands of runs each allocate and free their
    /// bar arrays, and with glibc's defaults the pages went back to the kernel and faulted in
    /// again every time (a third of `bt bench sweep`'s time: page faults and the TLB shootdowns
    /// of unmapping). The process keeps its peak instead of shrinking after it; the peak itself
    /// is unchanged. A `GLIBC_TUNABLES` that sets malloc's thresholds is left to rule. No-op
    /// without glibc.
    static func keepFreedMemory() {
        #if canImport(Glibc)
        if let tunables = getenv("GLIBC_TUNABLES").map({ String(cString: $0) }), tunables.contains("glibc.malloc.") { return }
        let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3  // glibc <malloc.h>
        _ = mallopt(trimThreshold, 1 << 30)
        _ = mallopt(mmapThreshold, 1 << 30)
        #endif
    }
}
