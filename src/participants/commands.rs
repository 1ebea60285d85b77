//! Every action that changes participants and their participations, one function each. A
//! command owns its transaction: the caller's scope, the rows and the references are read
//! inside it, and its activity entries are written there before the commit. Handlers check
//! the body (`rules`), call one command, render.

use sea_orm::{DatabaseConnection, EntityTrait};
use serde_json::{json, Value};

use super::{
    import::{
        self,
        dto::{ImportItem, ImportReport},
    },
    rules::{self, CleanParticipant, CleanParticipation, PersonFields},
    store,
};
use crate::{
    activity,
    auth::{scope::scope_of, CurrentUser},
    entities::{participant, participation},
    error::{ApiError, ApiResult, Checks},
};

/// The activity entry of a participation, named by what happened to it, with its fields
/// before and after (null where it did not exist).
async fn note_participation(
    txn: &impl sea_orm::ConnectionTrait,
    me: &CurrentUser,
    action: &str,
    (before, after): (Option<&participation::Model>, Option<&participation::Model>),
    data: Value,
) -> ApiResult<()> {
    let fields = |p: Option<&participation::Model>| {
        p.map_or(Value::Null, |p| json!(store::participation_dto(p.clone())))
    };
    let id = after.or(before).map_or(0, |p| p.id);
    let change = (&fields(before), &fields(after));
    activity::note_change(txn, (store::PARTICIPATION_ENTITY, id), action, &me.into(), change, data)
        .await
}

/// The activity entry of a participant, with its own fields before and after.
async fn note_participant(
    txn: &impl sea_orm::ConnectionTrait,
    me: &CurrentUser,
    (id, action): (i32, &str),
    (before, after): (Option<PersonFields>, Option<PersonFields>),
    data: Value,
) -> ApiResult<()> {
    let fields = |p: Option<PersonFields>| p.map_or(Value::Null, |p| p.json());
    let change = (&fields(before), &fields(after));
    activity::note_change(txn, ("participant", id), action, &me.into(), change, data).await
}

/// A stored participant's own fields, its link lists read.
async fn person_of(
    txn: &impl sea_orm::ConnectionTrait,
    p: participant::Model,
) -> ApiResult<PersonFields> {
    Ok(PersonFields::from(&store::dto(txn, p, &crate::auth::scope::Scope::All).await?))
}

/// A new participant with its first participations.
pub async fn create(
    db: &DatabaseConnection,
    me: &CurrentUser,
    clean: &CleanParticipant,
    participations: &[CleanParticipation],
) -> ApiResult<participant::Model> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let scope = scope_of(&txn, me).await?;
    let programs: Vec<i32> = participations.iter().map(|p| p.mentor_program_id).collect();
    rules::check_creation_scope(&scope, &programs)?;
    let mut checks = Checks::default();
    store::check_participant_refs(&txn, clean, &mut checks).await?;
    for (i, p) in participations.iter().enumerate() {
        store::check_participation_refs(&txn, &format!("participations[{i}]."), p, &mut checks)
            .await?;
    }
    checks.finish_rules()?; // references to stored rows: rules
    if store::email_taken(&txn, &clean.email, None).await? {
        return Err(ApiError::Conflict(store::EMAIL_TAKEN.into()));
    }
    let created = store::insert_participant(&txn, clean, Some(me.id()), now).await?;
    for p in participations {
        let pn = store::insert_participation(&txn, created.id, p, now).await?;
        let data = json!({"participantId": created.id, "mentorProgramId": pn.mentor_program_id, "fiscalYearId": pn.fiscal_year_id, "roleCode": pn.role_code});
        note_participation(&txn, me, "created", (None, Some(&pn)), data).await?;
    }
    store::refresh_program_keys(&txn, created.id).await?;
    let data = json!({"email": created.email, "fullName": created.full_name, "status": created.status, "roleCode": created.role_code});
    let after = Some(PersonFields::from(clean));
    note_participant(&txn, me, (created.id, "created"), (None, after), data).await?;
    txn.commit().await?;
    Ok(created)
}

