//! Command line: serve (default), backup, user administration, synthetic data.

use std::{net::TcpListener, path::PathBuf};

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use sea_orm::{ConnectionTrait, DatabaseBackend, Statement};

use crate::{
    app,
    config::{Config, LogFormat},
    identity::{self, accounts::NewUser},
};

/// What `mentorpay --version` prints: the release, the commit and the day it was built.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("MENTORPAY_GIT_COMMIT"),
    ", built ",
    env!("MENTORPAY_BUILD_DATE"),
    ")"
);

#[derive(Debug, Parser)]
#[command(
    name = "mentorpay",
    version = VERSION,
    about = "MentorPay: payment requests of the mentor program, in one binary"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub config: Config,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the application (the default).
    Serve {
        /// Load the demo world first (as `mentorpay demo`).
        #[arg(long, env = "MENTORPAY_DEMO")]
        demo: bool,
    },
    /// Load a demo world into an empty database (two fiscal years, about 200 participants,
    /// requests in every status, budgets), then serve.
    Demo,
    /// Write a consistent copy of the SQLite database to FILE while the server runs.
    Backup { file: PathBuf },
    /// Manage sign-ins from the server's console.
    #[command(subcommand)]
    User(UserCommand),
    /// Fill the database with deterministic synthetic data (benchmarks).
    Seed {
        /// Participants to add (each with one or two participations).
        #[arg(long, default_value_t = 0)]
        participants: usize,
        /// Payment requests to add, across forms and statuses (needs participations).
        #[arg(long, default_value_t = 0)]
        requests: usize,
    },
    /// Run one pass of the reminders of waiting approval steps now (the server runs one every
    /// hour): reminders and escalations are queued in the outbox, which the server sends.
    /// Two passes on the same day send nothing twice.
    Remind {
        /// The moment the pass runs as (RFC 3339, e.g. 2027-03-01T09:00:00-06:00); now by default.
        #[arg(long)]
        as_of: Option<chrono::DateTime<chrono::FixedOffset>>,
    },
    /// Print the OpenAPI document of the API (what /api/v1/openapi.json serves) and exit.
    Openapi,
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create a user; without MENTORPAY_NEW_USER_PASSWORD a set-password link is printed.
    Create {
        #[arg(long)]
        email: String,
        #[arg(long)]
        first_name: String,
        #[arg(long)]
        last_name: String,
        /// Role name (repeatable); the first one is shown and decides admin status.
        #[arg(long = "role", default_value = "Administrator")]
        roles: Vec<String>,
        #[arg(long, env = "MENTORPAY_NEW_USER_PASSWORD", hide_env_values = true)]
        password: Option<String>,
    },
    /// Print a one-time set-password link for a user (e.g. a locked-out Administrator).
    ResetPassword { email: String },
}

pub fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("MENTORPAY_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn,sea_orm=warn"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match format {
        LogFormat::Json => builder.json().flatten_event(true).init(),
        LogFormat::Text => builder.init(),
    }
}

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    init_logging(cli.config.log_format);
    crate::clock::refuse_in_release()?;
    if crate::clock::is_set() {
        tracing::warn!(now = %crate::clock::now(), "the clock is set by {}: a test run", crate::clock::VARIABLE);
    }
    match cli.command.unwrap_or(Command::Serve { demo: false }) {
        Command::Serve { demo } => serve(cli.config, demo).await,
        Command::Demo => serve(cli.config, true).await,
        Command::Backup { file } => backup(cli.config, file).await,
        Command::User(cmd) => user(cli.config, cmd).await,
        Command::Seed { participants, requests } => seed(cli.config, participants, requests).await,
        Command::Remind { as_of } => remind(cli.config, as_of).await,
        Command::Openapi => {
            println!("{}", crate::openapi::json(crate::app::route_table));
            Ok(())
        }
    }
}

async fn serve(config: Config, demo: bool) -> anyhow::Result<()> {
    let listen = config.listen;
    let listener =
        TcpListener::bind(listen).with_context(|| format!("cannot listen on {listen}"))?;
    let state = app::prepare(config).await?;
    if demo {
        match crate::demo::world::load(&state).await? {
            Some(l) => {
                tracing::info!(
                    participants = l.participants,
                    requests = l.requests,
                    budget_lines = l.budget_lines,
                    "demo world loaded"
                );
                // Demo only: a Coordinator to sign in as, beside the Administrator, so the
                // two sides of an approval can be tried (its requests await approval).
                if let Some((email, link)) = l.coordinator {
                    let valid_for = identity::rules::validity_words(
                        identity::store::password_token_ttl(identity::store::INVITE),
                    );
                    tracing::warn!(%email, "demo Coordinator: open this one-time link to choose its password (valid for {valid_for}): {link}");
                    eprintln!("\n  Demo Coordinator: sign in as {email} after choosing a password at\n  {link}\n");
                }
            }
            None => tracing::info!("the database has participants already; demo world not loaded"),
        }
    }
    let url = state.config.public_url();
    tracing::info!(%listen, database = %crate::db::redact(&state.config.database_url), "MentorPay {} ready: open {url}", env!("CARGO_PKG_VERSION"));
    app::serve_until_stopped(state, listener).await
}

