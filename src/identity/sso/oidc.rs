//! OpenID Connect: the authorization-code flow with PKCE (S256), state and nonce, through the
//! `openidconnect` crate. The state, nonce and PKCE verifier of a sign-in under way are kept in
//! the database (`tickets`), so any instance can finish what another started. The ID token is
//! verified by the crate against the provider's JWKS (signature, `iss`, `aud`, `exp`, `nonce`,
//! and `at_hash` when present); only then are its claims read, with the UserInfo answer for
//! the claims a conformant provider keeps there.

use std::{sync::Arc, time::Duration};

use base64::Engine as _;
use openidconnect::{
    core::{CoreAuthenticationFlow, CoreClient, CoreProviderMetadata},
    reqwest, AccessTokenHash, AuthorizationCode, ClientId, ClientSecret, CsrfToken, IssuerUrl,
    Nonce, OAuth2TokenResponse, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope,
    TokenResponse,
};
use serde_json::{Map, Value};
use tokio::sync::Mutex;

use super::{
    rules::{DirectoryPerson, Refusal},
    tickets,
};
use crate::{config::SsoConfig, error::ApiResult, state::AppState};

/// How long discovered metadata (and so the provider's keys) is used before asking again.
const METADATA_TTL: Duration = Duration::from_secs(3600);

/// The path of the redirect URI, under the public URL, to register at the provider.
pub const CALLBACK_PATH: &str = "/api/v1/identity/sso/callback";

pub fn enabled(config: &SsoConfig) -> bool {
    config.oidc_issuer.is_some() && config.oidc_client_id.is_some()
}

fn http_client() -> reqwest::Client {
    reqwest::ClientBuilder::new()
        // The crate's advice: following redirects would open the client to SSRF.
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()
        .expect("an HTTP client with rustls builds")
}

struct Discovered {
    issuer: String,
    metadata: CoreProviderMetadata,
    at: std::time::Instant,
}

static DISCOVERED: Mutex<Option<Arc<Discovered>>> = Mutex::const_new(None);

/// The provider's metadata and keys, discovered at first use and again every hour (or after
/// a token that failed verification, which may be signed by a new key: `refresh`).
async fn metadata(config: &SsoConfig, refresh: bool) -> Result<CoreProviderMetadata, Refusal> {
    let issuer = config.oidc_issuer.clone().unwrap_or_default();
    let mut cached = DISCOVERED.lock().await;
    let fresh =
        |d: &&Arc<Discovered>| !refresh && d.issuer == issuer && d.at.elapsed() < METADATA_TTL;
    if let Some(d) = cached.as_ref().filter(fresh) {
        return Ok(d.metadata.clone());
    }
    let url = IssuerUrl::new(issuer.clone()).map_err(|e| {
        tracing::warn!(error = %e, "the OpenID Connect issuer is not a URL");
        Refusal::Provider
    })?;
    let metadata =
        CoreProviderMetadata::discover_async(url, &http_client()).await.map_err(|e| {
            tracing::warn!(error = %e, "OpenID Connect discovery failed");
            Refusal::Provider
        })?;
    let at = std::time::Instant::now();
    *cached = Some(Arc::new(Discovered { issuer, metadata: metadata.clone(), at }));
    Ok(metadata)
}

type Client = CoreClient<
    openidconnect::EndpointSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointMaybeSet,
    openidconnect::EndpointMaybeSet,
>;

fn client(state: &AppState, metadata: CoreProviderMetadata) -> Result<Client, Refusal> {
    let config = &state.config.sso;
    let redirect = RedirectUrl::new(format!("{}{CALLBACK_PATH}", state.config.public_url()))
        .map_err(|_| Refusal::Provider)?;
    Ok(CoreClient::from_provider_metadata(
        metadata,
        ClientId::new(config.oidc_client_id.clone().unwrap_or_default()),
        config.oidc_client_secret.as_ref().map(|s| ClientSecret::new(s.expose().to_owned())),
    )
    .set_redirect_uri(redirect))
}

