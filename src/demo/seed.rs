//! `mentorpay seed --participants N --requests M`: deterministic synthetic participants
//! (fixed RNG seed) with participations across the mentor programs, inserted in large
//! multi-row statements inside one transaction per batch, so 100k rows take seconds.

use std::time::Instant;

use std::collections::HashMap;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use rand::{rngs::StdRng, seq::SliceRandom, Rng, SeedableRng};
use sea_orm::{
    sea_query::{Alias, Expr, Func, Query},
    ConnectionTrait, DatabaseBackend, DatabaseConnection, EntityTrait, Statement,
};

use super::calendar;
use crate::{
    entities::{approval_code, fiscal_year},
    forms::{
        self, BonusType, Details, ExpenseItem, F10Details, F11Details, F12Details, F13Details,
        F14Details, F1Details, F2Details, F3Details, F4Details, F5Details, F6Details, F7Details,
        F8Details, F9Details, FormType, LeadershipActivity, Limits, MealDay, Trip,
    },
    money::{Hundredths, Money},
    participants::rules::{
        fold, full_name, program_keys, DistrictSetType, ParticipantRole, ParticipantStatus,
    },
    payment_requests::workflow::{Status, CHARGED},
};

/// Same seed, same data: benchmark runs are comparable.
pub const RNG_SEED: u64 = 20_261_121;
/// Rows per INSERT statement (participants have 19 columns; SQLite allows 32766 parameters).
const BATCH: usize = 1_000;

