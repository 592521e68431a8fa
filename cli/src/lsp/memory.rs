//! Giving back what a large check used, once the server has nothing to do.
//!
//! A check of a large document makes the document's JSON view for its rules and drops it
//! after (the view is not kept: docs/perf.md, "Language server memory"); glibc's allocator
//! keeps the freed pages for later, so the resident set would stay at the check's peak. When
//! the server is idle after work, the free pages are returned (`malloc_trim`); what is live is
//! untouched. Other platforms' allocators return pages by themselves or are left as they are.

/// Returns the allocator's free pages to the system (glibc on Linux; elsewhere nothing).
pub fn release_free_pages() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: `malloc_trim` only hands free pages of glibc's heaps back to the system; it
        // takes no pointer and leaves every live allocation as it is.
        unsafe {
            malloc_trim(0);
        }
    }
}
