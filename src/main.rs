use clap::Parser;

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
