//! `mentorpay seed --participants N --requests M`: deterministic synthetic participants
//! (fixed RNG seed) with participations across the mentor programs, inserted in large
//! multi-row statements inside one transaction per batch, so 100k rows take seconds.

use std::time::Instant;

use chrono::{Duration, NaiveDate, TimeZone, Utc};
use rand::{rngs::StdRng, seq::SliceRandom, Rng, SeedableRng};
use sea_orm::{
    sea_query::{Alias, Expr, Func, Query},
    ConnectionTrait, DatabaseBackend, DatabaseConnection, Statement, TransactionTrait,
};

use crate::participants::rules::{full_name, DistrictSetType, ParticipantRole, ParticipantStatus};

/// Same seed, same data: benchmark runs are comparable.
pub const RNG_SEED: u64 = 20_261_121;
/// Rows per INSERT statement (participants have 19 columns; SQLite allows 32766 parameters).
const BATCH: usize = 1_000;

const FIRST: &[&str] = &[
    "Maria", "José", "Linh", "Wei", "Aiyana", "Priya", "Fatima", "Grace", "Daniel", "Sofia", "Nguyen", "Mei", "Carlos",
    "Ana", "Lucia", "Tamar", "Hovhannes", "Olga", "Kiran", "Amir", "Yesenia", "Jasmine", "Ramón", "Teresa", "Blia",
    "Harpreet", "Layla", "Jin", "Soo-ah", "Elena", "Marisol", "Keisha", "Rosa", "Tuan", "Mai", "Gabriela", "Imani",
    "Leticia", "Angela", "Rebecca",
];
const LAST: &[&str] = &[
    "García", "Hernández", "Nguyen", "Chen", "Wong", "Lopez", "Martinez", "Kim", "Park", "Singh", "Sandhu", "Vang",
    "Xiong", "Petrosyan", "Hakobyan", "Ivanova", "Reyes", "Santos", "Cruz", "Tran", "Le", "Pham", "Johnson", "Williams",
    "Brown", "Davis", "Rodriguez", "Flores", "Rivera", "Gomez", "Ramirez", "Torres", "Haddad", "Nasser", "Yamamoto",
    "Tanaka", "Begay", "Lee", "Patel", "Okafor",
];

pub struct Report {
    pub participants: usize,
    pub participations: usize,
    pub seconds: f64,
}

async fn ids(db: &DatabaseConnection, table: &str) -> anyhow::Result<Vec<i32>> {
    let q = Query::select().column(Alias::new("id")).from(Alias::new(table)).to_owned();
    let rows = db.query_all(&q).await?;
    Ok(rows.iter().filter_map(|r| r.try_get_by_index::<i32>(0).ok()).collect())
}

async fn max_id(db: &impl ConnectionTrait, table: &str) -> anyhow::Result<i32> {
    let q = Query::select().expr(Func::coalesce([Func::max(Expr::col(Alias::new("id"))).into(), Expr::value(0)])).from(Alias::new(table)).to_owned();
    Ok(db.query_one(&q).await?.map(|r| r.try_get_by_index::<i32>(0)).transpose()?.unwrap_or(0))
}

fn pick<'a, T>(rng: &mut StdRng, items: &'a [T]) -> &'a T {
    items.choose(rng).expect("non-empty list")
}

