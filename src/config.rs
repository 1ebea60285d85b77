//! Settings from flags and `MENTORPAY_*` environment variables (flags win).

use std::{net::SocketAddr, path::PathBuf};

use clap::{Args, ValueEnum};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Args)]
pub struct Config {
    /// Address and port to listen on (use 0.0.0.0:8080 to serve the intranet).
    #[arg(long, global = true, env = "MENTORPAY_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Database URL: sqlite://FILE?mode=rwc (default) or postgres://user:pass@host/db.
    #[arg(
        long,
        global = true,
        env = "MENTORPAY_DATABASE_URL",
        default_value = "sqlite://mentorpay.db?mode=rwc"
    )]
    pub database_url: String,

    /// Folder for uploaded files (receipts).
    #[arg(long, global = true, env = "MENTORPAY_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,

    /// Secret that signs access tokens (32+ characters). Default: generated once and kept in the database.
    #[arg(long, global = true, env = "MENTORPAY_JWT_SECRET", hide_env_values = true)]
    pub jwt_secret: Option<String>,

    /// Access token lifetime in seconds.
    #[arg(long, global = true, env = "MENTORPAY_ACCESS_TOKEN_TTL", default_value_t = 900, value_parser = clap::value_parser!(u64).range(30..=86_400))]
    pub access_token_ttl: u64,

    /// Refresh token lifetime in seconds (the longest a sign-in lasts).
    #[arg(long, global = true, env = "MENTORPAY_REFRESH_TOKEN_TTL", default_value_t = 28_800, value_parser = clap::value_parser!(u64).range(60..=2_592_000))]
    pub refresh_token_ttl: u64,

    /// Seconds a request body may take to arrive (408 after): a client trickling a body
    /// byte by byte must not hold a connection for ever.
    #[arg(long, global = true, env = "MENTORPAY_BODY_TIMEOUT", default_value_t = crate::web::DEFAULT_BODY_TIMEOUT_SECS, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub body_timeout: u64,

    /// Address users open in the browser; used in e-mailed links. Default: http://LISTEN.
    #[arg(long, global = true, env = "MENTORPAY_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// SMTP relay host. Without it, e-mails (password links) are written to the log.
    #[arg(long, global = true, env = "MENTORPAY_SMTP_HOST")]
    pub smtp_host: Option<String>,

    /// SMTP port.
    #[arg(long, global = true, env = "MENTORPAY_SMTP_PORT", default_value_t = 587)]
    pub smtp_port: u16,

    /// SMTP user name (optional).
    #[arg(long, global = true, env = "MENTORPAY_SMTP_USERNAME")]
    pub smtp_username: Option<String>,

    /// SMTP password (optional).
    #[arg(long, global = true, env = "MENTORPAY_SMTP_PASSWORD", hide_env_values = true)]
    pub smtp_password: Option<String>,

    /// SMTP transport security: starttls, tls or none (an internal relay on port 25).
    #[arg(long, global = true, env = "MENTORPAY_SMTP_SECURITY", default_value = "starttls")]
    pub smtp_security: SmtpSecurity,

    /// Sender address of e-mails.
    #[arg(
        long,
        global = true,
        env = "MENTORPAY_SMTP_FROM",
        default_value = "MentorPay <no-reply@localhost>"
    )]
    pub smtp_from: String,

    /// Seconds before a mail the relay could not take is tried again; the wait doubles at each
    /// failure, up to an hour.
    #[arg(long, global = true, env = "MENTORPAY_MAIL_RETRY_SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub mail_retry_seconds: u64,

    /// Report pages computed at once; more wait for a slot (0: one per CPU core).
    #[arg(long, global = true, env = "MENTORPAY_REPORT_SLOTS", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=64))]
    pub report_slots: u64,

    /// Exports (report files, packets) built at once; more wait for a slot.
    #[arg(long, global = true, env = "MENTORPAY_EXPORT_SLOTS", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub export_slots: u64,

    /// Seconds a report page waits for a slot before the answer is 503 "busy" with Retry-After.
    #[arg(long, global = true, env = "MENTORPAY_REPORT_WAIT_SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub report_wait_seconds: u64,

    /// Seconds an export waits for a slot before the answer is 503 "busy" with Retry-After
    /// (an export takes up to minutes, so the one behind it waits longer than a page).
    #[arg(long, global = true, env = "MENTORPAY_EXPORT_WAIT_SECONDS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub export_wait_seconds: u64,

    /// Sign-in attempts allowed per account per minute (per client address: five times this).
    #[arg(long, global = true, env = "MENTORPAY_LOGIN_ATTEMPTS_PER_MINUTE", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub login_attempts_per_minute: u32,

    /// Receipt files one person may announce per minute, whatever their size (429 beyond).
    #[arg(long, global = true, env = "MENTORPAY_RECEIPT_UPLOADS_PER_MINUTE", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub receipt_uploads_per_minute: u32,

    /// Take the client address (sign-in throttling, the audit trail) from the last entry of
    /// the header the reverse proxy sets (--client-address-header), never from what the
    /// client itself sends; only behind such a proxy.
    #[arg(long, global = true, env = "MENTORPAY_TRUST_PROXY", default_value_t = false)]
    pub trust_proxy: bool,

    /// The header a trusted proxy writes the client's address into; its last entry is read.
    #[arg(long, global = true, env = "MENTORPAY_CLIENT_ADDRESS_HEADER", default_value = "X-Forwarded-For", value_parser = clap::value_parser!(actix_web::http::header::HeaderName))]
    pub client_address_header: actix_web::http::header::HeaderName,

    /// Serve the UI from this folder instead of the copy built into the binary (UI development).
    #[arg(long, global = true, env = "MENTORPAY_UI_DIR")]
    pub ui_dir: Option<PathBuf>,

    /// Log format.
    #[arg(long, global = true, env = "MENTORPAY_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,

    /// First Administrator's e-mail, used only when no Administrator exists yet.
    #[arg(long, global = true, env = "MENTORPAY_ADMIN_EMAIL")]
    pub admin_email: Option<String>,

    /// First Administrator's password (12+ characters), used with --admin-email.
    #[arg(long, global = true, env = "MENTORPAY_ADMIN_PASSWORD", hide_env_values = true)]
    pub admin_password: Option<String>,

    /// Single sign-on with the agency's directory (OpenID Connect, LDAP).
    #[command(flatten)]
    pub sso: SsoConfig,
}

