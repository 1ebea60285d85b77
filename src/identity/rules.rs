//! Pure identity rules: input shapes, role and user invariants, refresh-token verdicts.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};

use crate::{
    auth::{
        permissions::{ADMINISTRATOR, COORDINATOR},
        Permission,
    },
    entities::refresh_token,
    error::{ApiError, Checks},
};

/// Role names in the order given, without repeats; at least one.
pub fn dedupe_roles(field: &str, roles: &[String], checks: &mut Checks) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for role in roles.iter().map(|r| r.trim()).filter(|r| !r.is_empty()) {
        if !out.iter().any(|r| r.eq_ignore_ascii_case(role)) {
            out.push(role.to_owned());
        }
    }
    if out.is_empty() {
        checks.add(field, "at least one role is required");
    }
    out
}

/// Permission codes parsed; unknown ones are named.
pub fn parse_permissions(codes: &[String], checks: &mut Checks) -> Vec<Permission> {
    let mut out = Vec::new();
    for code in codes {
        match Permission::from_code(code.trim()) {
            Some(p) if !out.contains(&p) => out.push(p),
            Some(_) => {}
            None => checks.add("permissions", format!("unknown permission '{code}'")),
        }
    }
    out
}

/// The Administrator role always holds every permission: an office must not lock
/// itself out of user and role management.
pub fn check_role_permissions(role_name: &str, permissions: &[Permission]) -> Result<(), ApiError> {
    if role_name == ADMINISTRATOR && permissions.len() != Permission::ALL.len() {
        return Err(ApiError::rule(
            "permissions",
            "The Administrator role must keep every permission.",
        ));
    }
    Ok(())
}

pub fn check_role_deletable(is_built_in: bool, users_holding: u64) -> Result<(), ApiError> {
    if is_built_in {
        return Err(ApiError::rule("id", "Built-in roles cannot be deleted."));
    }
    if users_holding > 0 {
        return Err(ApiError::rule(
            "id",
            format!("The role is held by {users_holding} user(s); remove it from them first."),
        ));
    }
    Ok(())
}

/// Nobody deactivates or demotes themselves, and the last active Administrator stays.
pub fn check_admin_kept(
    acting_on_self: bool,
    was_active_admin: bool,
    stays_active_admin: bool,
    other_active_admins: u64,
) -> Result<(), ApiError> {
    if was_active_admin && !stays_active_admin {
        if acting_on_self {
            return Err(ApiError::rule(
                "roles",
                "You cannot remove your own Administrator access.",
            ));
        }
        if other_active_admins == 0 {
            return Err(ApiError::rule(
                "roles",
                "The last active Administrator cannot lose that role.",
            ));
        }
    }
    Ok(())
}

/// Who grants: the ceiling on what she may hand out is what she holds herself.
pub struct Granter<'a> {
    pub administrator: bool,
    pub permissions: &'a BTreeSet<Permission>,
}

/// Nobody gives a role a permission she does not hold herself (creating or editing a role).
/// An edit is judged on the role's permissions before and after: taking away what one does
/// not hold is as far above one's rights as adding it.
pub fn check_permissions_grantable(
    by: &Granter,
    permissions: impl IntoIterator<Item = Permission>,
) -> Result<(), ApiError> {
    if by.administrator {
        return Ok(());
    }
    let mut missing: Vec<&str> =
        permissions.into_iter().filter(|p| !by.permissions.contains(p)).map(|p| p.code()).collect();
    missing.sort_unstable();
    missing.dedup();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(ApiError::Forbidden(format!(
            "You cannot grant permissions you do not hold yourself: {}.",
            missing.join(", ")
        )))
    }
}

/// Nobody gives a person a role she could not hand out: Administrator only by an
/// Administrator, any other role only when its every permission is the granter's own.
pub fn check_roles_grantable(
    by: &Granter,
    roles: &[(&str, &[Permission])],
) -> Result<(), ApiError> {
    for (name, permissions) in roles {
        if *name == ADMINISTRATOR && !by.administrator {
            return Err(ApiError::Forbidden(
                "Only an Administrator can give the Administrator role.".into(),
            ));
        }
        check_permissions_grantable(by, permissions.iter().copied()).map_err(|_| {
            ApiError::Forbidden(format!(
                "You cannot give the role {name}: it holds permissions you do not hold yourself."
            ))
        })?;
    }
    Ok(())
}