pub async fn participants(db: &DatabaseConnection, count: usize) -> anyhow::Result<Report> {
    let started = Instant::now();
    let programs = ids(db, "mentor_programs").await?;
    let colleges = ids(db, "colleges").await?;
    let regions = ids(db, "caucus_regions").await?;
    let links: Vec<(&str, &str, Vec<i32>)> = vec![
        ("participant_workplace_settings", "workplace_setting_id", ids(db, "workplace_settings").await?),
        ("participant_languages", "language_id", ids(db, "languages").await?),
        ("participant_education_levels", "education_level_id", ids(db, "education_levels").await?),
        ("participant_permit_levels", "permit_level_id", ids(db, "permit_levels").await?),
    ];
    anyhow::ensure!(!programs.is_empty() && !colleges.is_empty() && !regions.is_empty(), "reference lists are empty");
    let mut rng = StdRng::seed_from_u64(RNG_SEED);
    let first_id = max_id(db, "participants").await? + 1;
    let mut next_participation = max_id(db, "participations").await? + 1;
    let base_time = Utc.with_ymd_and_hms(2026, 11, 1, 12, 0, 0).single().expect("valid time");
    let fy_start = NaiveDate::from_ymd_opt(2025, 7, 1).expect("valid date");
    let mut participations = 0;

    let mut done = 0;
    while done < count {
        let n = BATCH.min(count - done);
        let txn = db.begin().await?;
        let mut people = Query::insert();
        people.into_table(Alias::new("participants")).columns(
            [
                "id", "first_name", "last_name", "full_name", "sort_name", "email", "phone", "address", "status", "role_code",
                "district_set_type", "district_id", "caucus_region_id", "version", "created_at", "updated_at",
            ]
            .map(Alias::new),
        );
        let mut taking = Query::insert();
        taking.into_table(Alias::new("participations")).columns(
            ["id", "participant_id", "mentor_program_id", "fiscal_year_id", "role_code", "college_id", "start_date", "end_date", "created_at", "updated_at"]
                .map(Alias::new),
        );
        let mut link_inserts: Vec<_> = links
            .iter()
            .map(|(table, column, _)| {
                let mut q = Query::insert();
                q.into_table(Alias::new(*table)).columns([Alias::new("participant_id"), Alias::new(*column)]);
                (q, 0usize)
            })
            .collect();
        for i in 0..n {
            let id = first_id + (done + i) as i32;
            let first = *pick(&mut rng, FIRST);
            let last = *pick(&mut rng, LAST);
            let full = full_name(first, last);
            let role = match rng.gen_range(0..100) {
                0..=79 => ParticipantRole::Mentor,
                80..=94 => ParticipantRole::DirectorMentor,
                95..=98 => ParticipantRole::Coordinator,
                _ => ParticipantRole::Administrator,
            };
            let status = match rng.gen_range(0..10) {
                0..=6 => ParticipantStatus::Active,
                7..=8 => ParticipantStatus::Inactive,
                _ => ParticipantStatus::Pending,
            };
            let set = *pick(&mut rng, DistrictSetType::ALL);
            let updated = base_time - Duration::minutes(rng.gen_range(0..60 * 24 * 730));
            people.values_panic([
                id.into(),
                first.into(),
                last.into(),
                full.clone().into(),
                full.to_lowercase().into(),
                format!("p{id}@seed.example.org").into(),
                format!("(916) 555-{:04}", rng.gen_range(0..10_000)).into(),
                format!("{} Main St, Sacramento, CA", rng.gen_range(1..9_999)).into(),
                status.code().into(),
                role.code().into(),
                set.code().into(),
                rng.gen_range(1..=set.max_district()).into(),
                (*pick(&mut rng, &regions)).into(),
                1.into(),
                updated.into(),
                updated.into(),
            ]);
            // One or two participations, in different programs where possible.
            let mut chosen = programs.clone();
            chosen.shuffle(&mut rng);
            for program in chosen.iter().take(rng.gen_range(1..=2.min(programs.len()))) {
                let fy = rng.gen_range(1..=2);
                let start = fy_start + Duration::days(365 * (fy as i64 - 1) + rng.gen_range(0..90));
                taking.values_panic([
                    next_participation.into(),
                    id.into(),
                    (*program).into(),
                    fy.into(),
                    role.code().into(),
                    (*pick(&mut rng, &colleges)).into(),
                    start.into(),
                    Some(start + Duration::days(300)).into(),
                    updated.into(),
                    updated.into(),
                ]);
                next_participation += 1;
                participations += 1;
            }
            for ((q, rows), (_, _, pool)) in link_inserts.iter_mut().zip(&links) {
                let mut own = pool.clone();
                own.shuffle(&mut rng);
                for rid in own.iter().take(rng.gen_range(1..=2)) {
                    q.values_panic([id.into(), (*rid).into()]);
                    *rows += 1;
                }
            }
        }
        txn.execute(&people).await?;
        txn.execute(&taking).await?;
        for (q, rows) in &link_inserts {
            if *rows > 0 {
                txn.execute(q).await?;
            }
        }
        txn.commit().await?;
        done += n;
    }
    if db.get_database_backend() == DatabaseBackend::Postgres {
        // Explicit ids leave the sequences behind; move them past the new rows.
        for table in ["participants", "participations"] {
            db.execute_raw(Statement::from_string(
                DatabaseBackend::Postgres,
                format!("SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))"),
            ))
            .await?;
        }
    }
    Ok(Report { participants: count, participations, seconds: started.elapsed().as_secs_f64() })
}
