//! The import's pure rules: which columns a sheet may have, how a row becomes a participant
//! body (reference names looked up case- and accent-insensitively, lists split on `;`), and
//! what each row would do against the participants that exist. Each row is checked by the
//! same rules as `POST /participants`; its problems are reported by row and column.

use std::collections::{HashMap, HashSet};

use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

use super::file::Sheet;
use crate::{
    auth::scope::Scope,
    error::ApiError,
    participants::{
        dto::{ParticipantBody, ParticipantDto, ParticipationBody},
        rules::{self, fold, CleanParticipant, CleanParticipation, PersonFields},
    },
};

/// The participant's own columns, as the participant body names them (lists by name).
pub const PERSON: [&str; 14] = [
    "firstName",
    "lastName",
    "email",
    "phone",
    "address",
    "status",
    "roleCode",
    "districtSetType",
    "districtId",
    "caucusRegion",
    "workplaceSettings",
    "languages",
    "educationLevels",
    "permitLevels",
];
/// Optional columns that add a participation.
pub const TAKING: [&str; 5] =
    ["mentorProgram", "fiscalYear", "programRole", "college", "startDate"];
pub const REQUIRED: [&str; 5] = ["firstName", "lastName", "email", "status", "roleCode"];

/// The example row of the template, column by column.
pub const EXAMPLE: [&str; 19] = [
    "Ana",
    "Núñez",
    "ana.nunez@example.org",
    "(916) 555-0100",
    "1 Capitol Mall, Sacramento",
    "Active",
    "Mentor",
    "Assembly",
    "7",
    "Sacramento Region",
    "Child care center",
    "English;Spanish",
    "Bachelor's degree",
    "Teacher",
    // The participation's columns stay blank: they name a program and year of the office's own.
    "",
    "",
    "",
    "",
    "",
];

pub fn columns() -> impl Iterator<Item = &'static str> {
    PERSON.into_iter().chain(TAKING)
}

/// Where each known column sits in the sheet.
#[derive(Debug, Clone)]
pub struct Columns(HashMap<&'static str, usize>);

impl Columns {
    fn cell<'a>(&self, cells: &'a [String], name: &str) -> &'a str {
        self.0.get(name).and_then(|i| cells.get(*i)).map_or("", |c| c.trim())
    }
}

/// The header: known names only (any case), each once, the required ones present.
pub fn check_header(header: &[String]) -> Result<Columns, ApiError> {
    let mut found = HashMap::new();
    let mut unknown = Vec::new();
    let mut repeated = Vec::new();
    for (i, raw) in header.iter().enumerate() {
        let name = raw.trim();
        match columns().find(|c| c.eq_ignore_ascii_case(name)) {
            Some(c) if found.insert(c, i).is_some() => repeated.push(c),
            Some(_) => {}
            None => {
                unknown.push(if name.is_empty() { "(blank)".to_owned() } else { name.to_owned() })
            }
        }
    }
    let missing: Vec<&str> = REQUIRED.into_iter().filter(|c| !found.contains_key(c)).collect();
    let mut problems = Vec::new();
    if !unknown.is_empty() {
        unknown.truncate(10);
        problems.push(format!("unknown columns: {}", unknown.join(", ")));
    }
    if !repeated.is_empty() {
        problems.push(format!("repeated columns: {}", repeated.join(", ")));
    }
    if !missing.is_empty() {
        problems.push(format!("missing columns: {}", missing.join(", ")));
    }
    if !problems.is_empty() {
        return Err(ApiError::rule(
            "file",
            format!("{} (the template lists the columns)", problems.join("; ")),
        ));
    }
    Ok(Columns(found))
}

/// The reference lists a row names, by folded name.
#[derive(Debug, Default)]
pub struct Names {
    pub caucus_regions: HashMap<String, i32>,
    pub workplace_settings: HashMap<String, i32>,
    pub languages: HashMap<String, i32>,
    pub education_levels: HashMap<String, i32>,
    pub permit_levels: HashMap<String, i32>,
    pub mentor_programs: HashMap<String, i32>,
    pub colleges: HashMap<String, i32>,
    /// Fiscal years by folded name, with their first day (a participation's default start).
    pub fiscal_years: HashMap<String, (i32, NaiveDate)>,
}

/// A name as it is matched: trimmed, lower case, without accents.
pub fn key(name: &str) -> String {
    fold(name.trim())
}