/// Whether `by` may give the role `name` with `permissions`: what the screens offer.
pub fn role_grantable(by: &Granter, name: &str, permissions: &[Permission]) -> bool {
    check_roles_grantable(by, &[(name, permissions)]).is_ok()
}

/// Whether an account is beyond `by`'s reach for its e-mail, roles and access.
pub fn account_locked(by: &Granter, target_is_administrator: bool) -> bool {
    let edit = AccountEdit {
        on_self: false,
        target_is_administrator,
        roles_changed: true,
        email_changed: true,
        deactivates: true,
    };
    check_account_edit(by, &edit).is_err()
}

/// What an edit of an account changes, as the ceiling sees it.
pub struct AccountEdit {
    pub on_self: bool,
    pub target_is_administrator: bool,
    pub roles_changed: bool,
    pub email_changed: bool,
    pub deactivates: bool,
}

/// Nobody changes her own roles, and only an Administrator changes an Administrator's
/// e-mail (the way to her password), roles or access.
pub fn check_account_edit(by: &Granter, edit: &AccountEdit) -> Result<(), ApiError> {
    if edit.on_self && edit.roles_changed {
        return Err(ApiError::Forbidden(
            "You cannot change your own roles: another administrator must.".into(),
        ));
    }
    let sensitive = edit.roles_changed || edit.email_changed || edit.deactivates;
    if edit.target_is_administrator && !by.administrator && sensitive {
        return Err(ApiError::Forbidden(
            "Only an Administrator can change an Administrator's e-mail, roles or access.".into(),
        ));
    }
    Ok(())
}

/// Removing a person's factor or ending her sessions touches the way into her account: on an
/// Administrator's, only an Administrator may.
pub fn check_security_help(by: &Granter, target_is_administrator: bool) -> Result<(), ApiError> {
    if target_is_administrator && !by.administrator {
        return Err(ApiError::Forbidden(
            "Only an Administrator can remove an Administrator's second factor or end her sessions."
                .into(),
        ));
    }
    Ok(())
}

#[derive(Debug, PartialEq, Eq)]
pub enum RefreshVerdict {
    /// Valid: spend it and issue the next one of the family.
    Rotate,
    /// Already spent: someone replays it, so the whole family is revoked.
    Reused,
    /// Expired or revoked: refused, nothing else changes.
    Refused,
}

pub fn judge_refresh(token: &refresh_token::Model, now: DateTime<Utc>) -> RefreshVerdict {
    if token.revoked_at.is_some() || token.expires_at <= now {
        RefreshVerdict::Refused
    } else if token.used_at.is_some() {
        RefreshVerdict::Reused
    } else {
        RefreshVerdict::Rotate
    }
}

/// The programs named on a user (`mentorProgramIds`), checked: each exists, and each one
/// added or taken away is one the caller sees herself (nobody hands out sight of a program
/// she lacks). Returns them sorted, without repeats; a 422 naming `mentorProgramIds[i]`.
pub fn check_named_programs(
    requested: &[i32],
    before: &[i32],
    existing: &BTreeSet<i32>,
    caller: &crate::auth::scope::Scope,
) -> Result<Vec<i32>, ApiError> {
    let mut c = Checks::default();
    for (i, id) in requested.iter().enumerate() {
        if !existing.contains(id) {
            c.add(format!("mentorProgramIds[{i}]"), "No mentor program has this id.");
        } else if !before.contains(id) && !caller.allows_program(*id) {
            c.add(format!("mentorProgramIds[{i}]"), "You may only name programs you see yourself.");
        }
    }
    if before.iter().any(|id| !requested.contains(id) && !caller.allows_program(*id)) {
        c.add("mentorProgramIds", "You may not take away a program you do not see yourself.");
    }
    c.finish_rules()?;
    let set: BTreeSet<i32> = requested.iter().copied().collect();
    Ok(set.into_iter().collect())
}

/// The field an invitation names its participant with.
pub const PARTICIPANT_FIELD: &str = "participantId";

/// Whether an account holding `roles` (name and permissions, the first one leading) sees
/// programs only through the participant it is linked to: a Coordinator, unless another
/// role lets her see every program (`auth::scope`). Such an account without a participant
/// would see nothing, so it is not created without one.
pub fn needs_participant(roles: &[(&str, &[Permission])]) -> bool {
    let sees_all = roles.first().is_some_and(|(name, _)| *name == ADMINISTRATOR)
        || roles.iter().any(|(_, ps)| ps.contains(&Permission::ProgramReadAll));
    !sees_all && roles.iter().any(|(name, _)| *name == COORDINATOR)
}

