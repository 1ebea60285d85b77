//! Participant queries. Callers pass a connection or a transaction.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{
    sea_query::{Alias, BinOper, Expr, ExprTrait, Func, LikeExpr, LockType, Query, SimpleExpr},
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DbBackend, EntityTrait,
    FromQueryResult, Order, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, QueryTrait, Set,
};

use super::{
    dto::SortBy,
    dto::{ParticipantDto, ParticipantListItem, ParticipationDto},
    rules::{
        self, CleanParticipant, CleanParticipation, DistrictSetType, LinkIds, ParticipantRole,
        ParticipantStatus,
    },
};
use crate::{
    auth::scope::Scope,
    entities::{participant, participation},
    error::Checks,
    error::{ApiError, ApiResult},
    reference,
    web::{count_at_most, count_rows_at_most, Page, Paging},
};

/// The entity type of a participation's activity and audit entries.
pub const PARTICIPATION_ENTITY: &str = "participation";

pub const EMAIL_TAKEN: &str = "A participant with this e-mail already exists.";

/// The many-to-many reference links: (table, reference column, reference table, body field).
pub const LINKS: [(&str, &str, &str, &str); 4] = [
    (
        "participant_workplace_settings",
        "workplace_setting_id",
        "workplace_settings",
        "workplaceSettingIds",
    ),
    ("participant_languages", "language_id", "languages", "languageIds"),
    ("participant_education_levels", "education_level_id", "education_levels", "educationLevelIds"),
    ("participant_permit_levels", "permit_level_id", "permit_levels", "permitLevelIds"),
];

fn a(s: &str) -> Alias {
    Alias::new(s)
}

/// The link lists in the order of `LINKS`.
fn link_ids(l: &LinkIds) -> [&[i32]; 4] {
    [&l.workplace_setting_ids, &l.language_ids, &l.education_level_ids, &l.permit_level_ids]
}

/// Participants with a live participation in any of `programs` (through `program_keys`,
/// which the list's covering index holds).
fn in_programs(programs: &[i32]) -> Condition {
    programs.iter().fold(Condition::any(), |c, p| {
        c.add(Expr::col(participant::Column::ProgramKeys).like(rules::program_key_pattern(*p)))
    })
}

/// Sets `program_keys` from the live participations; called in the transaction of every
/// participation change. The participant row is locked first (PostgreSQL; SQLite writes
/// one at a time anyway) so two changes at once cannot each miss the other's program;
/// NO KEY UPDATE, because inserting a participation already holds KEY SHARE on the row.
pub async fn refresh_program_keys(db: &impl ConnectionTrait, participant_id: i32) -> ApiResult<()> {
    participant::Entity::find_by_id(participant_id)
        .select_only()
        .column(participant::Column::Id)
        .lock(LockType::NoKeyUpdate)
        .into_tuple::<i32>()
        .one(db)
        .await?;
    let keys = rules::program_keys(&live_programs(db, participant_id).await?);
    participant::Entity::update_many()
        .col_expr(participant::Column::ProgramKeys, Expr::value(keys))
        .filter(participant::Column::Id.eq(participant_id))
        .exec(db)
        .await?;
    Ok(())
}

pub use crate::auth::scope::live_programs;

/// A live participant the caller may see; 404 otherwise (existence is not revealed).
pub async fn get_visible(
    db: &impl ConnectionTrait,
    scope: &Scope,
    id: i32,
) -> ApiResult<participant::Model> {
    let not_found = || ApiError::not_found("The participant");
    let p = participant::Entity::find_by_id(id)
        .filter(participant::Column::DeletedAt.is_null())
        .one(db)
        .await?
        .ok_or_else(not_found)?;
    if !scope.is_all() && !scope.sees_participant(&live_programs(db, id).await?) {
        return Err(not_found());
    }
    Ok(p)
}

pub async fn email_taken(
    db: &impl ConnectionTrait,
    email: &str,
    except: Option<i32>,
) -> ApiResult<bool> {
    let mut q = participant::Entity::find()
        .filter(participant::Column::Email.eq(email))
        .filter(participant::Column::DeletedAt.is_null());
    if let Some(id) = except {
        q = q.filter(participant::Column::Id.ne(id));
    }
    Ok(q.count(db).await? > 0)
}

