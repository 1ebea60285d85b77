//! Pure rules of the second factor: TOTP codes (RFC 6238: SHA-1, 6 digits, 30 s, one step
//! either side, each accepted once), recovery codes, the sign-in challenge between the
//! password and the code, and the policy that asks some roles for a factor. Facts in,
//! verdicts out; the commands in `factor_commands` keep the rows.

use chrono::{DateTime, Duration, Utc};
use rand::{Rng, RngCore};
use sha2::{Digest, Sha256};
use totp_rs::{Algorithm, Totp};

use crate::entities::mfa_challenge;

pub const ISSUER: &str = "MentorPay";
/// How long the step between the password and the code lasts.
pub const CHALLENGE_TTL: Duration = Duration::minutes(5);
/// Wrong codes a challenge survives: the fifth ends it.
pub const MAX_FAILURES: i32 = 5;
pub const RECOVERY_CODES: usize = 10;

pub const VERIFY: &str = "verify";
pub const ENROLL: &str = "enroll";

/// A new secret of 160 random bits, as Base32 (what authenticator apps read).
pub fn new_secret() -> String {
    let mut bytes = vec![0u8; 20];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    totp_rs::Secret::from(bytes).to_base32()
}

fn totp(secret: &str, account: &str) -> Option<Totp> {
    let secret = totp_rs::Secret::try_from_base32(secret).ok()?;
    totp_rs::Builder::new()
        .with_algorithm(Algorithm::SHA1)
        .with_digits(6)
        .with_step_duration(30)
        .with_skew(1)
        .with_secret(secret)
        .with_account_name(account)
        .with_issuer(Some(ISSUER))
        .build()
        .ok()
}

/// The `otpauth://` address an authenticator app reads from the QR code.
pub fn otpauth_uri(secret: &str, account: &str) -> Option<String> {
    totp(secret, account)?.to_url().ok()
}

/// The QR code of `text` as an SVG document, drawn here (no outside service sees the secret).
pub fn qr_svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    Some(
        code.render::<qrcode::render::svg::Color>()
            .min_dimensions(200, 200)
            .quiet_zone(true)
            .build(),
    )
}

#[derive(Debug, PartialEq, Eq)]
pub enum CodeVerdict {
    /// Good for time step `0`, which the caller records as the last one used.
    Accepted(i64),
    /// Wrong, malformed, or a step already used (a replayed code).
    Refused,
}

/// Judges `code` against `secret` at `now` (Unix seconds), given the last step accepted.
pub fn check_code(secret: &str, code: &str, now: i64, last_step: Option<i64>) -> CodeVerdict {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) || now < 0 {
        return CodeVerdict::Refused;
    }
    let Some(totp) = totp(secret, "") else { return CodeVerdict::Refused };
    // Each step of the window on its own, so a replayed step does not hide a later one.
    let origin = now / 30;
    for step in (origin - 1)..=(origin + 1) {
        if step < 0 || last_step.is_some_and(|last| step <= last) {
            continue;
        }
        if totp.generate(step as u64 * 30).to_string() == code {
            return CodeVerdict::Accepted(step);
        }
    }
    CodeVerdict::Refused
}

/// Ten new recovery codes, 50 random bits each, written `xxxxx-xxxxx` (lowercase Base32
/// without look-alike letters, so they read back from paper).
pub fn new_recovery_codes() -> Vec<String> {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::rngs::OsRng;
    (0..RECOVERY_CODES)
        .map(|_| {
            let mut s: String =
                (0..10).map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char).collect();
            s.insert(5, '-');
            s
        })
        .collect()
}

/// A recovery code as typed, reduced to what is compared: no spaces or dashes, lowercase.
pub fn normalize_recovery(code: &str) -> String {
    code.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect()
}

/// A new salt for one recovery code.
pub fn new_salt() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// What a recovery code is kept as. The codes carry 50 random bits, so a salted SHA-256 is
/// enough: there is no dictionary to try against it.
pub fn hash_recovery(salt: &str, code: &str) -> String {
    let mut h = Sha256::new();
    h.update(salt.as_bytes());
    h.update(b":");
    h.update(normalize_recovery(code).as_bytes());
    hex::encode(h.finalize())
}

/// Whether a challenge may still be answered, for `purpose`.
pub fn challenge_open(c: &mfa_challenge::Model, purpose: &str, now: DateTime<Utc>) -> bool {
    c.purpose == purpose && c.used_at.is_none() && c.expires_at > now && c.failures < MAX_FAILURES
}