/// A secret given on the command line or in the environment: its Debug form never shows it,
/// so no log line or error built from the configuration can carry it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Secret(s.to_owned()))
    }
}

#[derive(Debug, Clone, Args)]
pub struct SsoConfig {
    /// OpenID Connect issuer URL (discovery at {issuer}/.well-known/openid-configuration).
    #[arg(long, global = true, env = "MENTORPAY_OIDC_ISSUER")]
    pub oidc_issuer: Option<String>,

    /// OpenID Connect client id registered at the provider.
    #[arg(long, global = true, env = "MENTORPAY_OIDC_CLIENT_ID")]
    pub oidc_client_id: Option<String>,

    /// OpenID Connect client secret (never logged).
    #[arg(long, global = true, env = "MENTORPAY_OIDC_CLIENT_SECRET", hide_env_values = true)]
    pub oidc_client_secret: Option<Secret>,

    /// Scopes asked of the provider, separated by spaces.
    #[arg(
        long,
        global = true,
        env = "MENTORPAY_OIDC_SCOPES",
        default_value = "openid email profile"
    )]
    pub oidc_scopes: String,

    /// The claim (in the ID token or UserInfo) that lists the user's groups.
    #[arg(long, global = true, env = "MENTORPAY_OIDC_GROUPS_CLAIM", default_value = "groups")]
    pub oidc_groups_claim: String,

    /// The words of the login page's button.
    #[arg(
        long,
        global = true,
        env = "MENTORPAY_OIDC_LABEL",
        default_value = "Sign in with your agency account"
    )]
    pub oidc_label: String,

    /// LDAP / Active Directory URL: ldap://host:389 (with --ldap-starttls) or ldaps://host:636.
    #[arg(long, global = true, env = "MENTORPAY_LDAP_URL")]
    pub ldap_url: Option<String>,

    /// Upgrade an ldap:// connection with StartTLS (an ldaps:// URL speaks TLS from the start).
    #[arg(long, global = true, env = "MENTORPAY_LDAP_STARTTLS", default_value_t = false)]
    pub ldap_starttls: bool,

    /// PEM file of the CA certificates (one or more) that sign the directory's certificate,
    /// trusted for ldaps:// and StartTLS beside the system's roots.
    #[arg(long, global = true, env = "MENTORPAY_LDAP_CA_FILE", value_name = "PATH", value_parser = CaFile::read)]
    pub ldap_ca_file: Option<CaFile>,

    /// The service account that searches the directory.
    #[arg(long, global = true, env = "MENTORPAY_LDAP_BIND_DN")]
    pub ldap_bind_dn: Option<String>,

    /// The service account's password (never logged).
    #[arg(long, global = true, env = "MENTORPAY_LDAP_BIND_PASSWORD", hide_env_values = true)]
    pub ldap_bind_password: Option<Secret>,

    /// Where users are searched.
    #[arg(long, global = true, env = "MENTORPAY_LDAP_BASE_DN")]
    pub ldap_base_dn: Option<String>,

    /// The search filter; {email} is replaced by the e-mail, escaped (RFC 4515).
    #[arg(
        long,
        global = true,
        env = "MENTORPAY_LDAP_USER_FILTER",
        default_value = "(mail={email})"
    )]
    pub ldap_user_filter: String,

    /// The attribute of a user entry that lists its groups.
    #[arg(long, global = true, env = "MENTORPAY_LDAP_GROUP_ATTRIBUTE", default_value = "memberOf")]
    pub ldap_group_attribute: String,
}

