//! LDAP / Active Directory: the service account searches the entry of the e-mail given (the
//! e-mail escaped per RFC 4515, so it cannot widen the filter), then MentorPay binds as that
//! entry with the password given; the entry's group attribute gives the groups. An e-mail
//! the directory holds never falls back to a MentorPay password; a directory that does not
//! answer is a 503 in words.

use std::time::Duration;

use ldap3::{ldap_escape, LdapConnAsync, LdapConnSettings, Scope, SearchEntry};

use super::rules::DirectoryPerson;
use crate::{config::SsoConfig, error::ApiError};

const UNREACHABLE: &str =
    "The agency's directory does not answer, so sign-in is not possible right now. Try again in a few minutes, or tell your IT department.";
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

fn unreachable(what: &str, e: impl std::fmt::Display) -> ApiError {
    tracing::warn!(error = %e, "the LDAP directory failed at {what}");
    ApiError::Unavailable(UNREACHABLE.into())
}

/// Asks the directory about `email` and `password` (never empty: an empty password would be
/// an anonymous bind, which directories accept).
pub async fn check(config: &SsoConfig, email: &str, password: &str) -> Result<Answer, ApiError> {
    let url = config.ldap_url.as_deref().unwrap_or_default();
    if password.is_empty() {
        return Ok(Answer::WrongPassword);
    }
    let settings = LdapConnSettings::new()
        .set_conn_timeout(TIMEOUT)
        .set_starttls(config.ldap_starttls && url.starts_with("ldap://"));
    let (conn, mut ldap) =
        LdapConnAsync::with_settings(settings, url).await.map_err(|e| unreachable("connect", e))?;
    ldap3::drive!(conn);
    ldap.with_timeout(TIMEOUT);
    let bind_dn = config.ldap_bind_dn.as_deref().unwrap_or_default();
    let bind_password = config.ldap_bind_password.as_ref().map(|s| s.expose()).unwrap_or_default();
    ldap.simple_bind(bind_dn, bind_password)
        .await
        .and_then(|r| r.success())
        .map_err(|e| unreachable("the service bind", e))?;
    let group_attribute = config.ldap_group_attribute.as_str();
    let attributes = vec!["mail", "givenName", "sn", group_attribute];
    let base = config.ldap_base_dn.as_deref().unwrap_or_default();
    ldap.with_timeout(TIMEOUT);
    let (entries, _) = ldap
        .search(base, Scope::Subtree, &filter(&config.ldap_user_filter, email), attributes)
        .await
        .and_then(|r| r.success())
        .map_err(|e| unreachable("the search", e))?;
    // None, or more than one (an ambiguous filter): not the directory's account.
    let [entry] = entries.as_slice() else {
        let _ = ldap.unbind().await;
        return Ok(Answer::NotHeld);
    };
    let entry = SearchEntry::construct(entry.clone());
    ldap.with_timeout(TIMEOUT);
    let bound =
        ldap.simple_bind(&entry.dn, password).await.map_err(|e| unreachable("the user bind", e))?;
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
