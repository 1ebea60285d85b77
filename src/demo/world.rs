//! `mentorpay demo`: a small living world for a newcomer — two fiscal years,
//! about 200 participants in the mentor programs, requests in every status, and budgets
//! with room left on every line that has approvals.

use std::collections::HashMap;

use anyhow::Context;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder,
};
use serde_json::json;

use super::{calendar, seed};
use crate::{
    auth::permissions::COORDINATOR,
    entities::{budget_line, fiscal_year, mentor_program, participant, user_role},
    error::Checks,
    forms::FormType,
    identity::{
        self,
        accounts::{create_user_with_roles, NewUser},
    },
    participants::{
        self,
        dto::{ParticipantBody, ParticipationBody},
    },
    state::AppState,
};

pub const PARTICIPANTS: usize = 200;
pub const REQUESTS: usize = 600;

/// The demo's Coordinators: (first, last, e-mail, codes of the programs they coordinate).
/// The first one's sign-in is printed beside the Administrator's; every program has one, so
/// every demo request was created by a Coordinator and an Administrator can approve it.
pub const COORDINATORS: &[(&str, &str, &str, &[&str])] = &[
    ("Dana", "Whitfield", "dana.whitfield@demo.example.org", &["CECMP", "FCCMP"]),
    ("Luis", "Ortega", "luis.ortega@demo.example.org", &["DMP"]),
];

pub struct Loaded {
    pub participants: usize,
    pub requests: usize,
    pub budget_lines: usize,
    /// The printed Coordinator: e-mail and its one-time set-password link.
    pub coordinator: Option<(String, String)>,
}

/// A budget line's amount: the approved sum plus a quarter, rounded up to whole $1,000.
pub fn budgeted_cents(approved_cents: i64) -> i64 {
    let wanted = approved_cents + approved_cents / 4;
    (wanted / 100_000 + 1) * 100_000
}

fn api(e: crate::error::ApiError) -> anyhow::Error {
    anyhow::anyhow!("{e}")
}

/// Creates a demo Coordinator through the participant and identity rules the API uses:
/// a participant with a Coordinator participation in each of its programs, and its login
/// (no password: a one-time set-password link). Returns (user id, program ids, link).
async fn coordinator(
    state: &AppState,
    (first, last, email, codes): (&str, &str, &str, &[&str]),
    programs: &[mentor_program::Model],
    year: &fiscal_year::Model,
) -> anyhow::Result<(i32, Vec<i32>, Option<String>)> {
    let db = &state.db;
    let body: ParticipantBody = serde_json::from_value(json!({
        "firstName": first, "lastName": last, "email": email, "phone": "(916) 555-0100",
        "address": "1430 N Street, Sacramento, CA", "status": "Active", "roleCode": "Coordinator",
    }))?;
    let clean = participants::rules::check_participant(&body).map_err(api)?;
    let mut checks = Checks::default();
    participants::store::check_participant_refs(db, &clean, &mut checks).await.map_err(api)?;
    let now = crate::clock::now();
    let person =
        participants::store::insert_participant(db, &clean, None, now).await.map_err(api)?;
    let mut ids = Vec::new();
    for code in codes.iter().copied() {
        let program = programs
            .iter()
            .find(|p| p.code.as_deref() == Some(code))
            .with_context(|| format!("no mentor program {code}"))?;
        let body: ParticipationBody = serde_json::from_value(json!({
            "mentorProgramId": program.id, "fiscalYearId": year.id, "roleCode": "Coordinator", "startDate": year.start_date,
        }))?;
        let taking = participants::rules::check_participation("", &body, &mut checks);
        checks.finish().map_err(api)?;
        checks = Checks::default();
        let taking = taking.context("demo participation is invalid")?;
        participants::store::insert_participation(db, person.id, &taking, now)
            .await
            .map_err(api)?;
        ids.push(program.id);
    }
    participants::store::refresh_program_keys(db, person.id).await.map_err(api)?;
    let role = identity::store::roles_by_names(db, &[COORDINATOR.to_owned()]).await.map_err(api)?;
    let new = NewUser {
        email: email.to_owned(),
        first_name: first.to_owned(),
        last_name: last.to_owned(),
        hash: None,
        participant_id: Some(person.id),
    };
    let (user, link) =
        create_user_with_roles(state, (&crate::audit::Actor::system(), None), new, &role)
            .await
            .map_err(api)?;
    Ok((user.id, ids, link))
}

/// The longest-standing Administrator (the one created on first start).
async fn first_administrator(db: &DatabaseConnection) -> anyhow::Result<Option<i32>> {
    let Some(admin) =
        identity::store::find_role_by_name(db, crate::auth::permissions::ADMINISTRATOR)
            .await
            .map_err(api)?
    else {
        return Ok(None);
    };
    let holder = user_role::Entity::find()
        .filter(user_role::Column::RoleId.eq(admin.id))
        .order_by_asc(user_role::Column::UserId)
        .one(db)
        .await?;
    Ok(holder.map(|h| h.user_id))
}

