//! Password hashing (argon2id, PHC strings) and the password policy.

use argon2::{
    password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString},
    Argon2,
};

use crate::error::ApiError;

pub const MIN_PASSWORD_CHARS: usize = 12;
pub const MAX_PASSWORD_CHARS: usize = 256;

/// Why a password is not acceptable, if it is not.
pub fn policy_problem(password: &str) -> Option<String> {
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_CHARS {
        Some(format!("must be at least {MIN_PASSWORD_CHARS} characters"))
    } else if chars > MAX_PASSWORD_CHARS {
        Some(format!("must be at most {MAX_PASSWORD_CHARS} characters"))
    } else if password.trim().is_empty() {
        Some("must not be only spaces".to_owned())
    } else {
        None
    }
}

pub fn check_policy(field: &str, password: &str) -> Result<(), ApiError> {
    match policy_problem(password) {
        Some(problem) => Err(ApiError::bad_field(field, problem)),
        None => Ok(()),
    }
}

fn hash_blocking(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut OsRng);
    let hashed = Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::Internal(format!("password hash: {e}")));
    crate::memory::give_back();
    hashed
}

fn verify_blocking(password: &str, hash: &str) -> bool {
    let ok = PasswordHash::new(hash)
        .map(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
        .unwrap_or(false);
    crate::memory::give_back();
    ok
}

/// A hash of a password nobody knows, so that a sign-in for an unknown e-mail costs
/// as much as one for a known e-mail (no account discovery by timing).
const DECOY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$3pGkJ0ZcPuzhZk0mVpaz9aHI4S4JwVx1NXkqj7IzdVw";

/// Each argon2 run holds 19 MiB; more runs at once than there are cores finish no sooner,
/// they only hold more memory (sixteen sign-ins at once once took the server past 300 MiB).
/// So at most one per core, up to four, run at a time; the rest wait their turn.
async fn turn() -> tokio::sync::SemaphorePermit<'static> {
    static TURNS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    let turns = TURNS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        tokio::sync::Semaphore::new(cores.clamp(1, 4))
    });
    turns.acquire().await.expect("never closed")
}

/// Hashes off the async threads: argon2 is deliberately slow.
pub async fn hash(password: String) -> Result<String, ApiError> {
    let _turn = turn().await;
    actix_web::web::block(move || hash_blocking(&password))
        .await
        .map_err(|e| ApiError::Internal(format!("blocking pool: {e}")))?
}

/// Verifies off the async threads; `None` checks against a decoy and fails.
pub async fn verify(password: String, hash: Option<String>) -> bool {
    let _turn = turn().await;
    actix_web::web::block(move || match hash {
        Some(hash) => verify_blocking(&password, &hash),
        None => {
            verify_blocking(&password, DECOY_HASH);
            false
        }
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy() {
        assert!(policy_problem("short").is_some());
        assert!(policy_problem("            ").is_some());
        assert!(policy_problem(&"x".repeat(257)).is_some());
        assert!(policy_problem("correct horse battery").is_none());
        assert!(policy_problem("ééééééééééééé").is_none(), "counts characters, not bytes");
    }

    #[test]
    fn hashes_are_argon2id_and_verify() {
        let h = hash_blocking("correct horse battery").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_blocking("correct horse battery", &h));
        assert!(!verify_blocking("correct horse batterz", &h));
        assert!(!verify_blocking("anything", "not a hash"));
        assert!(PasswordHash::new(DECOY_HASH).is_ok());
    }
}