/// A Coordinator invited without her participant is refused, naming the field.
pub fn check_participant_named(
    roles: &[(&str, &[Permission])],
    participant: Option<i32>,
) -> Result<(), ApiError> {
    if participant.is_none() && needs_participant(roles) {
        return Err(ApiError::rule(
            PARTICIPANT_FIELD,
            "A Coordinator sees her programs through her participant: pick her participant (or create one first).",
        ));
    }
    Ok(())
}

/// Who may create a participant's login: a login reads every program its person takes part
/// in, so outside an unrestricted scope each of them must be one the caller sees; and only
/// an Administrator chooses another person's password (everyone else sends the
/// set-password link, so the person alone knows it).
pub fn check_login_creatable(
    scope: &crate::auth::scope::Scope,
    programs: &[i32],
    sets_password: bool,
) -> Result<(), ApiError> {
    if scope.is_all() {
        return Ok(());
    }
    if sets_password {
        return Err(ApiError::Forbidden(
            "Only an Administrator can choose a password for someone else: leave it empty and the participant is sent a link to choose one.".into(),
        ));
    }
    if let Some(outside) = programs.iter().find(|p| !scope.allows_program(**p)) {
        return Err(ApiError::Forbidden(format!(
            "The participant also takes part in mentor program {outside}, which you do not coordinate: an Administrator must create this login."
        )));
    }
    Ok(())
}

/// An invitation is sent again only to an active account whose holder has not chosen a
/// password: someone who has one asks for a reset herself, so nobody else holds her link.
pub fn check_invitation_resendable(is_active: bool, has_password: bool) -> Result<(), ApiError> {
    if !is_active {
        return Err(ApiError::rule("id", "The account is deactivated: activate it first."));
    }
    if has_password {
        return Err(ApiError::Conflict(
            "She has chosen a password already: she can use \"Forgot password\" on the sign-in page.".into(),
        ));
    }
    Ok(())
}

