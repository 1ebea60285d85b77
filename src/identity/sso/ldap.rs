//! LDAP / Active Directory: the service account searches the entry of the e-mail given (the
//! e-mail escaped per RFC 4515, so it cannot widen the filter), then MentorPay binds as that
//! entry with the password given; the entry's group attribute gives the groups. An e-mail
//! the directory holds never falls back to a MentorPay password; a directory that does not
//! answer, or whose certificate fails verification, is a 503 in words.
//!
//! TLS (ldaps:// or StartTLS) trusts the system's roots and the CA file of `--ldap-ca-file`,
//! with rustls's full checks of the chain, the host name and the dates; nothing turns them off.

use std::{
    sync::{Arc, LazyLock},
    time::Duration,
};

use ldap3::{ldap_escape, LdapConnAsync, LdapConnSettings, LdapError, Scope, SearchEntry};

use super::rules::{DirectoryPerson, Refusal};
use crate::config::SsoConfig;

const TIMEOUT: Duration = Duration::from_secs(10);

pub fn enabled(config: &SsoConfig) -> bool {
    config.ldap_url.is_some() && config.ldap_base_dn.is_some()
}

/// What the directory says of an e-mail and password.
#[derive(Debug)]
pub enum Answer {
    /// The directory holds no entry for this e-mail: MentorPay's own passwords decide.
    NotHeld,
    /// The entry exists and refused the password.
    WrongPassword,
    /// The entry exists and the password is its own.
    Person(DirectoryPerson),
}

/// The user filter with the escaped e-mail in it.
pub fn filter(template: &str, email: &str) -> String {
    template.replace("{email}", &ldap_escape(email))
}

/// The system's trusted roots, read once: the same for every directory of this process.
static SYSTEM_ROOTS: LazyLock<rustls::RootCertStore> = LazyLock::new(|| {
    let found = rustls_native_certs::load_native_certs();
    for e in &found.errors {
        tracing::warn!(error = %e, "a system CA certificate could not be read");
    }
    let mut roots = rustls::RootCertStore::empty();
    roots.add_parsable_certificates(found.certs);
    roots
});

/// The TLS client of a directory connection: the system's roots and the agency's CA file.
fn tls_client(config: &SsoConfig) -> Result<Arc<rustls::ClientConfig>, rustls::Error> {
    let mut roots = SYSTEM_ROOTS.clone();
    if let Some(ca) = &config.ldap_ca_file {
        roots.roots.extend(ca.roots.roots.iter().cloned());
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let client = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(client))
}

/// Whether the TLS handshake failed on the directory's certificate (rustls's verdict, carried
/// inside the I/O error of ldap3's connection).
fn certificate_refused(e: &LdapError) -> bool {
    let LdapError::Io { source } = e else { return false };
    source
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        .is_some_and(|e| matches!(e, rustls::Error::InvalidCertificate(_)))
}

fn failed(what: &str, e: LdapError) -> Refusal {
    if certificate_refused(&e) {
        tracing::warn!(error = %e, "the LDAP directory's certificate could not be verified at {what}");
        Refusal::DirectoryUntrusted
    } else {
        tracing::warn!(error = %e, "the LDAP directory failed at {what}");
        Refusal::DirectoryUnavailable
    }
}

/// Asks the directory about `email` and `password` (never empty: an empty password would be
/// an anonymous bind, which directories accept). A directory that cannot be asked is the
/// refusal that says why.
pub async fn check(config: &SsoConfig, email: &str, password: &str) -> Result<Answer, Refusal> {
    let url = config.ldap_url.as_deref().unwrap_or_default();
    if password.is_empty() {
        return Ok(Answer::WrongPassword);
    }
    let tls = tls_client(config).map_err(|e| {
        tracing::warn!(error = %e, "the LDAP directory's TLS settings could not be built");
        Refusal::DirectoryUnavailable
    })?;
    let settings = LdapConnSettings::new()
        .set_conn_timeout(TIMEOUT)
        .set_config(tls)
        .set_starttls(config.ldap_starttls);
    let (conn, mut ldap) =
        LdapConnAsync::with_settings(settings, url).await.map_err(|e| failed("connect", e))?;
    ldap3::drive!(conn);
    ldap.with_timeout(TIMEOUT);
    let bind_dn = config.ldap_bind_dn.as_deref().unwrap_or_default();
    let bind_password = config.ldap_bind_password.as_ref().map(|s| s.expose()).unwrap_or_default();
    ldap.simple_bind(bind_dn, bind_password)
        .await
        .and_then(|r| r.success())
        .map_err(|e| failed("the service bind", e))?;
    let group_attribute = config.ldap_group_attribute.as_str();
    let attributes = vec!["mail", "givenName", "sn", group_attribute];
    let base = config.ldap_base_dn.as_deref().unwrap_or_default();
    ldap.with_timeout(TIMEOUT);
    let (entries, _) = ldap
        .search(base, Scope::Subtree, &filter(&config.ldap_user_filter, email), attributes)
        .await
        .and_then(|r| r.success())
        .map_err(|e| failed("the search", e))?;
    // None, or more than one (an ambiguous filter): not the directory's account.
    let [entry] = entries.as_slice() else {
        let _ = ldap.unbind().await;
        return Ok(Answer::NotHeld);
    };
    let entry = SearchEntry::construct(entry.clone());
    ldap.with_timeout(TIMEOUT);
    let bound =
        ldap.simple_bind(&entry.dn, password).await.map_err(|e| failed("the user bind", e))?;
    let _ = ldap.unbind().await;
    // 49: invalid credentials (a wrong password, a locked or expired account).
    if bound.rc != 0 {
        return Ok(Answer::WrongPassword);
    }
    let first = |name: &str| entry.attrs.get(name).and_then(|v| v.first()).cloned();
    Ok(Answer::Person(DirectoryPerson {
        email: first("mail").or_else(|| Some(email.to_owned())),
        // The directory is the agency's own record of its staff's addresses.
        email_verified: Some(true),
        groups: entry.attrs.get(group_attribute).cloned().unwrap_or_default(),
        first_name: first("givenName"),
        last_name: first("sn"),
    }))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_email_cannot_widen_the_filter() {
        assert_eq!(super::filter("(mail={email})", "a@x.org"), "(mail=a@x.org)");
        assert_eq!(
            super::filter("(&(objectClass=person)(mail={email}))", "*)(uid=*"),
            "(&(objectClass=person)(mail=\\2a\\29\\28uid=\\2a))"
        );
    }
}