impl SsoConfig {
    /// What clap cannot check of the directory's flags: StartTLS upgrades a plain connection,
    /// so asking for it on an ldaps:// one means the URL or the flag is not what was meant.
    pub fn check_ldap(&self) -> anyhow::Result<()> {
        if let Some(url) = self.ldap_url.as_deref() {
            if self.ldap_starttls && url.trim().to_ascii_lowercase().starts_with("ldaps://") {
                anyhow::bail!(
                    "--ldap-starttls upgrades a plain ldap:// connection, but --ldap-url {url} speaks TLS from the start: drop --ldap-starttls, or use an ldap:// URL"
                );
            }
            let plain = url.trim().to_ascii_lowercase().starts_with("ldap://");
            if plain && !self.ldap_starttls {
                // Allowed for a directory on the same host or a test, never quietly.
                tracing::warn!(
                    "--ldap-url {url} without --ldap-starttls: directory passwords cross the network unencrypted"
                );
            }
        }
        Ok(())
    }
}

/// The CA certificates of `--ldap-ca-file`, read and checked when the flags are parsed, so a
/// wrong file stops the start instead of failing the first sign-in.
#[derive(Clone)]
pub struct CaFile {
    pub path: PathBuf,
    /// Only the file's certificates (the system's roots are added where the connection is made).
    pub roots: std::sync::Arc<rustls::RootCertStore>,
}

impl std::fmt::Debug for CaFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CaFile({}, {} certificates)", self.path.display(), self.roots.len())
    }
}

impl CaFile {
    /// Clap's parser of the flag: its error is shown after the flag's name.
    pub fn read(path: &str) -> Result<CaFile, String> {
        use rustls::pki_types::{pem::PemObject, CertificateDer};
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read the file: {e}"))?;
        let mut roots = rustls::RootCertStore::empty();
        for (n, cert) in CertificateDer::pem_slice_iter(&bytes).enumerate() {
            let cert = cert.map_err(|e| format!("not a PEM file of certificates: {e}"))?;
            roots
                .add(cert)
                .map_err(|e| format!("certificate {} is not usable as a CA: {e}", n + 1))?;
        }
        if roots.is_empty() {
            return Err("holds no PEM certificate (a \"-----BEGIN CERTIFICATE-----\" block)".into());
        }
        Ok(CaFile { path: PathBuf::from(path), roots: std::sync::Arc::new(roots) })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SmtpSecurity {
    Starttls,
    Tls,
    None,
}

impl Config {
    pub fn public_url(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => format!("http://{}", self.listen),
        }
    }

    /// The share of the server heavy reads may take (web::heavy).
    pub fn heavy_shares(&self) -> crate::web::heavy::Shares {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        crate::web::heavy::Shares {
            views: match self.report_slots {
                0 => cores,
                n => n as usize,
            },
            exports: self.export_slots as usize,
            view_wait: std::time::Duration::from_secs(self.report_wait_seconds),
            export_wait: std::time::Duration::from_secs(self.export_wait_seconds),
        }
    }

    pub fn is_sqlite(&self) -> bool {
        self.database_url.starts_with("sqlite:")
    }
}
