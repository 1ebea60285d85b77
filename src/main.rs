use clap::Parser;

// mimalloc for Rust and (feature "override") for SQLite's C allocations too: rows are built on
// sqlx's SQLite worker threads and freed on the HTTP workers, and glibc's per-arena locks and
// consolidation cost a fifth of a list call (docs/decisions-speed.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[actix_web::main]
async fn main() -> std::process::ExitCode {
    match mentorpay::cli::run(mentorpay::cli::Cli::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mentorpay: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