/// A link's lifetime in words, as the mail and the screens say it ("3 days", "1 hour").
pub fn validity_words(ttl: chrono::Duration) -> String {
    let plural = |n: i64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    let hours = ttl.num_hours();
    if hours >= 24 && hours % 24 == 0 {
        plural(hours / 24, "day")
    } else if hours >= 1 {
        plural(hours, "hour")
    } else {
        plural(ttl.num_minutes().max(1), "minute")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    #[test]
    fn named_programs_stay_within_what_the_caller_sees() {
        use crate::auth::scope::Scope;
        let existing: BTreeSet<i32> = [1, 2, 3].into_iter().collect();
        let sees = |ids: &[i32]| Scope::Programs(ids.iter().copied().collect());
        let field = |r: Result<Vec<i32>, ApiError>| match r {
            Ok(ids) => Ok(ids),
            Err(ApiError::Unprocessable { errors, .. }) => Err(errors.keys().next().cloned()),
            Err(other) => panic!("{other:?}"),
        };
        for (requested, before, caller, want) in [
            (vec![2, 1, 2], vec![], Scope::All, Ok(vec![1, 2])),
            (vec![4], vec![], Scope::All, Err(Some("mentorProgramIds[0]".to_owned()))),
            (vec![1, 3], vec![], sees(&[1]), Err(Some("mentorProgramIds[1]".to_owned()))),
            (vec![1, 3], vec![3], sees(&[1]), Ok(vec![1, 3])),
            (vec![1], vec![3], sees(&[1]), Err(Some("mentorProgramIds".to_owned()))),
            (vec![], vec![], sees(&[]), Ok(vec![])),
        ] {
            assert_eq!(field(check_named_programs(&requested, &before, &existing, &caller)), want);
        }
    }

    #[test]
    fn roles_are_deduplicated_in_order() {
        let mut c = Checks::default();
        let roles = dedupe_roles(
            "roles",
            &["Coordinator".into(), " coordinator".into(), "Administrator".into()],
            &mut c,
        );
        assert_eq!(roles, ["Coordinator", "Administrator"]);
        assert!(c.0.is_empty());
        dedupe_roles("roles", &[" ".into()], &mut c);
        assert!(c.0.contains_key("roles"));
    }

    #[test]
    fn permission_codes() {
        let mut c = Checks::default();
        let p = parse_permissions(
            &["user:read".into(), "USER:READ".into(), "budget:edit".into()],
            &mut c,
        );
        assert_eq!(p, [Permission::UserRead, Permission::BudgetEdit]);
        parse_permissions(&["user:fly".into()], &mut c);
        assert!(c.0["permissions"][0].contains("user:fly"));
    }

    #[test]
    fn administrator_keeps_everything() {
        assert!(check_role_permissions("Administrator", &[Permission::UserRead]).is_err());
        assert!(check_role_permissions("Administrator", Permission::ALL).is_ok());
        assert!(check_role_permissions("Auditor", &[Permission::UserRead]).is_ok());
    }

    #[test]
    fn role_deletion() {
        assert!(check_role_deletable(true, 0).is_err());
        assert!(check_role_deletable(false, 2).is_err());
        assert!(check_role_deletable(false, 0).is_ok());
    }

    #[test]
    fn admin_is_kept() {
        // (self, was admin, stays admin, other admins) -> allowed?
        let cases = [
            (true, true, false, 5, false),
            (false, true, false, 0, false),
            (false, true, false, 1, true),
            (true, true, true, 0, true),
            (false, false, false, 0, true),
            (true, false, true, 0, true),
        ];
        for (me, was, stays, others, ok) in cases {
            assert_eq!(
                check_admin_kept(me, was, stays, others).is_ok(),
                ok,
                "{me} {was} {stays} {others}"
            );
        }
    }

    #[test]
    fn nobody_grants_above_what_she_holds() {
        use Permission::*;
        let held: BTreeSet<Permission> = [UserRead, UserEdit, RoleEdit].into_iter().collect();
        let none = BTreeSet::new();
        let editor = Granter { administrator: false, permissions: &held };
        let admin = Granter { administrator: true, permissions: &none };
        // (granter, role name, its permissions) -> allowed?
        let cases: [(&Granter, &str, &[Permission], bool); 7] = [
            (&editor, "Reader", &[UserRead], true),
            (&editor, "Editor", &[UserRead, UserEdit], true),
            (&editor, "Budget", &[UserRead, BudgetEdit], false),
            (&editor, ADMINISTRATOR, &[UserRead], false),
            (&editor, "Empty", &[], true),
            (&admin, ADMINISTRATOR, Permission::ALL, true),
            (&admin, "Budget", &[BudgetEdit], true),
        ];
        for (by, name, permissions, ok) in cases {
            let verdict = check_roles_grantable(by, &[(name, permissions)]);
            assert_eq!(verdict.is_ok(), ok, "{name} {permissions:?}");
            if let Err(e) = verdict {
                assert!(matches!(e, ApiError::Forbidden(_)), "{e:?}");
            }
        }
        let e = check_permissions_grantable(&editor, [BudgetEdit, UserRead, BudgetEdit]);
        assert!(format!("{:?}", e.unwrap_err()).contains("budget:edit"));
        assert!(check_permissions_grantable(&editor, [UserEdit]).is_ok());
    }

    #[test]
    fn accounts_above_the_editor_stay_out_of_reach() {
        let held = BTreeSet::from([Permission::UserEdit]);
        let editor = Granter { administrator: false, permissions: &held };
        let admin = Granter { administrator: true, permissions: &held };
        let edit = |on_self, target_is_administrator, roles, email, off| AccountEdit {
            on_self,
            target_is_administrator,
            roles_changed: roles,
            email_changed: email,
            deactivates: off,
        };
        // (granter, edit) -> allowed?
        let cases = [
            (&editor, edit(true, false, true, false, false), false),
            (&admin, edit(true, true, true, false, false), false),
            (&editor, edit(true, false, false, true, false), true),
            (&editor, edit(false, true, false, true, false), false),
            (&editor, edit(false, true, true, false, false), false),
            (&editor, edit(false, true, false, false, true), false),
            (&editor, edit(false, true, false, false, false), true),
            (&admin, edit(false, true, true, true, true), true),
            (&editor, edit(false, false, true, true, true), true),
        ];
        for (i, (by, e, ok)) in cases.iter().enumerate() {
            assert_eq!(check_account_edit(by, e).is_ok(), *ok, "case {i}");
        }
    }

    #[test]
    fn only_an_administrator_helps_with_an_administrators_account() {
        let held = BTreeSet::from([Permission::UserEdit]);
        let admin = Granter { administrator: true, permissions: &held };
        let clerk = Granter { administrator: false, permissions: &held };
        // (by, target is an Administrator) -> allowed
        for (by, target, allowed) in [
            (&admin, true, true),
            (&admin, false, true),
            (&clerk, false, true),
            (&clerk, true, false),
        ] {
            assert_eq!(check_security_help(by, target).is_ok(), allowed);
        }
    }

    #[test]
    fn refresh_verdicts() {
        let now = Utc::now();
        let token = refresh_token::Model {
            id: 1,
            user_id: 1,
            family_id: "f".into(),
            token_hash: "h".into(),
            expires_at: now + Duration::hours(1),
            used_at: None,
            revoked_at: None,
            created_at: now,
            ip: None,
            user_agent: None,
        };
        assert_eq!(judge_refresh(&token, now), RefreshVerdict::Rotate);
        assert_eq!(
            judge_refresh(&refresh_token::Model { used_at: Some(now), ..token.clone() }, now),
            RefreshVerdict::Reused
        );
        assert_eq!(
            judge_refresh(&refresh_token::Model { revoked_at: Some(now), ..token.clone() }, now),
            RefreshVerdict::Refused
        );
        assert_eq!(
            judge_refresh(&refresh_token::Model { expires_at: now, ..token.clone() }, now),
            RefreshVerdict::Refused
        );
        // A spent *and* revoked token is simply refused (the family is already dead).
        assert_eq!(
            judge_refresh(
                &refresh_token::Model { used_at: Some(now), revoked_at: Some(now), ..token },
                now
            ),
            RefreshVerdict::Refused
        );
    }

    #[test]
    fn a_coordinator_who_sees_only_her_programs_needs_her_participant() {
        use Permission::ProgramReadAll;
        let none: &[Permission] = &[];
        let all: &[Permission] = &[ProgramReadAll];
        type Roles<'a> = &'a [(&'a str, &'a [Permission])];
        let cases: [(Roles, bool); 6] = [
            (&[("Coordinator", none)], true),
            (&[("Finance", none), ("Coordinator", none)], true),
            (&[("Coordinator", none), ("Auditor", all)], false),
            (&[("Administrator", none), ("Coordinator", none)], false),
            (&[("Finance", none)], false),
            (&[("Coordinator", all)], false),
        ];
        for (roles, needs) in cases {
            assert_eq!(needs_participant(roles), needs, "{roles:?}");
            let verdict = check_participant_named(roles, None);
            assert_eq!(verdict.is_err(), needs, "{roles:?}");
            if let Err(e) = verdict {
                assert!(matches!(e, ApiError::Unprocessable { .. }));
            }
            assert!(check_participant_named(roles, Some(7)).is_ok());
        }
    }

    #[test]
    fn a_lifetime_reads_in_days_hours_or_minutes() {
        use chrono::Duration;
        assert_eq!(validity_words(Duration::hours(72)), "3 days");
        assert_eq!(validity_words(Duration::hours(24)), "1 day");
        assert_eq!(validity_words(Duration::hours(1)), "1 hour");
        assert_eq!(validity_words(Duration::hours(30)), "30 hours");
        assert_eq!(validity_words(Duration::minutes(30)), "30 minutes");
    }
    #[test]
    fn a_login_is_created_only_within_what_the_caller_sees() {
        use crate::auth::scope::Scope;
        let mine = Scope::Programs([1, 2].into_iter().collect());
        // (scope, the participant's programs, sets a password) -> allowed?
        let cases = [
            (&Scope::All, &[1, 9][..], true, true),
            (&mine, &[1][..], false, true),
            (&mine, &[1, 2][..], false, true),
            (&mine, &[1][..], true, false),
            (&mine, &[1, 9][..], false, false),
            (&mine, &[][..], false, true),
        ];
        for (scope, programs, password, ok) in cases {
            let verdict = check_login_creatable(scope, programs, password);
            assert_eq!(verdict.is_ok(), ok, "{programs:?} {password}");
            if let Err(e) = verdict {
                assert!(matches!(e, ApiError::Forbidden(_)));
            }
        }
    }

    #[test]
    fn an_invitation_goes_again_only_to_an_active_account_without_a_password() {
        assert!(check_invitation_resendable(true, false).is_ok());
        assert!(matches!(
            check_invitation_resendable(false, false),
            Err(ApiError::Unprocessable { .. })
        ));
        assert!(matches!(check_invitation_resendable(true, true), Err(ApiError::Conflict(_))));
    }
}
