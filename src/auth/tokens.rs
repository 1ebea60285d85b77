//! Access tokens (HS256 JWTs, algorithm pinned) and opaque one-time tokens
//! (refresh, set-password), which are stored only as SHA-256 hashes.

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Claims {
    /// User id.
    pub sub: String,
    pub email: String,
    /// The sign-in (refresh-token family) the token belongs to: every call checks it is
    /// still live, so signing out or a revoked family ends the token at once. Tokens
    /// issued before sessions were checked have none and are refused.
    #[serde(default)]
    pub sid: Option<String>,
    pub iat: i64,
    pub exp: i64,
}

#[derive(Clone)]
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    pub access_ttl_secs: i64,
    pub refresh_ttl_secs: i64,
}

impl TokenKeys {
    pub fn new(secret: &[u8], access_ttl_secs: i64, refresh_ttl_secs: i64) -> Self {
        Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            access_ttl_secs,
            refresh_ttl_secs,
        }
    }

    /// With the default lifetime (the --access-token-ttl flag).
    pub fn issue_access(&self, user_id: i32, email: &str, session: &str, now: i64) -> String {
        self.issue_access_for(user_id, email, session, now, self.access_ttl_secs)
    }

    /// With the lifetime in force (sign-in and refresh pass the one from the general settings).
    pub fn issue_access_for(
        &self,
        user_id: i32,
        email: &str,
        session: &str,
        now: i64,
        ttl_secs: i64,
    ) -> String {
        let claims = Claims {
            sub: user_id.to_string(),
            email: email.to_owned(),
            sid: Some(session.to_owned()),
            iat: now,
            exp: now + ttl_secs,
        };
        encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .expect("HS256 signing cannot fail")
    }

    /// A valid, unexpired access token's claims. Expiry is read against the server's clock
    /// (`crate::clock`), not the library's own reading of the system time.
    pub fn verify_access(&self, token: &str) -> Option<Claims> {
        let claims = self.verify_signature_only(token)?;
        (claims.exp >= crate::clock::now().timestamp()).then_some(claims)
    }

    /// The claims of a token we signed, expired or not (refresh presents the old token).
    pub fn verify_signature_only(&self, token: &str) -> Option<Claims> {
        decode::<Claims>(token, &self.decoding, &validation()).ok().map(|d| d.claims)
    }
}

fn validation() -> Validation {
    // Only HS256 is accepted: no `none`, no algorithm confusion.
    let mut v = Validation::new(Algorithm::HS256);
    v.leeway = 0;
    v.validate_exp = false;
    v.required_spec_claims = ["exp", "sub"].into_iter().map(String::from).collect();
    v
}

/// 256 random bits, URL-safe.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> TokenKeys {
        TokenKeys::new(b"0123456789abcdef0123456789abcdef", 900, 28_800)
    }

    fn now() -> i64 {
        crate::clock::now().timestamp()
    }

    #[test]
    fn issued_tokens_verify() {
        let token = keys().issue_access(7, "a@b.org", "s1", now());
        let claims = keys().verify_access(&token).unwrap();
        assert_eq!(claims.sub, "7");
        assert_eq!(claims.sid.as_deref(), Some("s1"));
        assert_eq!(claims.exp - claims.iat, 900);
    }

    #[test]
    fn a_given_lifetime_wins_over_the_default() {
        let token = keys().issue_access_for(7, "a@b.org", "s1", now(), 120);
        let claims = keys().verify_access(&token).unwrap();
        assert_eq!(claims.exp - claims.iat, 120);
    }

    #[test]
    fn expired_tokens_are_refused_but_signature_checks() {
        let token = keys().issue_access(7, "a@b.org", "s1", now() - 1000);
        assert!(keys().verify_access(&token).is_none());
        assert_eq!(keys().verify_signature_only(&token).unwrap().sub, "7");
    }

    #[test]
    fn forged_and_tampered_tokens_are_refused() {
        let other = TokenKeys::new(b"another secret another secret !!", 900, 28_800);
        let forged = other.issue_access(1, "a@b.org", "s1", now());
        assert!(keys().verify_access(&forged).is_none());
        assert!(keys().verify_signature_only(&forged).is_none());

        let token = keys().issue_access(7, "a@b.org", "s1", now());
        let mut parts: Vec<String> = token.split('.').map(String::from).collect();
        let payload =
            URL_SAFE_NO_PAD.encode(br#"{"sub":"1","email":"a@b.org","iat":0,"exp":9999999999}"#);
        parts[1] = payload;
        assert!(keys().verify_access(&parts.join(".")).is_none());

        // alg "none" with no signature
        let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT"}"#);
        let none = format!("{header}.{}.", parts[1]);
        assert!(keys().verify_access(&none).is_none());
        assert!(keys().verify_access("garbage").is_none());
    }

    #[test]
    fn random_tokens_are_unique_and_hashed() {
        let (a, b) = (random_token(), random_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(hash_token(&a).len(), 64);
        assert_ne!(hash_token(&a), a);
    }
}
