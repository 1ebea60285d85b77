//! The import's pure rules: which columns a sheet may have (headers in words, or the
//! participant body's names that older files use), how a row becomes a participant body
//! (reference items by name or code and the closed sets by code or in words, all matched
//! whatever their case, spaces and accents; lists split on `;`; dates in the office's format
//! or ISO), and what each row would do against the participants that exist. Each row is
//! checked by the same rules as `POST /participants`; its problems are reported by row,
//! column in words and the value.

use std::collections::{HashMap, HashSet};

use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

use super::file::Sheet;
use crate::{
    auth::scope::Scope,
    entities::codes::{DistrictSetType, ParticipantRole, ParticipantStatus},
    error::ApiError,
    participants::{
        dto::{ParticipantBody, ParticipantDto, ParticipationBody},
        rules::{self, fold, CleanParticipant, CleanParticipation, PersonFields},
    },
    settings::date_format::DateFormat,
};

/// One column of the sheet: its key (the participant body's name for it, which older files
/// have as their header) and its header in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub key: &'static str,
    pub words: &'static str,
}

const fn col(key: &'static str, words: &'static str) -> Column {
    Column { key, words }
}

/// The participant's own columns.
pub const PERSON: [Column; 14] = [
    col("firstName", "First name"),
    col("lastName", "Last name"),
    col("email", "E-mail"),
    col("phone", "Phone"),
    col("address", "Address"),
    col("status", "Status"),
    col("roleCode", "Role"),
    col("districtSetType", "District set"),
    col("districtId", "District number"),
    col("caucusRegion", "Caucus region"),
    col("workplaceSettings", "Workplace settings"),
    col("languages", "Languages"),
    col("educationLevels", "Education levels"),
    col("permitLevels", "Permit levels"),
];
/// Optional columns that add a participation.
pub const TAKING: [Column; 5] = [
    col("mentorProgram", "Program"),
    col("fiscalYear", "Fiscal year"),
    col("programRole", "Role in program"),
    col("college", "College"),
    col("startDate", "Start date"),
];
pub const REQUIRED: [&str; 5] = ["firstName", "lastName", "email", "status", "roleCode"];
/// The columns that hold several names separated by `;`.
pub const LISTS: [&str; 4] = ["workplaceSettings", "languages", "educationLevels", "permitLevels"];

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

pub fn columns() -> impl Iterator<Item = Column> {
    PERSON.into_iter().chain(TAKING)
}

/// A column's header in words, from its key (the key itself for one that is not a column).
pub fn words(key: &str) -> &str {
    columns().find(|c| c.key == key).map_or(key, |c| c.words)
}

/// A header or a name as it is matched: lower case, without accents, spaces or punctuation
/// for a header ("E-mail", "email" and "E mail" are one).
fn header_key(text: &str) -> String {
    fold(text).chars().filter(|c| c.is_alphanumeric()).collect()
}

/// Where each known column sits in the sheet.
#[derive(Debug, Clone)]
pub struct Columns(HashMap<&'static str, usize>);

impl Columns {
    fn cell<'a>(&self, cells: &'a [String], key: &str) -> &'a str {
        self.0.get(key).and_then(|i| cells.get(*i)).map_or("", |c| c.trim())
    }
}

/// The header: known columns only (in words or by their key, any case and spacing), each
/// once, the required ones present.
pub fn check_header(header: &[String]) -> Result<Columns, ApiError> {
    let mut found = HashMap::new();
    let mut unknown = Vec::new();
    let mut repeated = Vec::new();
    for (i, raw) in header.iter().enumerate() {
        let name = raw.trim();
        let wanted = header_key(name);
        let known = columns().find(|c| {
            !wanted.is_empty() && (header_key(c.words) == wanted || header_key(c.key) == wanted)
        });
        match known {
            Some(c) if found.insert(c.key, i).is_some() => repeated.push(c.words),
            Some(_) => {}
            None => {
                unknown.push(if name.is_empty() { "(blank)".to_owned() } else { name.to_owned() })
            }
        }
    }
    let missing: Vec<&str> =
        REQUIRED.into_iter().filter(|c| !found.contains_key(c)).map(words).collect();
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

/// An active item of a reference list, as a sheet may name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub id: i32,
    pub name: String,
    /// Programs, and the other lists that have codes.
    pub code: Option<String>,
}

