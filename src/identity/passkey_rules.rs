//! Pure rules of passkeys: which relying party the server is (from its public address),
//! the name a person gives a passkey, the stable handle an authenticator keeps for a user,
//! and how long a ceremony between start and finish stays open. Facts in, verdicts out.

use chrono::Duration;
use sha2::{Digest, Sha256};

/// How long a registration or a sign-in ceremony may wait for its finish. The sign-in one
/// also ends with its mfaToken (five minutes).
pub const CEREMONY_TTL: Duration = Duration::minutes(5);
pub const NAME_MAX: usize = 60;

pub const REGISTER: &str = "register";
pub const SIGN_IN: &str = "sign-in";

/// The relying party: its id (a domain) and the origin the browser must report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelyingParty {
    pub id: String,
    pub origin: String,
    /// Only for `localhost`: a developer's or a test's server on any port.
    pub any_port: bool,
}

/// The relying party for the configured public address. Without one (`None`), or with an
/// address on the loopback (an IP, which browsers refuse as an id), it is `localhost` on any
/// port: a server reached at `http://localhost:PORT`. `None` for an address that is not a
/// URL with a host.
pub fn relying_party(public_url: Option<&str>) -> Option<RelyingParty> {
    let localhost = || RelyingParty {
        id: "localhost".into(),
        origin: "http://localhost".into(),
        any_port: true,
    };
    let Some(text) = public_url else { return Some(localhost()) };
    let rest = text.strip_prefix("https://").or_else(|| text.strip_prefix("http://"))?;
    let scheme = &text[..text.len() - rest.len()];
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit_once(':').map_or(authority, |(h, p)| {
        if p.bytes().all(|b| b.is_ascii_digit()) {
            h
        } else {
            authority
        }
    });
    let host = host.to_ascii_lowercase();
    if host.is_empty() {
        return None;
    }
    let loopback =
        host == "localhost" || host.starts_with("127.") || host == "[::1]" || host == "0.0.0.0";
    if loopback {
        return Some(localhost());
    }
    let is_ip = host.starts_with('[') || host.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if is_ip {
        return None;
    }
    Some(RelyingParty {
        id: host,
        origin: format!("{scheme}{}", authority.to_ascii_lowercase()),
        any_port: false,
    })
}

/// A passkey's name as kept: trimmed, 1 to 60 characters; `Err` with the reason.
pub fn check_name(name: &str) -> Result<String, &'static str> {
    let name = name.trim();
    if name.is_empty() {
        return Err("is required");
    }
    if name.chars().count() > NAME_MAX {
        return Err("must be at most 60 characters");
    }
    if name.chars().any(char::is_control) {
        return Err("must not contain control characters");
    }
    Ok(name.to_owned())
}

/// The handle an authenticator keeps for user `id`: stable, and not the row id itself.
pub fn user_handle(user_id: i32) -> [u8; 16] {
    let digest = Sha256::new_with_prefix(b"MentorPay passkey user:")
        .chain_update(user_id.to_be_bytes())
        .finalize();
    let mut out = [0u8; 16];
    out.copy_from_slice(&digest[..16]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_relying_party_follows_the_public_address() {
        let rp = |id: &str, origin: &str| {
            Some(RelyingParty { id: id.into(), origin: origin.into(), any_port: false })
        };
        let local = Some(RelyingParty {
            id: "localhost".into(),
            origin: "http://localhost".into(),
            any_port: true,
        });
        let cases: &[(Option<&str>, Option<RelyingParty>)] = &[
            (None, local.clone()),
            (Some("http://127.0.0.1:8080"), local.clone()),
            (Some("http://localhost:3000"), local.clone()),
            (Some("https://pay.example.org"), rp("pay.example.org", "https://pay.example.org")),
            (
                Some("https://Pay.Example.org:8443/app"),
                rp("pay.example.org", "https://pay.example.org:8443"),
            ),
            (Some("http://10.1.2.3:8080"), None),
            (Some("ftp://pay.example.org"), None),
            (Some("https://"), None),
        ];
        for (url, want) in cases {
            assert_eq!(&relying_party(*url), want, "{url:?}");
        }
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(check_name("  Laptop "), Ok("Laptop".into()));
        assert_eq!(check_name("   "), Err("is required"));
        assert_eq!(check_name(&"x".repeat(61)), Err("must be at most 60 characters"));
        assert_eq!(check_name(&"é".repeat(60)).map(|n| n.chars().count()), Ok(60));
        assert_eq!(check_name("a\nb"), Err("must not contain control characters"));
    }

    #[test]
    fn a_user_handle_is_stable_and_differs_per_user() {
        assert_eq!(user_handle(7), user_handle(7));
        assert_ne!(user_handle(7), user_handle(8));
    }
}