const FIRST: &[&str] = &[
    "Maria",
    "José",
    "Linh",
    "Wei",
    "Aiyana",
    "Priya",
    "Fatima",
    "Grace",
    "Daniel",
    "Sofia",
    "Nguyen",
    "Mei",
    "Carlos",
    "Ana",
    "Lucia",
    "Tamar",
    "Hovhannes",
    "Olga",
    "Kiran",
    "Amir",
    "Yesenia",
    "Jasmine",
    "Ramón",
    "Teresa",
    "Blia",
    "Harpreet",
    "Layla",
    "Jin",
    "Soo-ah",
    "Elena",
    "Marisol",
    "Keisha",
    "Rosa",
    "Tuan",
    "Mai",
    "Gabriela",
    "Imani",
    "Leticia",
    "Angela",
    "Rebecca",
];
const LAST: &[&str] = &[
    "García",
    "Hernández",
    "Nguyen",
    "Chen",
    "Wong",
    "Lopez",
    "Martinez",
    "Kim",
    "Park",
    "Singh",
    "Sandhu",
    "Vang",
    "Xiong",
    "Petrosyan",
    "Hakobyan",
    "Ivanova",
    "Reyes",
    "Santos",
    "Cruz",
    "Tran",
    "Le",
    "Pham",
    "Johnson",
    "Williams",
    "Brown",
    "Davis",
    "Rodriguez",
    "Flores",
    "Rivera",
    "Gomez",
    "Ramirez",
    "Torres",
    "Haddad",
    "Nasser",
    "Yamamoto",
    "Tanaka",
    "Begay",
    "Lee",
    "Patel",
    "Okafor",
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
    let q = Query::select()
        .expr(Func::coalesce([Func::max(Expr::col(Alias::new("id"))).into(), Expr::value(0)]))
        .from(Alias::new(table))
        .to_owned();
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
        (
            "participant_workplace_settings",
            "workplace_setting_id",
            ids(db, "workplace_settings").await?,
        ),
        ("participant_languages", "language_id", ids(db, "languages").await?),
        ("participant_education_levels", "education_level_id", ids(db, "education_levels").await?),
        ("participant_permit_levels", "permit_level_id", ids(db, "permit_levels").await?),
    ];
    anyhow::ensure!(
        !programs.is_empty() && !colleges.is_empty() && !regions.is_empty(),
        "reference lists are empty"
    );
    let mut rng = StdRng::seed_from_u64(RNG_SEED);
    let first_id = max_id(db, "participants").await? + 1;
    let mut next_participation = max_id(db, "participations").await? + 1;
    let today = crate::clock::today();
    let base_time = calendar::seeded_until(today);
    let fy_start = calendar::seeded_from(today);
    let mut participations = 0;

    let mut done = 0;
    while done < count {
        let n = BATCH.min(count - done);
        let txn = crate::db::write(db).await?;
        let mut people = Query::insert();
        people.into_table(Alias::new("participants")).columns(
            [
                "id",
                "first_name",
                "last_name",
                "full_name",
                "sort_name",
                "email",
                "phone",
                "address",
                "status",
                "role_code",
                "district_set_type",
                "district_id",
                "caucus_region_id",
                "program_keys",
                "version",
                "created_at",
                "updated_at",
            ]
            .map(Alias::new),
        );
        let mut taking = Query::insert();
        taking.into_table(Alias::new("participations")).columns(
            [
                "id",
                "participant_id",
                "mentor_program_id",
                "fiscal_year_id",
                "role_code",
                "college_id",
                "start_date",
                "end_date",
                "created_at",
                "updated_at",
            ]
            .map(Alias::new),
        );
        let mut link_inserts: Vec<_> = links
            .iter()
            .map(|(table, column, _)| {
                let mut q = Query::insert();
                q.into_table(Alias::new(*table))
                    .columns([Alias::new("participant_id"), Alias::new(*column)]);
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
            // Drawn in the order the rows used to be written, so the data stays the same.
            let phone = format!("(916) 555-{:04}", rng.gen_range(0..10_000));
            let address = format!("{} Main St, Sacramento, CA", rng.gen_range(1..9_999));
            let district = rng.gen_range(1..=set.max_district());
            let region = *pick(&mut rng, &regions);
            // One or two participations, in different programs where possible.
            let mut chosen = programs.clone();
            chosen.shuffle(&mut rng);
            let taken = &chosen[..rng.gen_range(1..=2.min(programs.len()))];
            for program in taken {
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
            people.values_panic([
                id.into(),
                first.into(),
                last.into(),
                full.clone().into(),
                fold(&full).into(),
                format!("p{id}@seed.example.org").into(),
                phone.into(),
                address.into(),
                status.code().into(),
                role.code().into(),
                set.code().into(),
                district.into(),
                region.into(),
                program_keys(taken).into(),
                1.into(),
                updated.into(),
                updated.into(),
            ]);
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

// ---- payment requests ----

pub struct RequestReport {
    pub requests: usize,
    pub seconds: f64,
}

/// Statuses in seeded proportions (per 100): most requests are past submission.
fn seeded_status(roll: u32) -> Status {
    match roll {
        0..=14 => Status::Draft,
        15..=39 => Status::Submitted,
        40..=44 => Status::RevisionRequested,
        45..=69 => Status::Approved,
        70..=84 => Status::ReadyForProcessing,
        _ => Status::Processed,
    }
}

/// Plausible details of `form` around the activity day `day`, and the amount a requester
/// would type on forms where it is entered.
fn seeded_details(
    rng: &mut StdRng,
    form: FormType,
    day: NaiveDate,
    fiscal_year: i32,
) -> (Details, Option<Money>) {
    let cents = |rng: &mut StdRng, lo: i64, hi: i64| {
        Money(rng.gen_range(lo..hi) * 100 + rng.gen_range(0..100))
    };
    let hours = |rng: &mut StdRng, max: i64| Hundredths(rng.gen_range(1..max) * 25);
    let next = day + Duration::days(rng.gen_range(0..3));
    let entered = Some(cents(rng, 50, 900));
    match form {
        FormType::F1 => (
            Details::F1(F1Details {
                college_id: 1,
                mentee_name: pick(rng, FIRST).to_string(),
                course_code: format!("CD {}", rng.gen_range(100..300)),
                placement_start_date: day,
                placement_end_date: day + Duration::days(rng.gen_range(30..120)),
                hours: hours(rng, 400),
            }),
            entered,
        ),
        FormType::F2 => {
            let items = (0..rng.gen_range(1..4))
                .map(|i| ExpenseItem {
                    date: day + Duration::days(i),
                    description: "Supplies".into(),
                    amount: cents(rng, 1, 80),
                })
                .collect();
            (Details::F2(F2Details { items, file_ids: vec![] }), None)
        }
        FormType::F3 => {
            let trips = (0..rng.gen_range(1..4))
                .map(|i| Trip {
                    date: day + Duration::days(i),
                    from: "Sacramento".into(),
                    to: "Davis".into(),
                    miles: Hundredths(rng.gen_range(100..8_000)),
                })
                .collect();
            (
                Details::F3(F3Details {
                    travel_purpose_id: 1,
                    transit_type_id: 1,
                    trips,
                    mileage_rate: None,
                }),
                None,
            )
        }
        FormType::F4 => (
            Details::F4(F4Details {
                training_type_id: 1,
                institution_id: Some(1),
                title: "Infant and toddler care".into(),
                start_date: day,
                end_date: next,
                hours: hours(rng, 200),
                fee: cents(rng, 0, 300),
            }),
            entered,
        ),
        FormType::F5 => (
            Details::F5(F5Details {
                seminar_date: day,
                topic: "Play-based learning".into(),
                hours: hours(rng, 40),
            }),
            entered,
        ),
        FormType::F6 => {
            let activity = *pick(
                rng,
                &[
                    LeadershipActivity::Workshop,
                    LeadershipActivity::Presentation,
                    LeadershipActivity::Committee,
                    LeadershipActivity::Conference,
                ],
            );
            (
                Details::F6(F6Details {
                    activity_type: activity,
                    date: day,
                    hours: hours(rng, 100),
                }),
                entered,
            )
        }
        FormType::F7 => (
            Details::F7(F7Details {
                protege_name: pick(rng, FIRST).to_string(),
                site_name: "Sunrise Center".into(),
                start_date: day,
                end_date: day + Duration::days(180),
                placement_end_date: day + Duration::days(rng.gen_range(180..300)),
            }),
            entered,
        ),
        FormType::F8 => (
            Details::F8(F8Details {
                institute: "Summer Institute".into(),
                start_date: day,
                end_date: next,
            }),
            entered,
        ),
        FormType::F9 => (
            Details::F9(F9Details {
                vendor_name: "Acme Supplies".into(),
                vendor_address: "1 Main St, Sacramento".into(),
                invoice_number: format!("INV-{}", rng.gen_range(1_000..99_999)),
                invoice_date: day,
                amount: cents(rng, 100, 5_000),
            }),
            None,
        ),
        FormType::F10 => (
            Details::F10(F10Details {
                job_category_id: 1,
                date: day,
                hours: hours(rng, 160),
                hourly_rate: cents(rng, 18, 40),
            }),
            None,
        ),
        FormType::F11 => (
            Details::F11(F11Details {
                nights: None,
                nightly_rate: cents(rng, 90, 220),
                city: "Sacramento".into(),
                check_in: day,
                check_out: day + Duration::days(rng.gen_range(1..5)),
            }),
            None,
        ),
        FormType::F12 => {
            let days = (0..rng.gen_range(1..4))
                .map(|i| MealDay {
                    date: day + Duration::days(i),
                    breakfast: rng.gen_bool(0.6),
                    lunch: true,
                    dinner: rng.gen_bool(0.5),
                })
                .collect();
            (Details::F12(F12Details { days, meal_rates: None }), None)
        }
        FormType::F13 => (
            Details::F13(F13Details {
                college_id: 1,
                institution_id: 1,
                course_code: "ECE 1".into(),
                units: Hundredths(300),
                term: format!("Fall {}", day.format("%Y")),
            }),
            entered,
        ),
        FormType::F14 => (
            Details::F14(F14Details {
                bonus_type: BonusType::Completion,
                fiscal_year_id: fiscal_year,
                reason: "Completed the program year".into(),
            }),
            entered,
        ),
    }
}

/// Who acts on generated requests, and by which limits they are made.
#[derive(Debug, Default)]
pub struct RequestPlan {
    /// Form validation limits per form type; forms missing here get `Limits::none()`
    /// (benchmark data is held only to the money ceiling).
    pub limits: HashMap<FormType, Limits>,
    /// The user who creates and submits a program's requests (its Coordinator in the demo);
    /// programs missing here use the newest user.
    pub creators: HashMap<i32, i32>,
    /// The user who approves, sends back and releases; the newest user when `None`.
    pub approver: Option<i32>,
    /// Write each request's history (created, submitted, …) to the activity log, dated
    /// as it happened. Benchmark rows get none: nobody acted.
    pub history: bool,
    /// Leave the drawn Processed requests ready for processing: the caller pays them in
    /// vendor payment reports, so every paid request is in one (the demo world).
    pub paid_by_caller: bool,
}

/// Why a demo request was sent back (the activity log's comment, shown on the request).
const REVISION_REASONS: &[&str] = &[
    "Please attach the receipt for the second item.",
    "The dates do not match the sign-in sheet; please correct them.",
    "Please split this into one request per month.",
    "The mileage looks high for this route; please check the trips.",
];

/// `count` requests spread over the live participations, every form and every status,
/// with amounts computed by the same rules as the API (so reading them back is valid).
/// Synthetic rows get no activity-log entries.
pub async fn requests(db: &DatabaseConnection, count: usize) -> anyhow::Result<RequestReport> {
    requests_with(db, count, &RequestPlan::default()).await
}

/// A drawn request breaking its form's limits is drawn again, so every row is one the API
/// would have accepted.
pub async fn requests_with(
    db: &DatabaseConnection,
    count: usize,
    plan: &RequestPlan,
) -> anyhow::Result<RequestReport> {
    let started = Instant::now();
    let q = Query::select()
        .columns(["id", "participant_id", "mentor_program_id"].map(Alias::new))
        .from(Alias::new("participations"))
        .and_where(sea_orm::sea_query::ExprTrait::is_null(Expr::col(Alias::new("deleted_at"))))
        .to_owned();
    let participations: Vec<(i32, i32, i32)> = db
        .query_all(&q)
        .await?
        .iter()
        .filter_map(|r| {
            Some((
                r.try_get_by_index(0).ok()?,
                r.try_get_by_index(1).ok()?,
                r.try_get_by_index(2).ok()?,
            ))
        })
        .collect();
    anyhow::ensure!(
        !participations.is_empty(),
        "no participations to pay: seed --participants first"
    );
    let funds = ids(db, "funds").await?;
    let accounts = ids(db, "expense_accounts").await?;
    let years: Vec<(i32, NaiveDate, NaiveDate)> = fiscal_year::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|y| (y.id, y.start_date, y.end_date))
        .collect();
    let codes: Vec<(i32, FormType)> = approval_code::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|c| (c.id, c.payment_request_type))
        .collect();
    let user = max_id(db, "users").await?.max(1);
    let approver = plan.approver.unwrap_or(user);
    let rates = crate::payment_requests::store::facts::rates(db).await?;
    let unlimited = Limits::none();
    let today = crate::clock::today();
    let first_day = calendar::seeded_from(today);
    let base_time = calendar::seeded_until(today);
    // Activity days up to a week before the seeds' "now" (480 days when made in December).
    let span = ((base_time.date_naive() - first_day).num_days() - 8).max(1);
    // Its own stream: adding participants first does not change the requests.
    let mut rng = StdRng::seed_from_u64(RNG_SEED + 1);
    let first_id = max_id(db, "payment_requests").await? + 1;
    let columns = [
        "id",
        "form_type",
        "status",
        "participation_id",
        "mentor_program_id",
        "participant_id",
        "description",
        "requested_cents",
        "approved_cents",
        "approval_code_id",
        "fund_id",
        "expense_account_id",
        "fiscal_year_id",
        "submitted_on",
        "submitted_by",
        "approved_at",
        "approved_by",
        "placement_end_date",
        "activity_start",
        "activity_end",
        "details",
        "version",
        "created_at",
        "created_by",
        "updated_at",
        "updated_by",
    ];
    let mut done = 0;
    while done < count {
        let n = BATCH.min(count - done);
        let mut insert = Query::insert();
        insert.into_table(Alias::new("payment_requests")).columns(columns.map(Alias::new));
        let mut history: Vec<HistoryEntry> = Vec::new();
        let mut made = 0;
        let mut attempts = 0;
        while made < n {
            attempts += 1;
            anyhow::ensure!(attempts <= 100 * n, "cannot draw requests within the form limits");
            let id = first_id + (done + made) as i32;
            let form = *pick(&mut rng, &FormType::ALL);
            let status = match seeded_status(rng.gen_range(0..100)) {
                Status::Processed if plan.paid_by_caller => Status::ReadyForProcessing,
                drawn => drawn,
            };
            let (participation, participant, program) = *pick(&mut rng, &participations);
            let day = first_day + Duration::days(rng.gen_range(0..span));
            let year_of =
                |d: NaiveDate| years.iter().find(|(_, s, e)| *s <= d && d <= *e).map(|y| y.0);
            let (mut details, entered) = seeded_details(
                &mut rng,
                form,
                day,
                year_of(day).or(years.first().map(|y| y.0)).unwrap_or(1),
            );
            let limits = plan.limits.get(&form).unwrap_or(&unlimited);
            // A requester cannot enter more than the form allows; computed amounts above it are drawn again.
            let entered = entered.map(|m| m.min(limits.max_amount));
            let Ok(e) = forms::evaluate(&mut details, entered, &rates, limits) else { continue };
            let created = base_time.min(
                day.and_hms_opt(9, 0, 0).expect("valid time").and_utc()
                    + Duration::days(rng.gen_range(1..20)),
            );
            let submitted_on = (status != Status::Draft)
                .then(|| created.date_naive() + Duration::days(rng.gen_range(0..10)));
            let charged = CHARGED.contains(&status);
            let approved_at = submitted_on.filter(|_| charged).map(|d| {
                d.and_hms_opt(15, 0, 0).expect("valid time").and_utc()
                    + Duration::days(rng.gen_range(1..15))
            });
            let approved_cents = approved_at.map(|_| {
                if rng.gen_bool(0.8) {
                    e.requested_amount.cents()
                } else {
                    e.requested_amount.cents() * 9 / 10
                }
            });
            let code =
                approved_at.and_then(|_| codes.iter().find(|(_, t)| *t == form).map(|c| c.0));
            let (fund, account) = if charged {
                (Some(*pick(&mut rng, &funds)), Some(*pick(&mut rng, &accounts)))
            } else {
                (None, None)
            };
            let creator = plan.creators.get(&program).copied().unwrap_or(user);
            let revised_at =
                submitted_on.filter(|_| status == Status::RevisionRequested).map(|d| {
                    d.and_hms_opt(16, 0, 0).expect("valid time").and_utc() + Duration::days(2)
                });
            let updated = approved_at.or(revised_at).unwrap_or(created);
            let updater =
                if approved_at.is_some() || revised_at.is_some() { approver } else { creator };
            let (start, end) = e.activity_dates.map_or((None, None), |(a, b)| (Some(a), Some(b)));
            insert.values_panic([
                id.into(),
                form.as_str().into(),
                status.as_str().into(),
                participation.into(),
                program.into(),
                participant.into(),
                Some(format!("{} for {}", form.name(), day)).into(),
                e.requested_amount.cents().into(),
                approved_cents.into(),
                code.into(),
                fund.into(),
                account.into(),
                submitted_on.and_then(year_of).into(),
                submitted_on.into(),
                submitted_on.map(|_| creator).into(),
                approved_at.into(),
                approved_at.map(|_| approver).into(),
                e.placement_end_date.into(),
                start.into(),
                end.into(),
                details.to_json().into(),
                1.into(),
                created.into(),
                Some(creator).into(),
                updated.into(),
                Some(updater).into(),
            ]);
            if plan.history {
                let steps = Steps {
                    id,
                    status,
                    creator,
                    approver,
                    created,
                    submitted_on,
                    revised_at,
                    approved_at,
                };
                history.extend(steps.entries(
                    &e,
                    approved_cents.map(Money),
                    code,
                    fund,
                    account,
                    submitted_on.and_then(year_of),
                ));
            }
            made += 1;
        }
        let txn = crate::db::write(db).await?;
        txn.execute(&insert).await?;
        let ids = first_id + done as i32..=first_id + (done + n) as i32 - 1;
        crate::payment_requests::store::steps::default_for_submitted(&txn, ids).await?;
        // Nine values a row: 2,000 rows stay under SQLite's parameter limit.
        for chunk in history.chunks(2_000) {
            let mut q = Query::insert();
            q.into_table(Alias::new("activity_log")).columns(
                [
                    "entity_type",
                    "entity_id",
                    "action",
                    "actor_user_id",
                    "from_status",
                    "to_status",
                    "comment",
                    "data",
                    "created_at",
                ]
                .map(Alias::new),
            );
            for h in chunk {
                q.values_panic([
                    crate::payment_requests::store::ENTITY.into(),
                    h.request_id.into(),
                    h.action.into(),
                    Some(h.actor).into(),
                    h.from.map(Status::as_str).into(),
                    h.to.map(Status::as_str).into(),
                    h.comment.map(str::to_owned).into(),
                    Some(h.data.to_string()).into(),
                    h.at.into(),
                ]);
            }
            txn.execute(&q).await?;
        }
        txn.commit().await?;
        done += n;
    }
    if db.get_database_backend() == DatabaseBackend::Postgres {
        db.execute_raw(Statement::from_string(
            DatabaseBackend::Postgres,
            "SELECT setval(pg_get_serial_sequence('payment_requests', 'id'), (SELECT MAX(id) FROM payment_requests))".to_owned(),
        ))
        .await?;
    }
    Ok(RequestReport { requests: count, seconds: started.elapsed().as_secs_f64() })
}

/// One activity-log entry of a generated request's past.
struct HistoryEntry {
    request_id: i32,
    action: &'static str,
    actor: i32,
    from: Option<Status>,
    to: Option<Status>,
    comment: Option<&'static str>,
    data: serde_json::Value,
    at: DateTime<Utc>,
}

/// The moments of a generated request's life, from which its history is told.
struct Steps {
    id: i32,
    status: Status,
    creator: i32,
    approver: i32,
    created: DateTime<Utc>,
    submitted_on: Option<NaiveDate>,
    revised_at: Option<DateTime<Utc>>,
    approved_at: Option<DateTime<Utc>>,
}

impl Steps {
    /// The entries the API would have written on the way to `status`, with the same
    /// action names and data (payment_requests/api.rs), oldest first.
    fn entries(
        &self,
        e: &forms::Evaluated,
        approved: Option<Money>,
        code: Option<i32>,
        fund: Option<i32>,
        account: Option<i32>,
        year: Option<i32>,
    ) -> Vec<HistoryEntry> {
        use serde_json::json;
        let entry = |action, actor, from, to, comment, data, at| HistoryEntry {
            request_id: self.id,
            action,
            actor,
            from,
            to,
            comment,
            data,
            at,
        };
        let mut out = vec![entry(
            "created",
            self.creator,
            None,
            Some(Status::Draft),
            None,
            json!({"requestedAmount": e.requested_amount}),
            self.created,
        )];
        let Some(submitted) = self.submitted_on else { return out };
        let submitted_at =
            submitted.and_hms_opt(10, 0, 0).expect("valid time").and_utc().max(self.created);
        out.push(entry(
            "submitted",
            self.creator,
            Some(Status::Draft),
            Some(Status::Submitted),
            None,
            json!({"requestedAmount": e.requested_amount, "submittedOn": submitted, "fiscalYearId": year}),
            submitted_at,
        ));
        if let Some(at) = self.revised_at {
            let reason = REVISION_REASONS[self.id.unsigned_abs() as usize % REVISION_REASONS.len()];
            out.push(entry(
                "sent-for-revision",
                self.approver,
                Some(Status::Submitted),
                Some(Status::RevisionRequested),
                Some(reason),
                json!({"approvedAmount": null}),
                at,
            ));
        }
        let Some(approved_at) = self.approved_at else { return out };
        out.push(entry(
            "approved",
            self.approver,
            Some(Status::Submitted),
            Some(Status::Approved),
            None,
            json!({
                "requestedAmount": e.requested_amount, "approvedAmount": approved, "approvalCodeId": code,
                "fundId": fund, "expenseAccountId": account, "fiscalYearId": year, "acknowledgedWarnings": [],
            }),
            approved_at,
        ));
        if matches!(self.status, Status::ReadyForProcessing | Status::Processed) {
            let at = approved_at + Duration::days(1);
            out.push(entry(
                "moved-to-ready-for-processing",
                self.approver,
                Some(Status::Approved),
                Some(Status::ReadyForProcessing),
                None,
                json!({"approvedAmount": approved}),
                at,
            ));
        }
        if self.status == Status::Processed {
            let at = approved_at + Duration::days(3);
            out.push(entry(
                "processed",
                self.approver,
                Some(Status::ReadyForProcessing),
                Some(Status::Processed),
                None,
                json!({"approvedAmount": approved}),
                at,
            ));
        }
        out
    }
}
