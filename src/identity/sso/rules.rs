//! Who a directory sign-in signs in as: the settings and what the directory says of the
//! person in, a verdict out (sign in this user, create an account, or refuse and why).
//! No database here; the command gathers the facts and carries the verdict out.

use super::dto::{PasswordSignIn, SsoSettings};

/// Why a directory sign-in was refused: `code` is kept in the audit entry, `words` shown on
/// the login page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The state was forged, replayed or older than ten minutes.
    State,
    /// The provider answered with an error, or could not be reached.
    Provider,
    /// The ID token failed verification (signature, issuer, audience, expiry, nonce).
    InvalidToken,
    MissingEmail,
    UnverifiedEmail,
    UnknownUser,
    DeletedUser,
    NoMappedGroup,
    /// Coordinators may not sign in now: the block's own message.
    CoordinatorBlocked(String),
    /// The directory refused the password (LDAP).
    BadPassword,
    /// The directory could not be reached, or failed mid-way (LDAP).
    DirectoryUnavailable,
    /// The directory's TLS certificate failed verification: not signed by a trusted CA, not
    /// for the host in the URL, or expired (LDAP).
    DirectoryUntrusted,
}

impl Refusal {
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::State => "state",
            Refusal::Provider => "provider-error",
            Refusal::InvalidToken => "invalid-token",
            Refusal::MissingEmail => "email-missing",
            Refusal::UnverifiedEmail => "email-unverified",
            Refusal::UnknownUser => "unknown-user",
            Refusal::DeletedUser => "deleted-user",
            Refusal::NoMappedGroup => "no-mapped-group",
            Refusal::CoordinatorBlocked(_) => "coordinator-login-blocked",
            Refusal::BadPassword => "bad-password",
            Refusal::DirectoryUnavailable => "directory-unavailable",
            Refusal::DirectoryUntrusted => "directory-certificate-untrusted",
        }
    }

    pub fn words(&self) -> String {
        match self {
            Refusal::State => "The sign-in took too long or was already used. Please try again.".into(),
            Refusal::Provider => "The agency's sign-in service did not complete the sign-in. Please try again.".into(),
            Refusal::InvalidToken => "The agency's sign-in service sent an answer that could not be verified. Please try again, or ask your IT department.".into(),
            Refusal::MissingEmail => "Your agency account has no e-mail address. Ask your IT department.".into(),
            Refusal::UnverifiedEmail => "Your agency account's e-mail address is not verified. Ask your IT department.".into(),
            Refusal::UnknownUser => "There is no MentorPay account for your agency e-mail. Ask a MentorPay Administrator to create one.".into(),
            Refusal::DeletedUser => "Your MentorPay account is deactivated. Ask a MentorPay Administrator.".into(),
            Refusal::NoMappedGroup => "None of your agency groups gives access to MentorPay. Ask your IT department.".into(),
            Refusal::CoordinatorBlocked(message) => message.clone(),
            Refusal::BadPassword => "The e-mail or password is incorrect.".into(),
            Refusal::DirectoryUnavailable => "The agency's directory does not answer, so sign-in is not possible right now. Try again in a few minutes, or tell your IT department.".into(),
            Refusal::DirectoryUntrusted => "The agency directory's certificate could not be verified, so sign-in is not possible right now. Tell your IT department.".into(),
        }
    }
}

/// What the directory says of the person signing in.
#[derive(Debug, Clone, Default)]
pub struct DirectoryPerson {
    pub email: Option<String>,
    /// `Some(false)` only when the directory says the e-mail is not verified.
    pub email_verified: Option<bool>,
    pub groups: Vec<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
}

/// The MentorPay account with that e-mail, if any.
#[derive(Debug, Clone, Copy)]
pub struct Account {
    pub id: i32,
    pub is_active: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Sign in this user; `roles`: set her roles to these first (None: keep hers).
    SignIn {
        user_id: i32,
        roles: Option<Vec<String>>,
    },
    /// Create an account with these roles, then sign it in.
    Create {
        roles: Vec<String>,
    },
    Refuse(Refusal),
}

/// The roles the mapping gives these groups, in mapping order, each once. Group names (and
/// distinguished names) compare without case, as directories do.
pub fn mapped_roles(settings: &SsoSettings, groups: &[String]) -> Vec<String> {
    let mut roles: Vec<String> = Vec::new();
    for row in &settings.group_roles {
        if groups.iter().any(|g| g.eq_ignore_ascii_case(row.group.trim())) {
            for role in &row.roles {
                if !roles.contains(role) {
                    roles.push(role.clone());
                }
            }
        }
    }
    roles
}