/// What a sheet is read against, as stored: each list's active items in the list's order,
/// the fiscal years with their first day (a participation's default start), and how the
/// office writes a day.
#[derive(Debug, Clone, Default)]
pub struct Lists {
    pub caucus_regions: Vec<Item>,
    pub workplace_settings: Vec<Item>,
    pub languages: Vec<Item>,
    pub education_levels: Vec<Item>,
    pub permit_levels: Vec<Item>,
    pub mentor_programs: Vec<Item>,
    pub colleges: Vec<Item>,
    pub fiscal_years: Vec<(Item, NaiveDate)>,
    pub date_format: DateFormat,
}

/// A name as it is matched: lower case, without accents or spaces.
pub fn key(name: &str) -> String {
    fold(name).chars().filter(|c| !c.is_whitespace()).collect()
}

/// A list's items by every way a row may name them (name, and code where there is one).
#[derive(Debug, Default)]
pub struct Lookup(HashMap<String, Vec<usize>>, Vec<Item>);

/// What a name finds in a list.
#[derive(Debug, PartialEq, Eq)]
enum Found<'a> {
    One(&'a Item),
    /// Two items or more answer to it: each is named so the row can say which.
    Several(Vec<&'a Item>),
    None,
}

impl Lookup {
    pub fn new(items: &[Item]) -> Self {
        let mut by: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            for said in [Some(item.name.as_str()), item.code.as_deref()].into_iter().flatten() {
                let slot = by.entry(key(said)).or_default();
                if !slot.contains(&i) {
                    slot.push(i);
                }
            }
        }
        Lookup(by, items.to_vec())
    }

    fn find(&self, raw: &str) -> Found<'_> {
        match self.0.get(&key(raw)).map(Vec::as_slice) {
            None | Some([]) => Found::None,
            Some([one]) => Found::One(&self.1[*one]),
            Some(many) => Found::Several(many.iter().map(|i| &self.1[*i]).collect()),
        }
    }
}

/// The lists a row is read against, ready to match.
#[derive(Debug, Default)]
pub struct Known {
    pub caucus_regions: Lookup,
    pub workplace_settings: Lookup,
    pub languages: Lookup,
    pub education_levels: Lookup,
    pub permit_levels: Lookup,
    pub mentor_programs: Lookup,
    pub colleges: Lookup,
    pub fiscal_years: Lookup,
    pub year_starts: HashMap<i32, NaiveDate>,
    pub date_format: DateFormat,
}

impl Known {
    pub fn new(lists: &Lists) -> Self {
        let years: Vec<Item> = lists.fiscal_years.iter().map(|(y, _)| y.clone()).collect();
        Known {
            caucus_regions: Lookup::new(&lists.caucus_regions),
            workplace_settings: Lookup::new(&lists.workplace_settings),
            languages: Lookup::new(&lists.languages),
            education_levels: Lookup::new(&lists.education_levels),
            permit_levels: Lookup::new(&lists.permit_levels),
            mentor_programs: Lookup::new(&lists.mentor_programs),
            colleges: Lookup::new(&lists.colleges),
            fiscal_years: Lookup::new(&years),
            year_starts: lists.fiscal_years.iter().map(|(y, start)| (y.id, *start)).collect(),
            date_format: lists.date_format,
        }
    }
}

/// A closed set's value as its code, whether the row gives the code (`DirectorMentor`) or the
/// words (`director mentor`); anything else as it is, for the participant rules to refuse.
fn closed_code(raw: &str, labelled: &[(&'static str, &'static str)]) -> String {
    let wanted = key(raw);
    labelled
        .iter()
        .find(|(code, label)| key(code) == wanted || key(label) == wanted)
        .map_or_else(|| raw.to_owned(), |(code, _)| (*code).to_owned())
}

/// One problem of one row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct RowError {
    /// The row as a spreadsheet numbers it (the header is row 1).
    pub row: usize,
    /// The column in words, as the template's header names it ("Start date"); empty for a
    /// problem of the whole row.
    pub column: String,
    /// The cell as the row has it (empty when it is blank or the sheet has no such column).
    pub value: String,
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

/// A body field's name as the sheet's column key.
fn column_of(field: &str) -> &str {
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
}

