//! Giving freed memory back to the OS after heavy work on a blocking thread.
//!
//! mimalloc returns the pages a thread freed only when that same thread allocates again
//! (10 ms on). The threads that free the most, argon2id's (19 MiB a sign-in) and an export's
//! writer, then sit idle in the blocking pool and keep them: sixteen sign-ins left 44 MiB
//! resident for good. Purging on every free instead (`purge_delay` 0) gave the memory back
//! but slowed the participant search by about a fifth, so only these threads purge, once,
//! when their work is done (docs/decisions-memory.md).

/// Returns the calling thread's freed pages to the OS now. Harmless where mimalloc is not
/// the global allocator (the tests): its own heap is then empty.
pub fn give_back() {
    // SAFETY: takes a plain flag; mimalloc collects the calling thread's heap only.
    unsafe { libmimalloc_sys::mi_collect(true) };
}