async fn backup(config: Config, file: PathBuf) -> anyhow::Result<()> {
    if !config.is_sqlite() {
        bail!("backup copies the SQLite database; for PostgreSQL use pg_dump");
    }
    if file.exists() {
        bail!("{} exists already; choose a new file name", file.display());
    }
    let db = crate::db::open(&config.database_url).await?;
    // Written under a temporary name and renamed when complete and synced, so an interrupted
    // backup never leaves a partial file under the name a restore would use.
    let partial = PathBuf::from(format!("{}.partial", file.display()));
    let _ = std::fs::remove_file(&partial);
    let target =
        partial.to_str().context("the backup path must be valid UTF-8")?.replace('\'', "''");
    // VACUUM INTO writes a consistent snapshot without stopping writers, but does not sync it.
    db.execute_raw(Statement::from_string(
        DatabaseBackend::Sqlite,
        format!("VACUUM INTO '{target}'"),
    ))
    .await?;
    std::fs::File::open(&partial)?.sync_all()?;
    std::fs::rename(&partial, &file)?;
    if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::File::open(dir)?.sync_all()?;
    }
    println!("Backup written to {}", file.display());
    Ok(())
}

async fn seed(config: Config, participants: usize, requests: usize) -> anyhow::Result<()> {
    let state = app::prepare(config).await?;
    if participants > 0 {
        let report = crate::demo::seed::participants(&state.db, participants).await?;
        println!(
            "Seeded {} participants with {} participations in {:.1} s.",
            report.participants, report.participations, report.seconds
        );
    }
    if requests > 0 {
        let report = crate::demo::seed::requests(&state.db, requests).await?;
        println!("Seeded {} payment requests in {:.1} s.", report.requests, report.seconds);
    }
    Ok(())
}

async fn remind(
    config: Config,
    as_of: Option<chrono::DateTime<chrono::FixedOffset>>,
) -> anyhow::Result<()> {
    let state = app::prepare(config).await?;
    let now = as_of.map_or_else(crate::clock::now, |t| t.with_timezone(&chrono::Utc));
    let done = crate::notifications::commands::send_reminders(
        &state.db,
        now,
        crate::payment_requests::commands::may_take_current,
    )
    .await
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    println!(
        "Reminded the approvers of {} waiting steps and escalated {}; {} mails queued in the outbox.",
        done.reminded, done.escalated, done.mails
    );
    Ok(())
}

async fn user(config: Config, cmd: UserCommand) -> anyhow::Result<()> {
    let state = app::prepare(config).await?;
    let err = |e: crate::error::ApiError| anyhow::anyhow!("{e}");
    match cmd {
        UserCommand::Create { email, first_name, last_name, roles, password } => {
            let email =
                crate::error::normalize_email(&email).context("not a valid e-mail address")?;
            let hash = match password {
                Some(p) => {
                    if let Some(problem) = crate::auth::password::policy_problem(&p) {
                        bail!("password {problem}");
                    }
                    Some(crate::auth::password::hash(p).await.map_err(err)?)
                }
                None => None,
            };
            let roles = identity::store::roles_by_names(&state.db, &roles).await.map_err(err)?;
            let new = NewUser { email, first_name, last_name, hash, participant_id: None };
            let (created, link) = identity::accounts::create_user_with_roles(
                &state,
                (&crate::audit::Actor::system(), None),
                new,
                &roles,
            )
            .await
            .map_err(err)?;
            println!("Created user {} (id {}).", created.email, created.id);
            if let Some(link) = link {
                let valid_for = identity::rules::validity_words(
                    identity::store::password_token_ttl(identity::store::INVITE),
                );
                println!("Set-password link (valid for {valid_for}, once):\n{link}");
            }
        }
        UserCommand::ResetPassword { email } => {
            let email =
                crate::error::normalize_email(&email).context("not a valid e-mail address")?;
            let user = identity::store::find_user_by_email(&state.db, &email)
                .await
                .map_err(err)?
                .context("no such user")?;
            let token =
                identity::store::issue_password_token(&state.db, user.id, identity::store::RESET)
                    .await
                    .map_err(err)?;
            let link = identity::session::set_password_link(
                &state.config.public_url(),
                &user.email,
                &token,
            );
            println!("Set-password link for {} (valid one hour, once):\n{link}", user.email);
        }
    }
    Ok(())
}