/// A row's problems as they are found, each with its column in words and the cell's value.
struct RowChecks<'a> {
    row: usize,
    columns: &'a Columns,
    cells: &'a [String],
    errors: Vec<RowError>,
}

impl<'a> RowChecks<'a> {
    fn new(row: usize, columns: &'a Columns, cells: &'a [String]) -> Self {
        RowChecks { row, columns, cells, errors: Vec::new() }
    }

    fn cell(&self, key: &str) -> &'a str {
        self.columns.cell(self.cells, key)
    }

    /// A problem of the column `key`.
    fn add(&mut self, key: &str, message: impl Into<String>) {
        self.errors.push(RowError {
            row: self.row,
            column: words(key).to_owned(),
            value: self.cell(key).to_owned(),
            message: message.into(),
        });
    }

    fn add_problem(&mut self, e: ApiError) {
        match e {
            ApiError::BadRequest { errors, .. } | ApiError::Unprocessable { errors, .. } => {
                for (field, messages) in errors {
                    for m in messages {
                        self.add(column_of(&field), m);
                    }
                }
            }
            other => self.add("", other.to_string()),
        }
    }

    /// The item `raw` names in a list, or an error naming what it matched (nothing, or more
    /// than one item).
    fn one(&mut self, key: &str, raw: &str, list: &Lookup) -> Option<i32> {
        if raw.is_empty() {
            return None;
        }
        match list.find(raw) {
            Found::One(item) => Some(item.id),
            Found::None => {
                let what = match key {
                    "mentorProgram" => "program name or code",
                    "fiscalYear" => "fiscal year",
                    _ => "name",
                };
                self.add(key, format!("\"{raw}\" is not a known, active {what}"));
                None
            }
            Found::Several(items) => {
                let named: Vec<String> = items
                    .iter()
                    .map(|i| match &i.code {
                        Some(code) => format!("{} ({code})", i.name),
                        None => i.name.clone(),
                    })
                    .collect();
                self.add(
                    key,
                    format!(
                        "\"{raw}\" is ambiguous: it names {}; write the full name or the code",
                        named.join(" and ")
                    ),
                );
                None
            }
        }
    }

    /// Names separated by `;`, each known.
    fn many(&mut self, key: &str, list: &Lookup) -> Vec<i32> {
        let raw = self.cell(key);
        raw.split(';')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .filter_map(|n| self.one(key, n, list))
            .collect()
    }
}

/// A row read into the participant body and its participation, checked by the participant
/// rules; its errors otherwise.
pub fn read_row(
    columns: &Columns,
    row: usize,
    cells: &[String],
    known: &Known,
) -> Result<(CleanParticipant, Option<CleanParticipation>), Vec<RowError>> {
    let mut c = RowChecks::new(row, columns, cells);
    let cell = |key: &str| columns.cell(cells, key);
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
    let text = |key: &str| Some(cell(key).to_owned()).filter(|t| !t.is_empty());
    let body = ParticipantBody {
        first_name: cell("firstName").to_owned(),
        last_name: cell("lastName").to_owned(),
        email: cell("email").to_owned(),
        phone: text("phone"),
        address: text("address"),
        status: closed_code(cell("status"), ParticipantStatus::LABELLED),
        role_code: closed_code(cell("roleCode"), ParticipantRole::LABELLED),
        district_set_type: text("districtSetType")
            .map(|t| closed_code(&t, DistrictSetType::LABELLED)),
        district_id,
        caucus_region_id: c.one("caucusRegion", cell("caucusRegion"), &known.caucus_regions),
        workplace_setting_ids: c.many("workplaceSettings", &known.workplace_settings),
        language_ids: c.many("languages", &known.languages),
        education_level_ids: c.many("educationLevels", &known.education_levels),
        permit_level_ids: c.many("permitLevels", &known.permit_levels),
        participations: None,
        version: None,
    };
    let person = rules::check_participant(&body).map_err(|e| c.add_problem(e)).ok();
    let taking = read_taking(&mut c, &body.role_code, known);
    if !c.errors.is_empty() {
        return Err(c.errors);
    }
    Ok((person.expect("no errors means checked"), taking))
}