/// Pays the demo's ready requests the way the office does, through vendor payment reports:
/// one per month of each fiscal year up to [`calendar::paid_until`], each dated a few days after its
/// month. A year's last month is left for its year-end run (not made yet), so requests
/// wait in both years, as they do at the start of a new fiscal year.
async fn pay_monthly(db: &DatabaseConnection, admin: i32) -> anyhow::Result<usize> {
    use crate::vendor_payments::{
        commands::{generate_at, Told},
        queries::{preview_totals, Selection},
        rules::Range,
    };
    let user = crate::entities::user::Entity::find_by_id(admin).one(db).await?;
    let me =
        crate::auth::load_principal(db, user.context("no Administrator")?).await.map_err(api)?;
    let scope = crate::auth::scope::scope_of(db, &me).await.map_err(api)?;
    let paid_until = calendar::paid_until(crate::clock::today());
    let mut runs = 0;
    for year in
        fiscal_year::Entity::find().order_by_asc(fiscal_year::Column::StartDate).all(db).await?
    {
        let mut start = year.start_date;
        while start <= year.end_date {
            let next = start.checked_add_months(chrono::Months::new(1)).context("valid month")?;
            let end = next.pred_opt().context("valid day")?.min(year.end_date);
            if end > paid_until || end == year.end_date {
                break;
            }
            let range = Range::new(start, end, 0, ["startDate", "endDate", "minutesOffset"])
                .map_err(api)?;
            let selection = Selection { fiscal_year_id: year.id, range, scope: scope.clone() };
            let found = preview_totals(db, &selection).await.map_err(api)?;
            if found.count > 0 {
                let at = (end + chrono::Duration::days(5))
                    .and_hms_opt(10, 0, 0)
                    .context("valid time")?
                    .and_utc();
                generate_at(db, &me, &selection, (found.count, found.amount), at, Told::Nobody)
                    .await
                    .map_err(api)?;
                runs += 1;
            }
            start = next;
        }
    }
    Ok(runs)
}

/// Loads the demo world into an empty database; None (and nothing written) when it holds
/// participants already, so running it twice, or on real data, changes nothing.
pub async fn load(state: &AppState) -> anyhow::Result<Option<Loaded>> {
    let db: &DatabaseConnection = &state.db;
    if participant::Entity::find().count(db).await? > 0 {
        return Ok(None);
    }
    // The seeded participations name fiscal years 1 and 2: these two, on a new database.
    for (name, start, end) in calendar::two_years(crate::clock::today()) {
        if fiscal_year::Entity::find().all(db).await?.iter().any(|y| y.name == name) {
            continue;
        }
        fiscal_year::ActiveModel {
            name: Set(name),
            start_date: Set(start),
            end_date: Set(end),
            created_at: Set(crate::clock::now()),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    let people = seed::participants(db, PARTICIPANTS).await?;

    let programs =
        mentor_program::Entity::find().order_by_asc(mentor_program::Column::Id).all(db).await?;
    let current = fiscal_year::Entity::find()
        .order_by_desc(fiscal_year::Column::StartDate)
        .one(db)
        .await?
        .context("no fiscal year")?;
    let mut plan = seed::RequestPlan { history: true, paid_by_caller: true, ..Default::default() };
    let mut printed = None;
    for (i, c) in COORDINATORS.iter().enumerate() {
        let (user, ids, link) = coordinator(state, *c, &programs, &current).await?;
        for id in ids {
            plan.creators.insert(id, user);
        }
        if i == 0 {
            printed = link.map(|l| (c.2.to_owned(), l));
        }
    }
    anyhow::ensure!(
        programs.iter().all(|p| plan.creators.contains_key(&p.id)),
        "a mentor program has no demo Coordinator"
    );
    // The Administrator (the first user, created on start) approves.
    plan.approver = first_administrator(db).await?;
    let mut limits = HashMap::new();
    for form in FormType::ALL {
        limits.insert(
            form,
            crate::payment_requests::store::facts::limits(db, form).await.map_err(api)?,
        );
    }
    plan.limits = limits;
    let requests = seed::requests_with(db, REQUESTS, &plan).await?;
    if let Some(admin) = plan.approver {
        pay_monthly(db, admin).await?;
    }

    let mut lines = 0;
    for year in fiscal_year::Entity::find().all(db).await? {
        let approved = crate::budgets::store::approved_by_line(db, year.id).await.map_err(api)?;
        for ((program, fund, account), cents) in approved {
            let now = crate::clock::now();
            budget_line::ActiveModel {
                fiscal_year_id: Set(year.id),
                mentor_program_id: Set(program),
                fund_id: Set(fund),
                expense_account_id: Set(account),
                amount_cents: Set(budgeted_cents(cents)),
                version: Set(1),
                created_at: Set(now),
                updated_at: Set(now),
                ..Default::default()
            }
            .insert(db)
            .await?;
            lines += 1;
        }
    }
    Ok(Some(Loaded {
        participants: people.participants,
        requests: requests.requests,
        budget_lines: lines,
        coordinator: printed,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_leave_room_above_the_approved_sum() {
        assert_eq!(budgeted_cents(0), 100_000);
        assert_eq!(budgeted_cents(80_000), 200_000);
        assert_eq!(budgeted_cents(1_000_000), 1_300_000);
        for approved in [1, 99_999, 123_456_789] {
            let b = budgeted_cents(approved);
            assert!(b > approved && b % 100_000 == 0, "{approved} -> {b}");
        }
    }
}