/// 400 naming every field whose reference ids do not exist.
pub async fn check_participant_refs(
    db: &impl ConnectionTrait,
    p: &CleanParticipant,
    checks: &mut Checks,
) -> ApiResult<()> {
    if let Some(id) = p.caucus_region_id {
        reference::store::check_ids(db, checks, "caucusRegionId", "caucus_regions", &[id]).await?;
    }
    for ((_, _, table, field), ids) in LINKS.iter().zip(link_ids(&p.links)) {
        reference::store::check_ids(db, checks, field, table, ids).await?;
    }
    Ok(())
}

pub async fn check_participation_refs(
    db: &impl ConnectionTrait,
    prefix: &str,
    p: &CleanParticipation,
    checks: &mut Checks,
) -> ApiResult<()> {
    reference::store::check_ids(
        db,
        checks,
        &format!("{prefix}mentorProgramId"),
        "mentor_programs",
        &[p.mentor_program_id],
    )
    .await?;
    reference::store::check_ids(
        db,
        checks,
        &format!("{prefix}fiscalYearId"),
        "fiscal_years",
        &[p.fiscal_year_id],
    )
    .await?;
    if let Some(college) = p.college_id {
        reference::store::check_ids(
            db,
            checks,
            &format!("{prefix}collegeId"),
            "colleges",
            &[college],
        )
        .await?;
    }
    Ok(())
}

fn apply(active: &mut participant::ActiveModel, p: &CleanParticipant) {
    active.first_name = Set(p.first_name.clone());
    active.last_name = Set(p.last_name.clone());
    active.full_name = Set(p.full_name());
    active.sort_name = Set(p.sort_name());
    active.email = Set(p.email.clone());
    active.phone = Set(p.phone.clone());
    active.address = Set(p.address.clone());
    active.status = Set(p.status);
    active.role_code = Set(p.role);
    active.district_set_type = Set(p.district.map(|(t, _)| t));
    active.district_id = Set(p.district.map(|(_, n)| n));
    active.caucus_region_id = Set(p.caucus_region_id);
}

pub async fn insert_participant(
    db: &impl ConnectionTrait,
    p: &CleanParticipant,
    actor: Option<i32>,
    now: DateTime<Utc>,
) -> ApiResult<participant::Model> {
    let mut active = participant::ActiveModel {
        version: Set(1),
        deleted_at: Set(None),
        created_by: Set(actor),
        updated_by: Set(actor),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    };
    apply(&mut active, p);
    let created =
        active.insert(db).await.map_err(|e| ApiError::unique_or_internal(e, EMAIL_TAKEN))?;
    set_links(db, created.id, p, false).await?;
    Ok(created)
}

/// One conditional update: only the live row at `version` changes; false otherwise.
pub async fn update_participant(
    db: &impl ConnectionTrait,
    id: i32,
    version: i32,
    p: &CleanParticipant,
    actor: i32,
    now: DateTime<Utc>,
) -> ApiResult<bool> {
    let mut active = participant::ActiveModel {
        version: Set(version + 1),
        updated_by: Set(Some(actor)),
        updated_at: Set(now),
        ..Default::default()
    };
    apply(&mut active, p);
    let result = participant::Entity::update_many()
        .set(active)
        .filter(participant::Column::Id.eq(id))
        .filter(participant::Column::Version.eq(version))
        .filter(participant::Column::DeletedAt.is_null())
        .exec(db)
        .await
        .map_err(|e| ApiError::unique_or_internal(e, EMAIL_TAKEN))?;
    if result.rows_affected == 1 {
        set_links(db, id, p, true).await?;
    }
    Ok(result.rows_affected == 1)
}

