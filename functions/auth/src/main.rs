//! Lambda entry point of the auth function.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    fixed_mmap_threshold();
    shared::lambda::serve(auth_fn::api()).await
}

/// Every login and registration runs argon2 over 19 MiB, allocated and freed at once.
/// glibc maps such a block and unmaps it when freed, but the first free raises its mmap
/// threshold above that size, and from then on the blocks come from malloc arenas that
/// keep them: peak RSS rose to 123 MiB over 40 logins (`scripts/bench-lambda.sh`). A
/// fixed threshold (glibc's default, 128 KiB) turns that adjustment off: 28 MiB.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn fixed_mmap_threshold() {
    // SAFETY: mallopt only sets an allocator parameter, under glibc's own arena lock.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn fixed_mmap_threshold() {}