/// One problem of one row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct RowError {
    /// The row as a spreadsheet numbers it (the header is row 1).
    pub row: usize,
    /// The column's name as in the header row.
    pub column: String,
    pub message: String,
}

/// What a row does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Created,
    Updated,
    Unchanged,
}

/// A row that passed its checks, and what it does.
#[derive(Debug, Clone)]
pub struct Planned {
    pub row: usize,
    pub person: CleanParticipant,
    pub taking: Option<CleanParticipation>,
    /// The participant the e-mail names, when there is one.
    pub existing: Option<(i32, i32)>,
    /// Its own fields as stored (what an update changes them from).
    pub stored: Option<PersonFields>,
    /// The person's own fields differ from the stored ones.
    pub person_changes: bool,
    /// The participation is new.
    pub adds_taking: bool,
    pub outcome: Outcome,
}

/// A body field's name as the sheet's column.
fn column_of(field: &str) -> String {
    match field {
        "caucusRegionId" => "caucusRegion",
        "workplaceSettingIds" => "workplaceSettings",
        "languageIds" => "languages",
        "educationLevelIds" => "educationLevels",
        "permitLevelIds" => "permitLevels",
        "mentorProgramId" => "mentorProgram",
        "fiscalYearId" => "fiscalYear",
        "collegeId" => "college",
        other => other,
    }
    .to_owned()
}

struct RowChecks {
    row: usize,
    errors: Vec<RowError>,
}

impl RowChecks {
    fn add(&mut self, column: &str, message: impl Into<String>) {
        self.errors.push(RowError {
            row: self.row,
            column: column.to_owned(),
            message: message.into(),
        });
    }

    fn add_problem(&mut self, e: ApiError) {
        match e {
            ApiError::BadRequest { errors, .. } | ApiError::Unprocessable { errors, .. } => {
                for (field, messages) in errors {
                    for m in messages {
                        self.add(&column_of(&field), m);
                    }
                }
            }
            other => self.add("", other.to_string()),
        }
    }

    /// One name of a list, or an error naming it.
    fn one(&mut self, column: &str, raw: &str, list: &HashMap<String, i32>) -> Option<i32> {
        if raw.is_empty() {
            return None;
        }
        let found = list.get(&key(raw)).copied();
        if found.is_none() {
            self.add(column, format!("\"{raw}\" is not a known, active name"));
        }
        found
    }

    /// Names separated by `;`, each known.
    fn many(&mut self, column: &str, raw: &str, list: &HashMap<String, i32>) -> Vec<i32> {
        raw.split(';')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .filter_map(|n| self.one(column, n, list))
            .collect()
    }
}

/// A row read into the participant body and its participation, checked by the participant
/// rules; its errors otherwise.
pub fn read_row(
    columns: &Columns,
    row: usize,
    cells: &[String],
    names: &Names,
) -> Result<(CleanParticipant, Option<CleanParticipation>), Vec<RowError>> {
    let cell = |name: &str| columns.cell(cells, name);
    let mut c = RowChecks { row, errors: Vec::new() };
    let district_id = match cell("districtId") {
        "" => None,
        raw => match raw.parse::<i32>() {
            Ok(n) => Some(n),
            Err(_) => {
                c.add("districtId", "must be a whole number");
                None
            }
        },
    };
    let text = |name: &str| Some(cell(name).to_owned()).filter(|t| !t.is_empty());
    let body = ParticipantBody {
        first_name: cell("firstName").to_owned(),
        last_name: cell("lastName").to_owned(),
        email: cell("email").to_owned(),
        phone: text("phone"),
        address: text("address"),
        status: cell("status").to_owned(),
        role_code: cell("roleCode").to_owned(),
        district_set_type: text("districtSetType"),
        district_id,
        caucus_region_id: c.one("caucusRegion", cell("caucusRegion"), &names.caucus_regions),
        workplace_setting_ids: c.many(
            "workplaceSettings",
            cell("workplaceSettings"),
            &names.workplace_settings,
        ),
        language_ids: c.many("languages", cell("languages"), &names.languages),
        education_level_ids: c.many(
            "educationLevels",
            cell("educationLevels"),
            &names.education_levels,
        ),
        permit_level_ids: c.many("permitLevels", cell("permitLevels"), &names.permit_levels),
        participations: None,
        version: None,
    };
    let person = rules::check_participant(&body).map_err(|e| c.add_problem(e)).ok();
    let taking = read_taking(&mut c, &cell, &body.role_code, names);
    if !c.errors.is_empty() {
        return Err(c.errors);
    }
    Ok((person.expect("no errors means checked"), taking))
}

