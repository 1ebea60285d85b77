use clap::Parser;

// mimalloc for Rust and (feature "override") for SQLite's C allocations too: rows are built on
// sqlx's SQLite worker threads and freed on the HTTP workers, and glibc's per-arena locks and
// consolidation cost a fifth of a list call (docs/decisions-speed.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    no_huge_pages();
    actix_web::rt::System::new().block_on(run())
}

/// Transparent huge pages off for this process. mimalloc asks for them on its arenas, and
/// then every touched 2 MiB of an arena stays resident whole: four large PDF exports at once
/// peaked at 188 MiB with them and 93 MiB without, and the server started at 55 MiB instead
/// of 28 (docs/decisions-memory.md). Servers where THP is "always" get the same.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE takes plain integers and touches no memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

async fn run() -> std::process::ExitCode {
    match mentorpay::cli::run(mentorpay::cli::Cli::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mentorpay: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