pub fn judge(
    settings: &SsoSettings,
    person: &DirectoryPerson,
    account: Option<Account>,
) -> Verdict {
    if person.email.as_deref().is_none_or(str::is_empty) {
        return Verdict::Refuse(Refusal::MissingEmail);
    }
    if person.email_verified == Some(false) {
        return Verdict::Refuse(Refusal::UnverifiedEmail);
    }
    let mapped = if settings.group_roles.is_empty() {
        None
    } else {
        match mapped_roles(settings, &person.groups) {
            roles if roles.is_empty() => return Verdict::Refuse(Refusal::NoMappedGroup),
            roles => Some(roles),
        }
    };
    match account {
        Some(a) if !a.is_active => Verdict::Refuse(Refusal::DeletedUser),
        Some(a) => Verdict::SignIn { user_id: a.id, roles: mapped },
        None if !settings.create_accounts => Verdict::Refuse(Refusal::UnknownUser),
        None => Verdict::Create { roles: mapped.unwrap_or_else(|| settings.default_roles.clone()) },
    }
}

/// Whether this account may sign in with a MentorPay password (or ask for a reset mail).
pub fn password_allowed(settings: &SsoSettings, email: &str) -> bool {
    match settings.password_sign_in {
        PasswordSignIn::Everyone => true,
        PasswordSignIn::Listed => {
            settings.password_accounts.iter().any(|e| e.trim().eq_ignore_ascii_case(email))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::sso::dto::GroupRoles;

    fn settings(create: bool, mapping: &[(&str, &[&str])]) -> SsoSettings {
        SsoSettings {
            create_accounts: create,
            default_roles: vec!["Coordinator".into()],
            group_roles: mapping
                .iter()
                .map(|(g, rs)| GroupRoles {
                    group: (*g).into(),
                    roles: rs.iter().map(|r| (*r).into()).collect(),
                })
                .collect(),
            password_sign_in: PasswordSignIn::Everyone,
            password_accounts: vec![],
        }
    }

    fn person(email: Option<&str>, verified: Option<bool>, groups: &[&str]) -> DirectoryPerson {
        DirectoryPerson {
            email: email.map(Into::into),
            email_verified: verified,
            groups: groups.iter().map(|g| (*g).into()).collect(),
            ..Default::default()
        }
    }

    const ACTIVE: Option<Account> = Some(Account { id: 7, is_active: true });
    const GONE: Option<Account> = Some(Account { id: 7, is_active: false });

    #[test]
    fn verdicts() {
        let roles = |rs: &[&str]| rs.iter().map(|r| (*r).to_string()).collect::<Vec<_>>();
        let mapping: &[(&str, &[&str])] =
            &[("finance", &["Finance", "Approver"]), ("admins", &["Administrator", "Finance"])];
        let cases: Vec<(&str, SsoSettings, DirectoryPerson, Option<Account>, Verdict)> = vec![
            (
                "no e-mail",
                settings(true, &[]),
                person(None, None, &[]),
                ACTIVE,
                Verdict::Refuse(Refusal::MissingEmail),
            ),
            (
                "unverified",
                settings(true, &[]),
                person(Some("a@x.org"), Some(false), &[]),
                ACTIVE,
                Verdict::Refuse(Refusal::UnverifiedEmail),
            ),
            (
                "known, no mapping keeps roles",
                settings(false, &[]),
                person(Some("a@x.org"), Some(true), &[]),
                ACTIVE,
                Verdict::SignIn { user_id: 7, roles: None },
            ),
            (
                "verified unsaid is accepted",
                settings(false, &[]),
                person(Some("a@x.org"), None, &[]),
                ACTIVE,
                Verdict::SignIn { user_id: 7, roles: None },
            ),
            (
                "deactivated",
                settings(true, &[]),
                person(Some("a@x.org"), Some(true), &[]),
                GONE,
                Verdict::Refuse(Refusal::DeletedUser),
            ),
            (
                "unknown without creation",
                settings(false, &[]),
                person(Some("a@x.org"), Some(true), &[]),
                None,
                Verdict::Refuse(Refusal::UnknownUser),
            ),
            (
                "unknown created with default roles",
                settings(true, &[]),
                person(Some("a@x.org"), Some(true), &[]),
                None,
                Verdict::Create { roles: roles(&["Coordinator"]) },
            ),
            (
                "mapped roles in mapping order, once",
                settings(true, mapping),
                person(Some("a@x.org"), Some(true), &["ADMINS", "finance"]),
                ACTIVE,
                Verdict::SignIn {
                    user_id: 7,
                    roles: Some(roles(&["Finance", "Approver", "Administrator"])),
                },
            ),
            (
                "created with mapped roles",
                settings(true, mapping),
                person(Some("a@x.org"), Some(true), &["admins"]),
                None,
                Verdict::Create { roles: roles(&["Administrator", "Finance"]) },
            ),
            (
                "no mapped group",
                settings(true, mapping),
                person(Some("a@x.org"), Some(true), &["other"]),
                ACTIVE,
                Verdict::Refuse(Refusal::NoMappedGroup),
            ),
        ];
        for (name, s, p, a, want) in cases {
            assert_eq!(judge(&s, &p, a), want, "{name}");
        }
    }

    #[test]
    fn listed_password_accounts() {
        let mut s = settings(false, &[]);
        assert!(password_allowed(&s, "anyone@x.org"));
        s.password_sign_in = PasswordSignIn::Listed;
        s.password_accounts = vec!["Admin@X.org".into()];
        assert!(password_allowed(&s, "admin@x.org"));
        assert!(!password_allowed(&s, "anyone@x.org"));
    }
}