/// Starts a sign-in: the provider's authorization URL to send the browser to. The state,
/// nonce and PKCE verifier are stored for ten minutes, with the page to return to.
pub async fn start(state: &AppState, next: Option<String>) -> ApiResult<Result<String, Refusal>> {
    let metadata = match metadata(&state.config.sso, false).await {
        Ok(m) => m,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let client = match client(state, metadata) {
        Ok(c) => c,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let mut request = client
        .authorize_url(
            CoreAuthenticationFlow::AuthorizationCode,
            CsrfToken::new_random,
            Nonce::new_random,
        )
        .set_pkce_challenge(challenge);
    for scope in state.config.sso.oidc_scopes.split_whitespace().filter(|s| *s != "openid") {
        request = request.add_scope(Scope::new(scope.to_owned()));
    }
    let (url, csrf, nonce) = request.url();
    let carried = tickets::Carried {
        nonce: Some(nonce.secret().clone()),
        pkce_verifier: Some(verifier.secret().clone()),
        next_path: next,
        user_id: None,
    };
    tickets::put(&state.db, tickets::STATE, csrf.secret(), carried).await?;
    Ok(Ok(url.to_string()))
}

/// What the callback brought, once its state was taken.
pub struct Finished {
    pub person: DirectoryPerson,
    pub next_path: Option<String>,
}

/// Finishes a sign-in at the callback: the state is taken (once), the code exchanged with the
/// client secret and the PKCE verifier, the ID token verified, the person's claims read.
pub async fn finish(
    state: &AppState,
    code: &str,
    state_value: &str,
) -> ApiResult<Result<Finished, Refusal>> {
    let Some(carried) =
        tickets::take(&state.db, tickets::STATE, state_value, crate::clock::now()).await?
    else {
        return Ok(Err(Refusal::State));
    };
    let next_path = carried.next_path.clone();
    Ok(exchange(state, code, carried).await.map(|person| Finished { person, next_path }))
}

async fn exchange(
    state: &AppState,
    code: &str,
    carried: tickets::Carried,
) -> Result<DirectoryPerson, Refusal> {
    let config = &state.config.sso;
    let http = http_client();
    let client = client(state, metadata(config, false).await?)?;
    let token = client
        .exchange_code(AuthorizationCode::new(code.to_owned()))
        .map_err(|_| Refusal::Provider)?
        .set_pkce_verifier(PkceCodeVerifier::new(carried.pkce_verifier.unwrap_or_default()))
        .request_async(&http)
        .await
        .map_err(|e| {
            let mut cause = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                cause = format!("{cause}: {s}");
                source = s.source();
            }
            tracing::warn!(error = %cause, "the OpenID Connect code exchange failed");
            Refusal::Provider
        })?;
    let id_token = token.id_token().ok_or(Refusal::InvalidToken)?;
    let nonce = Nonce::new(carried.nonce.unwrap_or_default());
    let verifier = client.id_token_verifier();
    let claims = match id_token.claims(&verifier, &nonce) {
        Ok(claims) => claims,
        Err(e) => {
            tracing::warn!(error = %e, "an OpenID Connect ID token failed verification");
            // The provider may have rotated its keys: learn them for the next sign-in.
            let _ = metadata(config, true).await;
            return Err(Refusal::InvalidToken);
        }
    };
    if let Some(expected) = claims.access_token_hash() {
        let alg = id_token.signing_alg().map_err(|_| Refusal::InvalidToken)?;
        let key = id_token.signing_key(&verifier).map_err(|_| Refusal::InvalidToken)?;
        let actual = AccessTokenHash::from_token(token.access_token(), alg, key)
            .map_err(|_| Refusal::InvalidToken)?;
        if actual != *expected {
            return Err(Refusal::InvalidToken);
        }
    }
    let subject = claims.subject().as_str().to_owned();
    // Verified above: reading its payload now reads what the provider signed.
    let mut found = payload(&id_token.to_string()).ok_or(Refusal::InvalidToken)?;
    let wanted =
        ["email", "email_verified", "given_name", "family_name", &config.oidc_groups_claim];
    if wanted.iter().any(|k| !found.contains_key(*k)) {
        if let Some(url) = client.user_info_url() {
            let info = user_info(&http, url.as_str(), token.access_token().secret()).await?;
            if info.get("sub").and_then(Value::as_str) != Some(subject.as_str()) {
                tracing::warn!("the UserInfo answer names another subject than the ID token");
                return Err(Refusal::InvalidToken);
            }
            for (k, v) in info {
                found.entry(k).or_insert(v);
            }
        }
    }
    Ok(person(&found, &config.oidc_groups_claim))
}

fn payload(jwt: &str) -> Option<Map<String, Value>> {
    let part = jwt.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(part).ok()?;
    serde_json::from_slice(&bytes).ok()
}

async fn user_info(
    http: &reqwest::Client,
    url: &str,
    access_token: &str,
) -> Result<Map<String, Value>, Refusal> {
    let answer = http
        .get(url)
        .bearer_auth(access_token)
        .header("Accept", "application/json")
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .map_err(|e| {
            tracing::warn!(error = %e.without_url(), "the OpenID Connect UserInfo call failed");
            Refusal::Provider
        })?;
    let bytes = answer.bytes().await.map_err(|_| Refusal::Provider)?;
    // A signed UserInfo (application/jwt) is not asked for; anything but JSON is refused.
    serde_json::from_slice(&bytes).map_err(|_| Refusal::InvalidToken)
}

/// The person the claims describe. `email_verified` may come as a boolean or, from some
/// providers, as the text "true"/"false".
fn person(claims: &Map<String, Value>, groups_claim: &str) -> DirectoryPerson {
    let text = |k: &str| claims.get(k).and_then(Value::as_str).map(str::to_owned);
    let email_verified = match claims.get("email_verified") {
        Some(Value::Bool(b)) => Some(*b),
        Some(Value::String(s)) => Some(s.eq_ignore_ascii_case("true")),
        Some(_) => Some(false),
        None => None,
    };
    let groups = match claims.get(groups_claim) {
        Some(Value::Array(items)) => {
            items.iter().filter_map(Value::as_str).map(str::to_owned).collect()
        }
        Some(Value::String(one)) => vec![one.clone()],
        _ => vec![],
    };
    DirectoryPerson {
        email: text("email"),
        email_verified,
        groups,
        first_name: text("given_name"),
        last_name: text("family_name"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn claims_become_a_person() {
        let claims = json!({"email": "a@x.org", "email_verified": "false", "roles": ["g1", 3, "g2"],
            "given_name": "Ann"});
        let p = super::person(claims.as_object().unwrap(), "roles");
        assert_eq!(p.email.as_deref(), Some("a@x.org"));
        assert_eq!(p.email_verified, Some(false));
        assert_eq!(p.groups, ["g1", "g2"]);
        assert_eq!(p.first_name.as_deref(), Some("Ann"));
        assert_eq!(p.last_name, None);
        let none = super::person(json!({}).as_object().unwrap(), "groups");
        assert_eq!(none.email_verified, None);
    }
}