fn read_taking<'a>(
    c: &mut RowChecks,
    cell: &dyn Fn(&str) -> &'a str,
    role: &str,
    names: &Names,
) -> Option<CleanParticipation> {
    if TAKING.iter().all(|n| cell(n).is_empty()) {
        return None;
    }
    let program = cell("mentorProgram");
    if program.is_empty() {
        c.add("mentorProgram", "is required when a participation is given");
    }
    let program = c.one("mentorProgram", program, &names.mentor_programs);
    let year = match cell("fiscalYear") {
        "" => {
            c.add("fiscalYear", "is required when a participation is given");
            None
        }
        raw => {
            let found = names.fiscal_years.get(&key(raw)).copied();
            if found.is_none() {
                c.add("fiscalYear", format!("\"{raw}\" is not a known fiscal year"));
            }
            found
        }
    };
    let college = c.one("college", cell("college"), &names.colleges);
    let start = match cell("startDate") {
        "" => year.map(|(_, start)| start),
        raw => match NaiveDate::parse_from_str(raw, "%Y-%m-%d") {
            Ok(d) => Some(d),
            Err(_) => {
                c.add("startDate", "must be a date written YYYY-MM-DD");
                None
            }
        },
    };
    let program_role = match cell("programRole") {
        "" => role,
        r => r,
    };
    let (program, (year, _), start) = (program?, year?, start?);
    let body = ParticipationBody {
        mentor_program_id: program,
        fiscal_year_id: year,
        role_code: program_role.to_owned(),
        college_id: college,
        start_date: start,
        end_date: None,
    };
    let mut checks = crate::error::Checks::default();
    let clean = rules::check_participation("", &body, &mut checks);
    for (field, messages) in checks.0 {
        let column = if field == "roleCode" { "programRole".to_owned() } else { column_of(&field) };
        for m in messages {
            c.add(&column, m);
        }
    }
    clean
}

/// Whether the stored participant already reads as the row does.
pub fn same_person(stored: &ParticipantDto, row: &CleanParticipant) -> bool {
    PersonFields::from(stored) == PersonFields::from(row)
}

/// Every row judged: what it would do, or its errors. `existing`: the live participants the
/// sheet's e-mails name (by lower-case e-mail), with all their participations.
pub fn plan(
    sheet: &Sheet,
    columns: &Columns,
    names: &Names,
    scope: &Scope,
    existing: &HashMap<String, ParticipantDto>,
) -> (Vec<Planned>, Vec<RowError>) {
    let mut planned = Vec::new();
    let mut errors = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (row, cells) in &sheet.rows {
        let mut c = RowChecks { row: *row, errors: Vec::new() };
        // Repeats are found on every row, whatever else is wrong with it.
        let email = columns.cell(cells, "email").to_lowercase();
        match seen.get(&email) {
            Some(first) => c.add("email", format!("repeats row {first}")),
            None if !email.is_empty() => {
                seen.insert(email, *row);
            }
            None => {}
        }
        let (person, taking) = match read_row(columns, *row, cells, names) {
            Ok(read) => read,
            Err(e) => {
                errors.extend(c.errors);
                errors.extend(e);
                continue;
            }
        };
        let stored = existing.get(&person.email);
        let out_of_scope = |p: i32| !scope.allows_program(p);
        match (stored, &taking) {
            (Some(s), _) => {
                let programs: Vec<i32> =
                    s.participations.iter().map(|p| p.mentor_program_id).collect();
                if !scope.sees_participant(&programs) {
                    c.add("email", "belongs to a participant outside your mentor programs");
                }
            }
            (None, None) if !scope.is_all() => c.add(
                "mentorProgram",
                "is required: a new participant joins one of your mentor programs",
            ),
            _ => {}
        }
        if taking.as_ref().is_some_and(|t| out_of_scope(t.mentor_program_id)) {
            c.add("mentorProgram", "is not one of your mentor programs");
        }
        if !c.errors.is_empty() {
            errors.extend(c.errors);
            continue;
        }
        let adds_taking = taking.as_ref().is_some_and(|t| {
            stored.is_none_or(|s| {
                !s.participations.iter().any(|p| {
                    p.mentor_program_id == t.mentor_program_id
                        && p.fiscal_year_id == t.fiscal_year_id
                })
            })
        });
        let person_changes = stored.is_none_or(|s| !same_person(s, &person));
        let outcome = match stored {
            None => Outcome::Created,
            Some(_) if person_changes || adds_taking => Outcome::Updated,
            Some(_) => Outcome::Unchanged,
        };
        planned.push(Planned {
            row: *row,
            existing: stored.map(|s| (s.id, s.version)),
            stored: stored.map(PersonFields::from),
            person,
            taking,
            person_changes,
            adds_taking,
            outcome,
        });
    }
    errors.sort_by_key(|e| e.row);
    (planned, errors)
}