/// An edit based on `version` (the one the caller read: a later one is a 409).
pub async fn update(
    db: &DatabaseConnection,
    me: &CurrentUser,
    id: i32,
    version: i32,
    clean: &CleanParticipant,
) -> ApiResult<participant::Model> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let scope = scope_of(&txn, me).await?;
    let existing = store::get_visible(&txn, &scope, id).await?;
    let mut checks = Checks::default();
    store::check_participant_refs(&txn, clean, &mut checks).await?;
    checks.finish_rules()?; // references to stored rows: rules
    if store::email_taken(&txn, &clean.email, Some(existing.id)).await? {
        return Err(ApiError::Conflict(store::EMAIL_TAKEN.into()));
    }
    let before = person_of(&txn, existing.clone()).await?;
    if !store::update_participant(&txn, existing.id, version, clean, me.id(), now).await? {
        return Err(ApiError::Stale(format!(
            "The participant was changed by someone else (version {} now, yours {version}); reload and try again.",
            existing.version
        )));
    }
    let data = json!({
        "fromVersion": version, "email": clean.email, "fullName": clean.full_name(),
        "status": clean.status, "roleCode": clean.role,
    });
    let change = (Some(before), Some(PersonFields::from(clean)));
    note_participant(&txn, me, (existing.id, "updated"), change, data).await?;
    let updated = participant::Entity::find_by_id(existing.id)
        .one(&txn)
        .await?
        .ok_or_else(|| ApiError::not_found("The participant"))?;
    txn.commit().await?;
    Ok(updated)
}

/// Soft delete: the participant answers 404 from now on.
pub async fn delete(db: &DatabaseConnection, me: &CurrentUser, id: i32) -> ApiResult<()> {
    let txn = crate::db::write(db).await?;
    let scope = scope_of(&txn, me).await?;
    let existing = store::get_visible(&txn, &scope, id).await?;
    let before = person_of(&txn, existing.clone()).await?;
    if !store::soft_delete(&txn, existing.id, me.id(), crate::clock::now()).await? {
        return Err(ApiError::not_found("The participant"));
    }
    let data = json!({"email": existing.email, "fullName": existing.full_name});
    note_participant(&txn, me, (existing.id, "deleted"), (Some(before), None), data).await?;
    txn.commit().await?;
    Ok(())
}

pub async fn add_participation(
    db: &DatabaseConnection,
    me: &CurrentUser,
    participant_id: i32,
    clean: &CleanParticipation,
) -> ApiResult<participation::Model> {
    let txn = crate::db::write(db).await?;
    let scope = scope_of(&txn, me).await?;
    let participant = store::get_visible(&txn, &scope, participant_id).await?;
    scope.require_program(clean.mentor_program_id, "mentorProgramId")?;
    let mut checks = Checks::default();
    store::check_participation_refs(&txn, "", clean, &mut checks).await?;
    checks.finish_rules()?; // references to stored rows: rules
    let created =
        store::insert_participation(&txn, participant.id, clean, crate::clock::now()).await?;
    store::refresh_program_keys(&txn, participant.id).await?;
    let data = json!({"participantId": participant.id, "mentorProgramId": created.mentor_program_id, "fiscalYearId": created.fiscal_year_id, "roleCode": created.role_code});
    note_participation(&txn, me, "created", (None, Some(&created)), data).await?;
    txn.commit().await?;
    Ok(created)
}

pub async fn update_participation(
    db: &DatabaseConnection,
    me: &CurrentUser,
    (participant_id, participation_id): (i32, i32),
    clean: &CleanParticipation,
) -> ApiResult<participation::Model> {
    let txn = crate::db::write(db).await?;
    let scope = scope_of(&txn, me).await?;
    // Both the program it leaves and the one it moves to must be the caller's.
    let (participant, existing) =
        store::visible_participation(&txn, &scope, participant_id, participation_id).await?;
    scope.require_program(clean.mentor_program_id, "mentorProgramId")?;
    let mut checks = Checks::default();
    store::check_participation_refs(&txn, "", clean, &mut checks).await?;
    checks.finish_rules()?; // references to stored rows: rules
    let updated = store::update_participation(&txn, existing.clone(), clean).await?;
    store::refresh_program_keys(&txn, participant.id).await?;
    let data = json!({
        "participantId": participant.id,
        "from": {"mentorProgramId": existing.mentor_program_id, "fiscalYearId": existing.fiscal_year_id, "roleCode": existing.role_code},
        "to": {"mentorProgramId": updated.mentor_program_id, "fiscalYearId": updated.fiscal_year_id, "roleCode": updated.role_code},
    });
    note_participation(&txn, me, "updated", (Some(&existing), Some(&updated)), data).await?;
    txn.commit().await?;
    Ok(updated)
}