pub async fn soft_delete(
    db: &impl ConnectionTrait,
    id: i32,
    actor: i32,
    now: DateTime<Utc>,
) -> ApiResult<bool> {
    let result = participant::Entity::update_many()
        .col_expr(participant::Column::DeletedAt, Expr::value(now))
        .col_expr(participant::Column::UpdatedAt, Expr::value(now))
        .col_expr(participant::Column::UpdatedBy, Expr::value(actor))
        .col_expr(participant::Column::Version, Expr::col(participant::Column::Version).add(1))
        .filter(participant::Column::Id.eq(id))
        .filter(participant::Column::DeletedAt.is_null())
        .exec(db)
        .await?;
    Ok(result.rows_affected == 1)
}

async fn set_links(
    db: &impl ConnectionTrait,
    id: i32,
    p: &CleanParticipant,
    replace: bool,
) -> ApiResult<()> {
    for ((table, column, _, _), ids) in LINKS.iter().zip(link_ids(&p.links)) {
        if replace {
            let delete = Query::delete()
                .from_table(a(table))
                .and_where(Expr::col(a("participant_id")).eq(id))
                .to_owned();
            db.execute(&delete).await?;
        }
        if ids.is_empty() {
            continue;
        }
        let mut insert = Query::insert();
        insert.into_table(a(table)).columns([a("participant_id"), a(column)]);
        for rid in ids {
            insert.values_panic([id.into(), (*rid).into()]);
        }
        db.execute(&insert).await?;
    }
    Ok(())
}

// ---- participations ----