/// The e-mails of a sheet's rows, lower case, once each (to find the stored participants).
pub fn emails(sheet: &Sheet, columns: &Columns) -> Vec<String> {
    let mut seen = HashSet::new();
    sheet
        .rows
        .iter()
        .map(|(_, cells)| columns.cell(cells, "email").to_lowercase())
        .filter(|e| !e.is_empty() && seen.insert(e.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::participants::dto::ParticipationDto;

    fn names() -> Names {
        let map = |pairs: &[(&str, i32)]| pairs.iter().map(|(n, id)| (key(n), *id)).collect();
        Names {
            languages: map(&[("English", 1), ("Español", 2)]),
            workplace_settings: map(&[("Center", 1)]),
            education_levels: map(&[("Bachelor's degree", 3)]),
            permit_levels: map(&[("Teacher", 2)]),
            caucus_regions: map(&[("Bay Area", 1)]),
            mentor_programs: map(&[
                ("Preschool Mentor Program", 10),
                ("Director Mentor Program", 11),
            ]),
            colleges: map(&[("Cañada College", 5)]),
            fiscal_years: [(key("FY 2026-27"), (7, NaiveDate::from_ymd_opt(2026, 7, 1).unwrap()))]
                .into(),
        }
    }

    fn sheet(header: &str, rows: &[&str]) -> Sheet {
        let split = |l: &str| l.split(',').map(str::to_owned).collect::<Vec<_>>();
        Sheet {
            header: split(header),
            rows: rows.iter().enumerate().map(|(i, r)| (i + 2, split(r))).collect(),
        }
    }

    const HEAD: &str =
        "firstName,lastName,email,status,roleCode,languages,mentorProgram,fiscalYear";

    fn stored(email: &str, program: i32) -> ParticipantDto {
        ParticipantDto {
            id: 40,
            first_name: "Ana".into(),
            last_name: "Nunez".into(),
            full_name: "Ana Nunez".into(),
            email: email.into(),
            phone: None,
            address: None,
            status: "Active".into(),
            role_code: "Mentor".into(),
            district_set_type: None,
            district_id: None,
            caucus_region_id: None,
            workplace_setting_ids: vec![],
            language_ids: vec![1, 2],
            education_level_ids: vec![],
            permit_level_ids: vec![],
            participations: vec![ParticipationDto {
                id: 1,
                participant_id: 40,
                mentor_program_id: program,
                fiscal_year_id: 7,
                role_code: "Mentor".into(),
                college_id: None,
                start_date: NaiveDate::from_ymd_opt(2026, 7, 1).unwrap(),
                end_date: None,
            }],
            identity_user_id: None,
            version: 3,
            created_at: chrono::Utc::now(),
            updated_at: chrono::Utc::now(),
        }
    }

    fn message(e: ApiError) -> String {
        match e {
            ApiError::Unprocessable { errors, .. } => errors["file"][0].clone(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn the_header_names_known_columns_once_with_the_required_ones() {
        assert!(check_header(&sheet(HEAD, &[]).header).is_ok());
        let any_case = sheet("FIRSTNAME, lastname ,Email,status,ROLECODE", &[]);
        assert!(check_header(&any_case.header).is_ok());
        let bad = sheet("firstName,email,nickname,email,status", &[]);
        assert_eq!(
            message(check_header(&bad.header).unwrap_err()),
            "unknown columns: nickname; repeated columns: email; missing columns: lastName, roleCode (the template lists the columns)"
        );
    }

    #[test]
    fn names_match_any_case_and_accents_and_lists_split_on_semicolons() {
        let s = sheet(HEAD, &["Ana,Nunez,ANA@example.org,active,mentor, english ; ESPANOL ,preschool mentor program,fy 2026-27"]);
        let cols = check_header(&s.header).unwrap();
        let (person, taking) = read_row(&cols, 2, &s.rows[0].1, &names()).unwrap();
        assert_eq!(person.email, "ana@example.org");
        assert_eq!(person.links.language_ids, [1, 2]);
        let taking = taking.unwrap();
        assert_eq!((taking.mentor_program_id, taking.fiscal_year_id), (10, 7));
        assert_eq!(taking.start_date.to_string(), "2026-07-01", "the year's first day by default");
    }

    #[test]
    fn each_problem_is_named_by_row_and_column() {
        let s = sheet(
            HEAD,
            &[
                "Ana,Nunez,not-an-email,Retired,Boss,Klingon,Nowhere,FY 1999",
                "=1+2,,b@example.org,Active,Mentor,,,",
            ],
        );
        let cols = check_header(&s.header).unwrap();
        let (_, errors) = plan(&s, &cols, &names(), &Scope::All, &HashMap::new());
        let named: BTreeSet<(usize, &str)> =
            errors.iter().map(|e| (e.row, e.column.as_str())).collect();
        assert_eq!(
            named,
            [
                (2, "email"),
                (2, "fiscalYear"),
                (2, "languages"),
                (2, "mentorProgram"),
                (2, "roleCode"),
                (2, "status"),
                (3, "lastName")
            ]
            .into_iter()
            .collect()
        );
        assert!(errors.iter().any(|e| e.message.contains("\"Klingon\" is not a known")));
    }

    #[test]
    fn rows_are_created_updated_or_unchanged_by_email_and_repeats_are_errors() {
        let s = sheet(
            HEAD,
            &[
                "Ana,Nunez,ana@example.org,Active,Mentor,English;Español,Preschool Mentor Program,FY 2026-27",
                "Bo,Lee,bo@example.org,Active,Mentor,,,",
                "Cy,Lee,cy@example.org,Active,Mentor,,,",
                "Bo,Lee,BO@example.org,Active,Mentor,,,",
                "Di,Nunez,di@example.org,Active,Mentor,English;Español,Director Mentor Program,FY 2026-27",
            ],
        );
        let cols = check_header(&s.header).unwrap();
        let mut existing = HashMap::new();
        existing.insert("ana@example.org".to_owned(), stored("ana@example.org", 10));
        let mut cy = stored("cy@example.org", 10);
        cy.first_name = "Cyrus".into();
        existing.insert("cy@example.org".to_owned(), cy);
        let mut di = stored("di@example.org", 10);
        di.first_name = "Di".into();
        existing.insert("di@example.org".to_owned(), di);
        let (planned, errors) = plan(&s, &cols, &names(), &Scope::All, &existing);
        let outcomes: Vec<(usize, Outcome)> = planned.iter().map(|p| (p.row, p.outcome)).collect();
        assert_eq!(
            outcomes,
            [
                (2, Outcome::Unchanged),
                (3, Outcome::Created),
                (4, Outcome::Updated),
                (6, Outcome::Updated)
            ]
        );
        assert!(!planned[3].person_changes && planned[3].adds_taking, "a new participation only");
        assert_eq!(
            errors,
            [RowError { row: 5, column: "email".into(), message: "repeats row 3".into() }]
        );
    }

    #[test]
    fn a_coordinator_imports_into_its_own_programs_only() {
        let mine = Scope::Programs([10].into());
        let s = sheet(
            HEAD,
            &[
                "Ana,Nunez,ana@example.org,Active,Mentor,,Preschool Mentor Program,FY 2026-27",
                "Bo,Lee,bo@example.org,Active,Mentor,,Director Mentor Program,FY 2026-27",
                "Cy,Lee,cy@example.org,Active,Mentor,,,",
                "Di,Lee,di@example.org,Active,Mentor,,,",
            ],
        );
        let cols = check_header(&s.header).unwrap();
        let existing: HashMap<String, ParticipantDto> =
            [("di@example.org".to_owned(), stored("di@example.org", 11))].into();
        let (planned, errors) = plan(&s, &cols, &names(), &mine, &existing);
        assert_eq!(planned.len(), 1);
        let named: Vec<(usize, &str)> = errors.iter().map(|e| (e.row, e.column.as_str())).collect();
        assert_eq!(named, [(3, "mentorProgram"), (4, "mentorProgram"), (5, "email")]);
    }
}
