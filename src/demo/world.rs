//! `mentorpay demo` (DESIGN §1): a small living world for a newcomer — two fiscal years,
//! about 200 participants in the mentor programs, requests in every status, and budgets
//! with room left on every line that has approvals.

use chrono::{NaiveDate, Utc};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, DatabaseConnection, EntityTrait, PaginatorTrait};

use super::seed;
use crate::entities::{budget_line, fiscal_year, participant};

pub const PARTICIPANTS: usize = 200;
pub const REQUESTS: usize = 600;

pub struct Loaded {
    pub participants: usize,
    pub requests: usize,
    pub budget_lines: usize,
}

/// A budget line's amount: the approved sum plus a quarter, rounded up to whole $1,000.
pub fn budgeted_cents(approved_cents: i64) -> i64 {
    let wanted = approved_cents + approved_cents / 4;
    (wanted / 100_000 + 1) * 100_000
}

/// Loads the demo world into an empty database; None (and nothing written) when it holds
/// participants already, so running it twice, or on real data, changes nothing.
pub async fn load(db: &DatabaseConnection) -> anyhow::Result<Option<Loaded>> {
    if participant::Entity::find().count(db).await? > 0 {
        return Ok(None);
    }
    // The seeded participations name fiscal years 1 and 2: these two, on a new database.
    let years = [("FY 2025-26", (2025, 7, 1), (2026, 6, 30)), ("FY 2026-27", (2026, 7, 1), (2027, 6, 30))];
    let date = |(y, m, d): (i32, u32, u32)| NaiveDate::from_ymd_opt(y, m, d).expect("valid date");
    for (name, start, end) in years {
        if fiscal_year::Entity::find().all(db).await?.iter().any(|y| y.name == name) {
            continue;
        }
        fiscal_year::ActiveModel { name: Set(name.into()), start_date: Set(date(start)), end_date: Set(date(end)), created_at: Set(Utc::now()), ..Default::default() }
            .insert(db)
            .await?;
    }
    let people = seed::participants(db, PARTICIPANTS).await?;
    let requests = seed::requests(db, REQUESTS).await?;
    let mut lines = 0;
    for year in fiscal_year::Entity::find().all(db).await? {
        let approved = crate::budgets::store::approved_by_line(db, year.id).await.map_err(|e| anyhow::anyhow!("{e}"))?;
        for ((program, fund, account), cents) in approved {
            let now = Utc::now();
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
    Ok(Some(Loaded { participants: people.participants, requests: requests.requests, budget_lines: lines }))
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
