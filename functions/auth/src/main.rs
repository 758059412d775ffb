//! Lambda entry point of the auth function: its HTTP routes, and the mails it sends
//! itself to send after the answer (`mail`).

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), lambda_http::Error> {
    fixed_mmap_threshold();
    pf_http::lambda::init_tracing();
    let state = pf_http::lambda::state_from_env().await?;
    let invoke = pf_http::invoke::SelfInvoke::from_env()?;
    pf_http::mail::set_outbox(Box::new(invoke));
    let mailer = state.mail.clone();
    let on_event = move |event, _deadline| {
        let mailer = mailer.clone();
        async move { auth_fn::mail::on_event(&mailer, event).await }
    };
    let router = pf_http::router(auth_fn::api(), state);
    pf_http::lambda::run_with_events(router, auth_fn::mail::is_mail_event, on_event).await
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