/// The ways a person with these factors may finish signing in, in the order offered.
pub fn methods(has_totp: bool, passkeys: u64, recovery_left: u64) -> Vec<&'static str> {
    let mut out = Vec::new();
    if has_totp {
        out.push("totp");
    }
    if passkeys > 0 {
        out.push("passkey");
    }
    if recovery_left > 0 {
        out.push("recovery");
    }
    out
}

/// Whether a password sign-in with `roles` must first enrol a factor.
pub fn must_enrol(roles: &[String], required: &[String], has_factor: bool) -> bool {
    !has_factor && roles.iter().any(|r| required.iter().any(|q| q.eq_ignore_ascii_case(r)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"; // RFC 6238's "12345678901234567890"

    #[test]
    fn codes_follow_rfc_6238() {
        // The RFC's SHA-1 vectors, last six digits.
        for (t, code) in [(59, "287082"), (1111111109, "081804"), (1234567890, "005924")] {
            assert_eq!(check_code(SECRET, code, t, None), CodeVerdict::Accepted(t / 30), "{t}");
        }
    }

    #[test]
    fn a_code_is_judged_once_and_within_one_step() {
        let t = 1111111109;
        let step = t / 30;
        // (code's time, now, last step accepted) -> accepted?
        let cases = [
            (t, t, None, true),
            (t, t + 30, None, true),
            (t, t - 30, None, true),
            (t, t + 60, None, false),
            (t, t, Some(step), false),
            (t, t, Some(step - 1), true),
            (t, t, Some(step + 1), false),
        ];
        let code = |at: i64| totp(SECRET, "").unwrap().generate(at as u64).to_string();
        for (at, now, last, accepted) in cases {
            let verdict = check_code(SECRET, &code(at), now, last);
            assert_eq!(
                matches!(verdict, CodeVerdict::Accepted(_)),
                accepted,
                "{at} {now} {last:?}"
            );
        }
        for bad in ["", "12345", "1234567", "abcdef", "08180 4x"] {
            assert_eq!(check_code(SECRET, bad, t, None), CodeVerdict::Refused, "{bad}");
        }
        assert_eq!(check_code(SECRET, " 081 804 ", t, None), CodeVerdict::Accepted(step));
    }

    #[test]
    fn recovery_codes_are_distinct_and_hashed_with_their_salt() {
        let codes = new_recovery_codes();
        assert_eq!(codes.len(), 10);
        let unique: std::collections::BTreeSet<_> = codes.iter().collect();
        assert_eq!(unique.len(), 10);
        assert!(codes.iter().all(|c| c.len() == 11 && c.as_bytes()[5] == b'-'));
        let (s1, s2) = (new_salt(), new_salt());
        assert_ne!(hash_recovery(&s1, &codes[0]), hash_recovery(&s2, &codes[0]));
        let typed = codes[0].to_uppercase().replace('-', " ");
        assert_eq!(hash_recovery(&s1, &typed), hash_recovery(&s1, &codes[0]));
    }

    #[test]
    fn a_challenge_lives_five_minutes_and_five_wrong_codes() {
        let now = Utc::now();
        let c = mfa_challenge::Model {
            id: 1,
            token_hash: "h".into(),
            user_id: 1,
            purpose: VERIFY.into(),
            failures: 0,
            expires_at: now + CHALLENGE_TTL,
            used_at: None,
            created_at: now,
        };
        assert!(challenge_open(&c, VERIFY, now));
        assert!(!challenge_open(&c, ENROLL, now), "a sign-in challenge does not enrol");
        assert!(!challenge_open(&c, VERIFY, now + CHALLENGE_TTL));
        assert!(challenge_open(&mfa_challenge::Model { failures: 4, ..c.clone() }, VERIFY, now));
        assert!(!challenge_open(&mfa_challenge::Model { failures: 5, ..c.clone() }, VERIFY, now));
        assert!(!challenge_open(&mfa_challenge::Model { used_at: Some(now), ..c }, VERIFY, now));
    }

    #[test]
    fn methods_and_the_policy() {
        assert_eq!(methods(true, 0, 10), ["totp", "recovery"]);
        assert_eq!(methods(true, 2, 0), ["totp", "passkey"]);
        assert!(methods(false, 0, 0).is_empty());
        let required = ["administrator".to_owned()];
        let admin = ["Administrator".to_owned()];
        let clerk = ["Clerk".to_owned()];
        assert!(must_enrol(&admin, &required, false));
        assert!(!must_enrol(&admin, &required, true));
        assert!(!must_enrol(&clerk, &required, false));
        assert!(!must_enrol(&admin, &[], false));
    }
}