pub async fn delete_participation(
    db: &DatabaseConnection,
    me: &CurrentUser,
    (participant_id, participation_id): (i32, i32),
) -> ApiResult<()> {
    let txn = crate::db::write(db).await?;
    let scope = scope_of(&txn, me).await?;
    let (participant, existing) =
        store::visible_participation(&txn, &scope, participant_id, participation_id).await?;
    store::delete_participation(&txn, existing.clone()).await?;
    store::refresh_program_keys(&txn, participant.id).await?;
    let data =
        json!({"participantId": participant.id, "mentorProgramId": existing.mentor_program_id});
    note_participation(&txn, me, "deleted", (Some(&existing), None), data).await?;
    txn.commit().await?;
    Ok(())
}

/// Brings in a read sheet: every row judged against the participants as they stand, then,
/// unless `dry_run` or any row has errors, every row written in this one transaction (all
/// or none). A dry run reads without taking the write lock and writes nothing.
pub async fn import(
    db: &DatabaseConnection,
    me: &CurrentUser,
    sheet: &import::file::Sheet,
    dry_run: bool,
) -> ApiResult<ImportReport> {
    let columns = import::rules::check_header(&sheet.header)?;
    if dry_run {
        let (planned, errors) = plan_import(db, me, sheet, &columns).await?;
        return Ok(import_report(sheet, &planned, errors, true));
    }
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let (planned, errors) = plan_import(&txn, me, sheet, &columns).await?;
    if !errors.is_empty() {
        return Ok(import_report(sheet, &planned, errors, false));
    }
    for p in &planned {
        let id = match p.existing {
            None => {
                let created =
                    store::insert_participant(&txn, &p.person, Some(me.id()), now).await?;
                let data = json!({"email": created.email, "fullName": created.full_name, "status": created.status, "roleCode": created.role_code, "imported": true});
                let after = Some(PersonFields::from(&p.person));
                note_participant(&txn, me, (created.id, "created"), (None, after), data).await?;
                created.id
            }
            Some((id, version)) => {
                if p.person_changes {
                    if !store::update_participant(&txn, id, version, &p.person, me.id(), now)
                        .await?
                    {
                        return Err(ApiError::Conflict(format!(
                            "The participant {} was changed meanwhile; nothing was imported. Try again.",
                            p.person.email
                        )));
                    }
                    let data = json!({"fromVersion": version, "email": p.person.email, "fullName": p.person.full_name(), "status": p.person.status, "roleCode": p.person.role, "imported": true});
                    let change = (p.stored.clone(), Some(PersonFields::from(&p.person)));
                    note_participant(&txn, me, (id, "updated"), change, data).await?;
                }
                id
            }
        };
        if let Some(t) = p.taking.as_ref().filter(|_| p.adds_taking) {
            let pn = store::insert_participation(&txn, id, t, now).await?;
            let data = json!({"participantId": id, "mentorProgramId": pn.mentor_program_id, "fiscalYearId": pn.fiscal_year_id, "roleCode": pn.role_code, "imported": true});
            note_participation(&txn, me, "created", (None, Some(&pn)), data).await?;
            store::refresh_program_keys(&txn, id).await?;
        }
    }
    txn.commit().await?;
    Ok(import_report(sheet, &planned, Vec::new(), false))
}

/// Every row judged, from what `db` holds now.
async fn plan_import(
    db: &impl sea_orm::ConnectionTrait,
    me: &CurrentUser,
    sheet: &import::file::Sheet,
    columns: &import::rules::Columns,
) -> ApiResult<(Vec<import::rules::Planned>, Vec<import::rules::RowError>)> {
    let scope = scope_of(db, me).await?;
    let known = import::rules::Known::new(&import::store::lists(db).await?);
    let existing = import::store::existing(db, &import::rules::emails(sheet, columns)).await?;
    Ok(import::rules::plan(sheet, columns, &known, &scope, &existing))
}

fn import_report(
    sheet: &import::file::Sheet,
    planned: &[import::rules::Planned],
    errors: Vec<import::rules::RowError>,
    dry_run: bool,
) -> ImportReport {
    use import::rules::Outcome;
    let count = |o: Outcome| planned.iter().filter(|p| p.outcome == o).count();
    ImportReport {
        rows: sheet.rows.len(),
        created: count(Outcome::Created),
        updated: count(Outcome::Updated),
        unchanged: count(Outcome::Unchanged),
        errors,
        items: planned
            .iter()
            .map(|p| ImportItem {
                row: p.row,
                email: p.person.email.clone(),
                full_name: p.person.full_name(),
                outcome: p.outcome,
            })
            .collect(),
        dry_run,
    }
}