pub async fn insert_participation(
    db: &impl ConnectionTrait,
    participant_id: i32,
    p: &CleanParticipation,
    now: DateTime<Utc>,
) -> ApiResult<participation::Model> {
    Ok(participation::ActiveModel {
        participant_id: Set(participant_id),
        mentor_program_id: Set(p.mentor_program_id),
        fiscal_year_id: Set(p.fiscal_year_id),
        role_code: Set(p.role),
        college_id: Set(p.college_id),
        start_date: Set(p.start_date),
        end_date: Set(p.end_date),
        deleted_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?)
}

/// A live participation of that participant; 404 otherwise.
pub async fn get_participation(
    db: &impl ConnectionTrait,
    participant_id: i32,
    id: i32,
) -> ApiResult<participation::Model> {
    participation::Entity::find_by_id(id)
        .filter(participation::Column::ParticipantId.eq(participant_id))
        .filter(participation::Column::DeletedAt.is_null())
        .one(db)
        .await?
        .ok_or_else(|| ApiError::not_found("The participation"))
}

/// A live participation of a participant the caller sees, in a program the caller may touch
/// (404 otherwise): the participant and the participation.
pub async fn visible_participation(
    db: &impl ConnectionTrait,
    scope: &Scope,
    participant_id: i32,
    id: i32,
) -> ApiResult<(participant::Model, participation::Model)> {
    let participant = get_visible(db, scope, participant_id).await?;
    let existing = get_participation(db, participant.id, id).await?;
    if !scope.allows_program(existing.mentor_program_id) {
        return Err(ApiError::not_found("The participation"));
    }
    Ok((participant, existing))
}

pub fn participation_dto(p: participation::Model) -> ParticipationDto {
    ParticipationDto {
        id: p.id,
        participant_id: p.participant_id,
        mentor_program_id: p.mentor_program_id,
        fiscal_year_id: p.fiscal_year_id,
        role_code: p.role_code.code().to_owned(),
        college_id: p.college_id,
        start_date: p.start_date,
        end_date: p.end_date,
    }
}

// ---- reading ----

/// Full DTOs of the participants `select` finds, in its order, in one statement: each row
/// carries its four link lists ("3,7"), its login and its live participations (JSON). Rows
/// cross from SQLite's worker thread one at a time, each about as dear as a small statement:
/// a page's ~150 link and ~40 participation rows were most of a list call (docs/decisions-speed.md).
/// Participations in programs outside `scope` are left out: a participant shared with
/// another program does not show a Coordinator that program's college and dates.
pub async fn dtos(
    db: &impl ConnectionTrait,
    select: sea_orm::Select<participant::Entity>,
    scope: &Scope,
) -> ApiResult<Vec<ParticipantDto>> {
    let mut select = select;
    // The lists and participations are put in order here: an ORDER BY inside the aggregates
    // costs SQLite a sorter per list and row, half of the statement (docs/benchmarks.md).
    for (i, (table, column, _, _)) in LINKS.iter().enumerate() {
        // string_agg: PostgreSQL, and SQLite since 3.44 (the bundled one is newer).
        let ids = format!(
            r#"(SELECT string_agg(CAST({column} AS TEXT), ',') FROM {table} WHERE participant_id = "participants"."id")"#
        );
        select = select.expr_as(Expr::cust(ids), format!("link_{i}"));
    }
    select = select.expr_as(
        Expr::cust(r#"(SELECT MIN(id) FROM users WHERE participant_id = "participants"."id")"#),
        "login",
    );
    select = select
        .expr_as(Expr::cust(participations_json(db.get_database_backend())), "participations");
    let rows = db.query_all(&select.into_query()).await?;
    rows.iter()
        .map(|row| {
            let p = participant::Model::from_query_result(row, "")?;
            let link = |i: usize| -> ApiResult<Vec<i32>> {
                let listed: Option<String> = row.try_get("", &format!("link_{i}"))?;
                let mut ids = listed
                    .as_deref()
                    .unwrap_or_default()
                    .split(',')
                    .filter(|id| !id.is_empty())
                    .map(|id| id.parse().map_err(|_| ApiError::Internal(format!("link id {id:?}"))))
                    .collect::<ApiResult<Vec<i32>>>()?;
                ids.sort_unstable();
                Ok(ids)
            };
            let mut participations: Vec<ParticipationDto> = match row
                .try_get::<Option<String>>("", "participations")?
            {
                Some(json) => serde_json::from_str(&json)
                    .map_err(|e| ApiError::Internal(format!("participations of {}: {e}", p.id)))?,
                None => Vec::new(),
            };
            participations.retain(|x| scope.allows_program(x.mentor_program_id));
            participations.sort_unstable_by_key(|x| (x.start_date, x.id));
            Ok(ParticipantDto {
                participations,
                identity_user_id: row.try_get("", "login")?,
                workplace_setting_ids: link(0)?,
                language_ids: link(1)?,
                education_level_ids: link(2)?,
                permit_level_ids: link(3)?,
                id: p.id,
                first_name: p.first_name,
                last_name: p.last_name,
                full_name: p.full_name,
                email: p.email,
                phone: p.phone,
                address: p.address,
                status: p.status.code().to_owned(),
                role_code: p.role_code.code().to_owned(),
                district_set_type: p.district_set_type.map(|t| t.code().to_owned()),
                district_id: p.district_id,
                caucus_region_id: p.caucus_region_id,
                version: p.version,
                created_at: p.created_at,
                updated_at: p.updated_at,
            })
        })
        .collect()
}

/// A participant's live participations as a JSON array of [`ParticipationDto`]s, read
/// with its row (NULL when it has none on PostgreSQL).
fn participations_json(backend: DbBackend) -> String {
    let fields = [
        ("id", "id"),
        ("participantId", "participant_id"),
        ("mentorProgramId", "mentor_program_id"),
        ("fiscalYearId", "fiscal_year_id"),
        ("roleCode", "role_code"),
        ("collegeId", "college_id"),
        ("startDate", "start_date"),
        ("endDate", "end_date"),
    ]
    .map(|(key, column)| format!("'{key}', {column}"))
    .join(", ");
    let (array, object, text) = match backend {
        DbBackend::Postgres => ("json_agg", "json_build_object", "::text"),
        _ => ("json_group_array", "json_object", ""),
    };
    format!(
        r#"(SELECT {array}({object}({fields})){text} FROM participations WHERE participant_id = "participants"."id" AND deleted_at IS NULL)"#
    )
}

pub async fn dto(
    db: &impl ConnectionTrait,
    p: participant::Model,
    scope: &Scope,
) -> ApiResult<ParticipantDto> {
    dtos(db, participant::Entity::find_by_id(p.id), scope)
        .await?
        .pop()
        .ok_or_else(|| ApiError::Internal("participant vanished".into()))
}

/// The checked filters of `GET /participants`.
#[derive(Debug, Default)]
pub struct Filters {
    pub mentor_program_id: Option<i32>,
    pub role: Option<ParticipantRole>,
    /// Part of the full name, of the e-mail (trimmed, not empty).
    pub name: Option<String>,
    pub email: Option<String>,
    pub status: Option<ParticipantStatus>,
    pub district_set_type: Option<DistrictSetType>,
    pub district_id: Option<i32>,
    /// Per link table (LINKS order): participants linked to any of these ids.
    pub link_ids: [Vec<i32>; 4],
    pub sort_by: SortBy,
    pub descending: bool,
}

pub async fn list(
    db: &impl ConnectionTrait,
    scope: &Scope,
    f: &Filters,
    paging: Paging,
) -> ApiResult<Page<ParticipantDto>> {
    // The filters; the live test joins them below, once it is known whether there are any.
    let mut cond = Condition::all();
    if let Some(programs) = scope.program_ids() {
        if programs.is_empty() {
            return Ok(Page::new(Vec::new(), paging, 0));
        }
        cond = cond.add(in_programs(&programs));
    }
    if let Some(program) = f.mentor_program_id {
        cond = cond.add(in_programs(&[program]));
    }
    if let Some(role) = f.role {
        cond = cond.add(participant::Column::RoleCode.eq(role));
    }
    // Trigram phrases (SQLite, three characters and more) go to the search index together;
    // the same tests on the row serve a page walking the sort index.
    let mut phrases = Vec::new();
    let mut on_rows = Condition::all();
    for (what, text) in [(Searched::Name, &f.name), (Searched::Email, &f.email)] {
        match text.as_deref().map(|t| search_condition(db.get_database_backend(), what, t)) {
            Some(Search::Where(e)) => cond = cond.add(e),
            Some(Search::Trigrams { phrase, on_row }) => {
                phrases.push(phrase);
                on_rows = on_rows.add(on_row);
            }
            None => {}
        }
    }
    if let Some(status) = f.status {
        cond = cond.add(participant::Column::Status.eq(status));
    }
    if let Some(t) = f.district_set_type {
        cond = cond.add(participant::Column::DistrictSetType.eq(t));
    }
    if let Some(d) = f.district_id {
        cond = cond.add(participant::Column::DistrictId.eq(d));
    }
    for ((table, column, _, _), ids) in LINKS.iter().zip(&f.link_ids) {
        if !ids.is_empty() {
            let sub = Query::select()
                .column(a("participant_id"))
                .from(a(table))
                .and_where(Expr::col(a(column)).is_in(ids.clone()))
                .to_owned();
            cond = cond.add(participant::Column::Id.in_subquery(sub));
        }
    }
    let unfiltered = cond.is_empty();
    let cond = cond.add(participant::Column::DeletedAt.is_null());
    let matched = (!phrases.is_empty()).then(|| phrases.join(" AND "));
    let total = match &matched {
        // The index holds live participants only (migration 000131): with no other filter
        // its matches are the count, without reading rows.
        Some(m) if unfiltered => {
            count_rows_at_most(db, search_matches(m), paging.count_limit()).await?
        }
        Some(m) => {
            count_rows_at_most(
                db,
                search_join(m, cond.clone()).expr(Expr::val(1)).to_owned(),
                paging.count_limit(),
            )
            .await?
        }
        None => {
            count_at_most(
                db,
                participant::Entity::find().filter(cond.clone()),
                paging.count_limit(),
            )
            .await?
        }
    };
    let order = if f.descending { Order::Desc } else { Order::Asc };
    let column = match f.sort_by {
        SortBy::FullName => participant::Column::SortName,
        SortBy::Email => participant::Column::Email,
        SortBy::Status => participant::Column::Status,
        SortBy::RoleCode => participant::Column::RoleCode,
        SortBy::UpdatedAt => participant::Column::UpdatedAt,
    };
    let rows = match &matched {
        // Few matches (all counted): sort those.
        Some(m) if total.exact => {
            let ids = search_join(m, cond)
                .column((participant::Entity, participant::Column::Id))
                .order_by((participant::Entity, column), order.clone())
                .order_by((participant::Entity, participant::Column::Id), order.clone())
                .offset(paging.offset())
                .limit(paging.size)
                .to_owned();
            let ids: Vec<i32> = db
                .query_all(&ids)
                .await?
                .iter()
                .map(|r| r.try_get_by_index(0))
                .collect::<Result<_, _>>()?;
            participant::Entity::find()
                .filter(participant::Column::Id.is_in(ids))
                .order_by(column, order.clone())
                .order_by(participant::Column::Id, order)
        }
        // Many: walk the sort index testing each row, which stops after a page of matches
        // where `id IN (matches)` first read every match of the index (thousands for a
        // common name, docs/decisions-speed.md).
        _ => participant::Entity::find()
            .filter(cond)
            .filter(on_rows)
            .order_by(column, order.clone())
            .order_by(participant::Column::Id, order)
            .offset(paging.offset())
            .limit(paging.size),
    };
    Ok(Page::counted(dtos(db, rows, scope).await?, paging, total))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Searched {
    Name,
    Email,
}

/// How a name or e-mail part is searched.
enum Search {
    /// A condition on the participant row.
    Where(SimpleExpr),
    /// An FTS5 phrase for the SQLite trigram index (`rules::fts_phrase`), and the same test
    /// on the row (LIKE on the folded name or the e-mail).
    Trigrams { phrase: String, on_row: SimpleExpr },
}

/// The search index's matches of `phrases` (FTS5 syntax, `AND`-joined), one `1` each.
fn search_matches(phrases: &str) -> sea_orm::sea_query::SelectStatement {
    Query::select()
        .expr(Expr::val(1))
        .from(a("participant_search"))
        .and_where(Expr::cust_with_values("participant_search MATCH ?", [phrases.to_owned()]))
        .to_owned()
}

/// The live participants matching `phrases` and `cond`, driven from the index's matches:
/// each match reads its one participant row by id (CROSS JOIN keeps that order on SQLite),
/// where `id IN (matches)` had the planner walk every participant's index entry probing
/// the match list (docs/decisions-speed.md). Without its select list.
fn search_join(phrases: &str, cond: Condition) -> sea_orm::sea_query::SelectStatement {
    let search = a("participant_search");
    Query::select()
        .from(search.clone())
        .cross_join(participant::Entity)
        .and_where(
            Expr::col((participant::Entity, participant::Column::Id)).equals((search, a("rowid"))),
        )
        .and_where(Expr::cust_with_values("participant_search MATCH ?", [phrases.to_owned()]))
        .cond_where(cond)
        .to_owned()
}

/// Participants whose name or e-mail contains `text`, case- and accent-insensitively,
/// through the search index of migration 000081: FTS5 trigrams on SQLite, pg_trgm over
/// `mentorpay_fold(…)` on PostgreSQL. Trigrams cannot look up fewer than three
/// characters; such short parts scan the folded name (`rules::fold`) or the lower-case
/// e-mail on SQLite and are answered by the same LIKE on PostgreSQL.
fn search_condition(backend: DbBackend, what: Searched, text: &str) -> Search {
    let (column, folded, fts_column) = match what {
        Searched::Name => {
            (participant::Column::FullName, participant::Column::SortName, "full_name")
        }
        Searched::Email => (participant::Column::Email, participant::Column::Email, "email"),
    };
    if backend == DbBackend::Postgres {
        let fold =
            |e: SimpleExpr| SimpleExpr::from(Func::cust(Alias::new("mentorpay_fold")).arg(e));
        // PostgreSQL's LIKE escapes with a backslash, as contains_pattern writes.
        return Search::Where(
            fold(Expr::col((participant::Entity, column)))
                .binary(BinOper::Like, fold(Expr::val(rules::search_pattern(text)))),
        );
    }
    let on_row = Expr::col((participant::Entity, folded))
        .like(LikeExpr::new(rules::search_pattern(text)).escape('\\'));
    if text.chars().count() < 3 {
        return Search::Where(on_row);
    }
    Search::Trigrams { phrase: rules::fts_phrase(fts_column, text), on_row }
}

/// Checked filters of `GET /payment-requests/participant-list`.
#[derive(Debug, Default)]
pub struct PickerFilters {
    pub mentor_program_id: Option<i32>,
    pub role: Option<ParticipantRole>,
    pub show_deleted: bool,
    pub participation_ids: Vec<i32>,
}

pub async fn picker(
    db: &impl ConnectionTrait,
    scope: &Scope,
    f: &PickerFilters,
) -> ApiResult<Vec<ParticipantListItem>> {
    let mut q = participation::Entity::find();
    if let Some(programs) = scope.program_ids() {
        if programs.is_empty() {
            return Ok(Vec::new());
        }
        q = q.filter(participation::Column::MentorProgramId.is_in(programs));
    }
    if let Some(program) = f.mentor_program_id {
        q = q.filter(participation::Column::MentorProgramId.eq(program));
    }
    if let Some(role) = f.role {
        q = q.filter(participation::Column::RoleCode.eq(role));
    }
    if !f.participation_ids.is_empty() {
        q = q.filter(participation::Column::Id.is_in(f.participation_ids.clone()));
    }
    if !f.show_deleted {
        q = q.filter(participation::Column::DeletedAt.is_null());
    }
    let participations = q.all(db).await?;
    let ids: Vec<i32> = participations.iter().map(|p| p.participant_id).collect();
    let mut people: HashMap<i32, participant::Model> = HashMap::new();
    // Chunked: SQLite limits bound parameters per statement.
    for chunk in ids.chunks(10_000) {
        for p in participant::Entity::find()
            .filter(participant::Column::Id.is_in(chunk.to_vec()))
            .all(db)
            .await?
        {
            people.insert(p.id, p);
        }
    }
    let rows = participations.into_iter().map(|pn| {
        let p = people.get(&pn.participant_id).cloned();
        (pn, p)
    });
    let mut items: Vec<ParticipantListItem> = rows
        .into_iter()
        .filter_map(|(pn, p)| {
            let p = p?;
            let deleted = p.deleted_at.is_some() || pn.deleted_at.is_some();
            (f.show_deleted || !deleted).then_some(ParticipantListItem {
                participation_id: pn.id,
                participant_id: p.id,
                full_name: p.full_name,
                first_name: p.first_name,
                last_name: p.last_name,
                email: p.email,
                status: p.status.code().to_owned(),
                mentor_program_id: pn.mentor_program_id,
                fiscal_year_id: pn.fiscal_year_id,
                role_code: pn.role_code.code().to_owned(),
                college_id: pn.college_id,
                start_date: pn.start_date,
                end_date: pn.end_date,
                is_deleted: deleted,
            })
        })
        .collect();
    // By the folded name, as the participant list sorts (rules::fold).
    items.sort_by_cached_key(|x| (rules::fold(&x.full_name), x.participation_id));
    Ok(items)
}

/// A participation changed to the checked values (the caller refreshes the program keys).
pub async fn update_participation(
    txn: &impl ConnectionTrait,
    existing: participation::Model,
    clean: &CleanParticipation,
) -> ApiResult<participation::Model> {
    let mut active: participation::ActiveModel = existing.into();
    active.mentor_program_id = Set(clean.mentor_program_id);
    active.fiscal_year_id = Set(clean.fiscal_year_id);
    active.role_code = Set(clean.role);
    active.college_id = Set(clean.college_id);
    active.start_date = Set(clean.start_date);
    active.end_date = Set(clean.end_date);
    active.updated_at = Set(crate::clock::now());
    Ok(active.update(txn).await?)
}

/// A participation deleted (soft; the caller refreshes the program keys).
pub async fn delete_participation(
    txn: &impl ConnectionTrait,
    existing: participation::Model,
) -> ApiResult<()> {
    let now = crate::clock::now();
    let mut active: participation::ActiveModel = existing.into();
    active.deleted_at = Set(Some(now));
    active.updated_at = Set(now);
    active.update(txn).await?;
    Ok(())
}