fn read_taking(c: &mut RowChecks<'_>, role: &str, known: &Known) -> Option<CleanParticipation> {
    if TAKING.iter().all(|t| c.cell(t.key).is_empty()) {
        return None;
    }
    let program = c.cell("mentorProgram");
    if program.is_empty() {
        c.add("mentorProgram", "is required when a participation is given");
    }
    let program = c.one("mentorProgram", program, &known.mentor_programs);
    let year = match c.cell("fiscalYear") {
        "" => {
            c.add("fiscalYear", "is required when a participation is given");
            None
        }
        raw => c.one("fiscalYear", raw, &known.fiscal_years),
    };
    let college = c.one("college", c.cell("college"), &known.colleges);
    let start = match c.cell("startDate") {
        "" => year.and_then(|y| known.year_starts.get(&y).copied()),
        raw => {
            let day = known.date_format.read(raw);
            if day.is_none() {
                c.add(
                    "startDate",
                    format!("must be a date written {}", known.date_format.accepted()),
                );
            }
            day
        }
    };
    let program_role = match c.cell("programRole") {
        "" => role.to_owned(),
        r => closed_code(r, ParticipantRole::LABELLED),
    };
    let (program, year, start) = (program?, year?, start?);
    let body = ParticipationBody {
        mentor_program_id: program,
        fiscal_year_id: year,
        role_code: program_role,
        college_id: college,
        start_date: start,
        end_date: None,
    };
    let mut checks = crate::error::Checks::default();
    let clean = rules::check_participation("", &body, &mut checks);
    for (field, messages) in checks.0 {
        let key = if field == "roleCode" { "programRole" } else { column_of(&field) };
        for m in messages {
            c.add(key, m);
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
    known: &Known,
    scope: &Scope,
    existing: &HashMap<String, ParticipantDto>,
) -> (Vec<Planned>, Vec<RowError>) {
    let mut planned = Vec::new();
    let mut errors = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (row, cells) in &sheet.rows {
        let mut c = RowChecks::new(*row, columns, cells);
        // Repeats are found on every row, whatever else is wrong with it.
        let email = columns.cell(cells, "email").to_lowercase();
        match seen.get(&email) {
            Some(first) => c.add("email", format!("repeats row {first}")),
            None if !email.is_empty() => {
                seen.insert(email, *row);
            }
            None => {}
        }
        let (person, taking) = match read_row(columns, *row, cells, known) {
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

    fn items(pairs: &[(&str, Option<&str>, i32)]) -> Vec<Item> {
        pairs
            .iter()
            .map(|(name, code, id)| Item {
                id: *id,
                name: (*name).into(),
                code: code.map(str::to_owned),
            })
            .collect()
    }

    fn lists(date_format: DateFormat) -> Lists {
        let plain = |pairs: &[(&str, i32)]| {
            items(&pairs.iter().map(|(n, id)| (*n, None, *id)).collect::<Vec<_>>())
        };
        Lists {
            languages: plain(&[("English", 1), ("Español", 2)]),
            workplace_settings: plain(&[("Center", 1)]),
            education_levels: plain(&[("Bachelor's degree", 3)]),
            permit_levels: items(&[("Teacher", Some("T"), 2)]),
            caucus_regions: plain(&[("Bay Area", 1)]),
            mentor_programs: items(&[
                ("Preschool Mentor Program", Some("PMP"), 10),
                ("Director Mentor Program", Some("DMP"), 11),
                // Its name is another program's code.
                ("PMP", Some("PMP2"), 12),
            ]),
            colleges: plain(&[("Cañada College", 5)]),
            fiscal_years: vec![(
                items(&[("FY 2026-27", None, 7)]).remove(0),
                NaiveDate::from_ymd_opt(2026, 7, 1).unwrap(),
            )],
            date_format,
        }
    }

    fn names() -> Known {
        Known::new(&lists(DateFormat::MonthDayYear))
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
        let bad = sheet("firstName,email,nickname,E-mail,status", &[]);
        assert_eq!(
            message(check_header(&bad.header).unwrap_err()),
            "unknown columns: nickname; repeated columns: E-mail; missing columns: Last name, Role (the template lists the columns)"
        );
        // The headers in words, any case and spacing, mixed with the old ones.
        let words = sheet("First name,LAST NAME, e-mail ,Email address?,Status,role", &[]);
        assert!(message(check_header(&words.header).unwrap_err())
            .starts_with("unknown columns: Email address? ("));
        let words =
            sheet("First name,LAST NAME, e-mail ,Status,role,Program,startDate,Start Date", &[]);
        assert!(message(check_header(&words.header).unwrap_err())
            .contains("repeated columns: Start date"));
        let words = sheet("First name,LAST NAME, e mail ,Status,role,Role in program,Program", &[]);
        let cols = check_header(&words.header).unwrap();
        assert_eq!((cols.0["email"], cols.0["roleCode"], cols.0["programRole"]), (2, 4, 5));
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

    const TAKING_HEAD: &str =
        "First name,Last name,E-mail,Status,Role,Program,Fiscal year,Role in program,Start date";

    /// The program, the role in it and the start day a row with these cells reads to.
    fn taking_of(
        known: &Known,
        program: &str,
        role: &str,
        start: &str,
    ) -> Result<(i32, String, String), Vec<RowError>> {
        let row = format!(
            "Ana,Nunez,ana@example.org,Active,director mentor,{program},FY2026-27,{role},{start}"
        );
        let s = sheet(TAKING_HEAD, &[row.as_str()]);
        let cols = check_header(&s.header).unwrap();
        let (person, taking) = read_row(&cols, 2, &s.rows[0].1, known)?;
        assert_eq!(person.role, ParticipantRole::DirectorMentor, "a closed set in words");
        let t = taking.unwrap();
        Ok((t.mentor_program_id, t.role.code().to_owned(), t.start_date.to_string()))
    }

    #[test]
    fn programs_by_code_or_name_closed_sets_in_words_and_dates_as_the_office_writes_them() {
        let us = names();
        let read = taking_of(&us, " dmp ", "Mentor", "7/1/2026").unwrap();
        assert_eq!(read, (11, "Mentor".to_owned(), "2026-07-01".to_owned()));
        let read =
            taking_of(&us, "DIRECTORMENTOR program", "Director mentor", "2026-12-31").unwrap();
        assert_eq!(read, (11, "DirectorMentor".to_owned(), "2026-12-31".to_owned()));
        // The day-first office reads the same text as the 7th of January; ISO either way.
        let day_first = Known::new(&lists(DateFormat::DayMonthYear));
        assert_eq!(taking_of(&day_first, "dmp", "", "7/1/2026").unwrap().2, "2026-01-07");
        assert_eq!(taking_of(&day_first, "dmp", "", "2026-07-01").unwrap().2, "2026-07-01");
        let e = taking_of(&day_first, "dmp", "", "12/31/2026").unwrap_err();
        assert_eq!(
            (e[0].row, e[0].column.as_str(), e[0].value.as_str(), e[0].message.as_str()),
            (2, "Start date", "12/31/2026", "must be a date written DD/MM/YYYY or YYYY-MM-DD")
        );
        // "PMP" is one program's code and another's name: which one is not guessed.
        let e = taking_of(&us, "pmp", "", "").unwrap_err();
        assert_eq!((e[0].column.as_str(), e[0].value.as_str()), ("Program", "pmp"));
        assert_eq!(
            e[0].message,
            "\"pmp\" is ambiguous: it names Preschool Mentor Program (PMP) and PMP (PMP2); write the full name or the code"
        );
        let e = taking_of(&us, "Nowhere", "Boss", "").unwrap_err();
        let said: Vec<(&str, &str)> =
            e.iter().map(|e| (e.column.as_str(), e.value.as_str())).collect();
        assert_eq!(said, [("Program", "Nowhere")]);
        assert!(e[0].message.contains("is not a known, active program name or code"), "{e:?}");
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
                (2, "E-mail"),
                (2, "Fiscal year"),
                (2, "Languages"),
                (2, "Program"),
                (2, "Role"),
                (2, "Status"),
                (3, "Last name")
            ]
            .into_iter()
            .collect()
        );
        assert!(errors.iter().any(|e| e.message.contains("\"Klingon\" is not a known")));
        assert!(errors.iter().any(|e| e.column == "Status" && e.value == "Retired"), "{errors:?}");
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
            [RowError {
                row: 5,
                column: "E-mail".into(),
                value: "BO@example.org".into(),
                message: "repeats row 3".into()
            }]
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
        assert_eq!(named, [(3, "Program"), (4, "Program"), (5, "E-mail")]);
    }
}
