//! Pure participant rules: body checks, district ranges, sorting (the enumerations are fixed
//! reference lists, re-exported here).

use chrono::NaiveDate;

use super::dto::{ParticipantBody, ParticipantDto, ParticipationBody};
pub use crate::reference::fixed::{DistrictSetType, ParticipantRole, ParticipantStatus};
use crate::{
    error::{ApiError, Checks, MAX_NAME_CHARS},
    reference::rules::contains_pattern,
};

/// Parses an optional enum query filter, naming the parameter when unknown.
pub fn enum_filter<T>(
    field: &str,
    raw: Option<&str>,
    parse: fn(&str) -> Option<T>,
    labels: fn() -> String,
) -> Result<Option<T>, ApiError> {
    match raw.map(str::trim).filter(|r| !r.is_empty()) {
        None => Ok(None),
        Some(r) => parse(r)
            .map(Some)
            .ok_or_else(|| ApiError::bad_field(field, format!("must be one of {}", labels()))),
    }
}

pub const MAX_PHONE_CHARS: usize = 30;
pub const MAX_ADDRESS_CHARS: usize = 500;

/// A checked participant body, ready to store. The full and sort names are not kept beside the
/// first and last names: they are derived from them on every write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CleanParticipant {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub status: ParticipantStatus,
    pub role: ParticipantRole,
    pub district: Option<(DistrictSetType, i32)>,
    pub caucus_region_id: Option<i32>,
    pub links: LinkIds,
}

/// The reference lists a participant is linked to, each as ids; the store keeps a link table
/// per list.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkIds {
    pub workplace_setting_ids: Vec<i32>,
    pub language_ids: Vec<i32>,
    pub education_level_ids: Vec<i32>,
    pub permit_level_ids: Vec<i32>,
}

impl LinkIds {
    /// Each list in order and without repeats, so that lists that differ only there compare
    /// equal.
    fn as_sets(&self) -> Self {
        Self {
            workplace_setting_ids: id_set(&self.workplace_setting_ids),
            language_ids: id_set(&self.language_ids),
            education_level_ids: id_set(&self.education_level_ids),
            permit_level_ids: id_set(&self.permit_level_ids),
        }
    }
}

/// A participant's own fields as a person edits them, link lists in order and without
/// repeats; no participations (each has its own history) and no bookkeeping. What an import
/// compares a row with, and what the audit trail records of a participant.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonFields {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub status: String,
    pub role_code: String,
    pub district_set_type: Option<String>,
    pub district_id: Option<i32>,
    pub caucus_region_id: Option<i32>,
    #[serde(flatten)]
    pub links: LinkIds,
}

fn id_set(ids: &[i32]) -> Vec<i32> {
    let mut v = ids.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

impl From<&CleanParticipant> for PersonFields {
    fn from(p: &CleanParticipant) -> Self {
        Self {
            first_name: p.first_name.clone(),
            last_name: p.last_name.clone(),
            email: p.email.clone(),
            phone: p.phone.clone(),
            address: p.address.clone(),
            status: p.status.code().to_owned(),
            role_code: p.role.code().to_owned(),
            district_set_type: p.district.map(|(t, _)| t.code().to_owned()),
            district_id: p.district.map(|(_, n)| n),
            caucus_region_id: p.caucus_region_id,
            links: p.links.as_sets(),
        }
    }
}

impl From<&ParticipantDto> for PersonFields {
    fn from(p: &ParticipantDto) -> Self {
        Self {
            first_name: p.first_name.clone(),
            last_name: p.last_name.clone(),
            email: p.email.clone(),
            phone: p.phone.clone(),
            address: p.address.clone(),
            status: p.status.clone(),
            role_code: p.role_code.clone(),
            district_set_type: p.district_set_type.clone(),
            district_id: p.district_id,
            caucus_region_id: p.caucus_region_id,
            links: LinkIds {
                workplace_setting_ids: id_set(&p.workplace_setting_ids),
                language_ids: id_set(&p.language_ids),
                education_level_ids: id_set(&p.education_level_ids),
                permit_level_ids: id_set(&p.permit_level_ids),
            },
        }
    }
}

impl CleanParticipant {
    /// "First Last", as shown.
    pub fn full_name(&self) -> String {
        full_name(&self.first_name, &self.last_name)
    }

    /// The full name as the row sorts and is searched by it.
    pub fn sort_name(&self) -> String {
        fold(&self.full_name())
    }
}

impl PersonFields {
    /// As the audit trail takes it.
    pub fn json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// Full name as shown and sorted: "First Last".
pub fn full_name(first: &str, last: &str) -> String {
    format!("{} {}", first.trim(), last.trim()).trim().to_owned()
}

fn optional_text(
    checks: &mut Checks,
    field: &str,
    raw: Option<&str>,
    max: usize,
) -> Option<String> {
    let text = raw.map(str::trim).filter(|t| !t.is_empty())?;
    if text.chars().count() > max {
        checks.add(field, format!("must be at most {max} characters"));
    }
    Some(text.to_owned())
}

fn phone(checks: &mut Checks, raw: Option<&str>) -> Option<String> {
    let p = optional_text(checks, "phone", raw, MAX_PHONE_CHARS)?;
    let digits = p.chars().filter(char::is_ascii_digit).count();
    if digits < 7 || !p.chars().all(|c| c.is_ascii_digit() || " +-().x".contains(c)) {
        checks.add("phone", "must be a phone number (digits, spaces, + - ( ) . x)");
    }
    Some(p)
}

/// Positive ids without repeats, in the order given.
pub fn ids(checks: &mut Checks, field: &str, raw: &[i32]) -> Vec<i32> {
    let mut out = Vec::new();
    for id in raw {
        if *id <= 0 {
            checks.add(field, format!("{id} is not a valid id"));
        } else if !out.contains(id) {
            out.push(*id);
        }
    }
    out
}

/// `checks` collects shape errors (400), `rules` the pairing and the range of the set (422).
fn district(
    checks: &mut Checks,
    rules: &mut Checks,
    set: Option<&str>,
    id: Option<i32>,
) -> Option<(DistrictSetType, i32)> {
    let set = set.map(str::trim).filter(|s| !s.is_empty());
    match (set, id) {
        (None, None) => None,
        (Some(_), None) => {
            rules.add("districtId", "is required with districtSetType");
            None
        }
        (None, Some(_)) => {
            rules.add("districtSetType", "is required with districtId");
            None
        }
        (Some(s), Some(n)) => match DistrictSetType::parse(s) {
            None => {
                checks.add(
                    "districtSetType",
                    format!("must be one of {}", DistrictSetType::labels()),
                );
                None
            }
            Some(t) if !(1..=t.max_district()).contains(&n) => {
                rules.add(
                    "districtId",
                    format!("must be between 1 and {} for {}", t.max_district(), t.code()),
                );
                None
            }
            Some(t) => Some((t, n)),
        },
    }
}

pub fn check_participant(body: &ParticipantBody) -> Result<CleanParticipant, ApiError> {
    let mut c = Checks::default();
    let first_name = c.name("firstName", &body.first_name);
    let last_name = c.name("lastName", &body.last_name);
    let email = c.email("email", &body.email);
    let phone = phone(&mut c, body.phone.as_deref());
    let address = optional_text(&mut c, "address", body.address.as_deref(), MAX_ADDRESS_CHARS);
    let status = ParticipantStatus::parse(&body.status);
    if status.is_none() {
        c.add("status", format!("must be one of {}", ParticipantStatus::labels()));
    }
    let role = ParticipantRole::parse(&body.role_code);
    if role.is_none() {
        c.add("roleCode", format!("must be one of {}", ParticipantRole::labels()));
    }
    let mut rules = Checks::default();
    let district =
        district(&mut c, &mut rules, body.district_set_type.as_deref(), body.district_id);
    if body.caucus_region_id.is_some_and(|id| id <= 0) {
        c.add("caucusRegionId", "is not a valid id");
    }
    let links = LinkIds {
        workplace_setting_ids: ids(&mut c, "workplaceSettingIds", &body.workplace_setting_ids),
        language_ids: ids(&mut c, "languageIds", &body.language_ids),
        education_level_ids: ids(&mut c, "educationLevelIds", &body.education_level_ids),
        permit_level_ids: ids(&mut c, "permitLevelIds", &body.permit_level_ids),
    };
    if full_name(&first_name, &last_name).chars().count() > 2 * MAX_NAME_CHARS + 1 {
        c.add("lastName", "the full name is too long");
    }
    c.finish()?;
    rules.finish_rules()?;
    Ok(CleanParticipant {
        first_name,
        last_name,
        email,
        phone,
        address,
        status: status.unwrap_or(ParticipantStatus::Active),
        role: role.unwrap_or(ParticipantRole::Mentor),
        district,
        caucus_region_id: body.caucus_region_id,
        links,
    })
}

/// A checked participation body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CleanParticipation {
    pub mentor_program_id: i32,
    pub fiscal_year_id: i32,
    pub role: ParticipantRole,
    pub college_id: Option<i32>,
    pub start_date: NaiveDate,
    pub end_date: Option<NaiveDate>,
}

/// `prefix` names nested fields (`participations[0].`) when checked inside a participant body.
pub fn check_participation(
    prefix: &str,
    body: &ParticipationBody,
    checks: &mut Checks,
) -> Option<CleanParticipation> {
    let field = |name: &str| format!("{prefix}{name}");
    let before = checks.0.len();
    if body.mentor_program_id <= 0 {
        checks.add(field("mentorProgramId"), "is not a valid id");
    }
    if body.fiscal_year_id <= 0 {
        checks.add(field("fiscalYearId"), "must be a positive fiscal year id");
    }
    if body.college_id.is_some_and(|id| id <= 0) {
        checks.add(field("collegeId"), "is not a valid id");
    }
    let role = ParticipantRole::parse(&body.role_code);
    if role.is_none() {
        checks.add(field("roleCode"), format!("must be one of {}", ParticipantRole::labels()));
    }
    if checks.0.len() != before {
        return None;
    }
    Some(CleanParticipation {
        mentor_program_id: body.mentor_program_id,
        fiscal_year_id: body.fiscal_year_id,
        role: role?,
        college_id: body.college_id,
        start_date: body.start_date,
        end_date: body.end_date,
    })
}

/// A participation's dates in order: one field against another, a rule (422) after the shape.
pub fn participation_order(prefix: &str, body: &ParticipationBody, rules: &mut Checks) {
    if body.end_date.is_some_and(|end| end < body.start_date) {
        rules.add(format!("{prefix}endDate"), "must be on or after startDate");
    }
}

/// A search filter's text (`FullName`, `Email`): trimmed, None when empty.
pub fn search_text(raw: Option<&str>) -> Option<String> {
    raw.map(str::trim).filter(|r| !r.is_empty()).map(str::to_owned)
}

/// `%text%` folded like [`fold`], with LIKE's wildcards escaped (backslash): matches the
/// folded `sort_name` (and the lower-case e-mail) on the row.
pub fn search_pattern(text: &str) -> String {
    contains_pattern(&fold(text))
}

/// A name as it sorts and is searched on the row: lower case without accents ("Ángel
/// Núñez" → "angel nunez"), as the trigram index folds it (`remove_diacritics`), so that
/// walking the sort index with LIKE finds what the index finds and "Ávila" sorts with
/// "Avila". Migration 000130 holds a copy for the names stored before.
pub fn fold(text: &str) -> String {
    use unicode_normalization::{char::is_combining_mark, UnicodeNormalization};
    text.nfd().filter(|c| !is_combining_mark(*c)).flat_map(char::to_lowercase).collect()
}

/// An FTS5 query for `text` as one phrase in `column`: with the trigram tokenizer, rows
/// whose column contains `text`. Inside the quotes only `"` is special (doubled).
pub fn fts_phrase(column: &str, text: &str) -> String {
    format!("{column} : \"{}\"", text.replace('"', "\"\""))
}

/// A participant's programs as stored in `program_keys`: sorted, once each, every id
/// between commas (`,1,3,`), so "takes part in 1" is the pattern `%,1,%` and never
/// matches 11; empty when it takes part in none.
pub fn program_keys(programs: &[i32]) -> String {
    let mut ids = programs.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return String::new();
    }
    ids.iter().fold(String::from(","), |mut s, id| {
        s.push_str(&format!("{id},"));
        s
    })
}

/// The LIKE pattern finding `program` in `program_keys`.
pub fn program_key_pattern(program: i32) -> String {
    format!("%,{program},%")
}

/// What a non-administrator creating a participant must bring: at least one
/// participation, every one in a program of its scope (else the new participant would
/// be invisible to its creator, or land in someone else's program).
pub fn check_creation_scope(
    scope: &crate::auth::scope::Scope,
    programs: &[i32],
) -> Result<(), ApiError> {
    if scope.is_all() {
        return Ok(());
    }
    if programs.is_empty() {
        return Err(ApiError::rule(
            "participations",
            "add at least one participation in a mentor program you coordinate",
        ));
    }
    for (i, p) in programs.iter().enumerate() {
        scope.require_program(*p, &format!("participations[{i}].mentorProgramId"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::scope::Scope;

    use crate::participants::dto::SortBy;

    #[test]
    fn program_keys_are_sorted_unique_and_comma_fenced() {
        assert_eq!(program_keys(&[]), "");
        assert_eq!(program_keys(&[3]), ",3,");
        assert_eq!(program_keys(&[11, 1, 3, 1]), ",1,3,11,");
        let keys = program_keys(&[11, 21]);
        let like = |p: &str| {
            let inner = p.trim_matches('%');
            keys.contains(inner)
        };
        assert!(!like(&program_key_pattern(1)), "1 must not match 11 or 21");
        assert!(like(&program_key_pattern(11)) && like(&program_key_pattern(21)));
    }

    pub fn body() -> ParticipantBody {
        ParticipantBody {
            first_name: " Ana ".into(),
            last_name: "Núñez".into(),
            email: "Ana@Example.org".into(),
            phone: Some("(916) 555-0100".into()),
            address: Some(" 1 Capitol Mall, Sacramento ".into()),
            status: "active".into(),
            role_code: "DirectorMentor".into(),
            district_set_type: Some("Senate".into()),
            district_id: Some(6),
            caucus_region_id: Some(3),
            workplace_setting_ids: vec![1, 1, 2],
            language_ids: vec![2],
            education_level_ids: vec![],
            permit_level_ids: vec![4],
            participations: None,
            version: None,
        }
    }

    fn fields(err: ApiError) -> Vec<String> {
        match err {
            ApiError::BadRequest { errors, .. } => errors.into_keys().collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn names_fold_to_lower_case_without_accents_as_migration_000130_did() {
        use migration::m20261124_000130_participant_folded_sort_name::fold as migrated;
        for (name, folded) in [
            ("Ángel Núñez", "angel nunez"),
            ("Zoë Ångström", "zoe angstrom"),
            ("ÇELIK ØYSTEIN", "celik øystein"),
            ("Soo-ah Lee", "soo-ah lee"),
        ] {
            assert_eq!(fold(name), folded);
            // A change of the fold needs a migration that folds the names stored before.
            assert_eq!(migrated(name), folded);
        }
        assert_eq!(search_pattern(" Nú_ñ%"), "%nu\\_n\\%%");
    }

    #[test]
    fn a_good_body_is_cleaned() {
        let p = check_participant(&body()).unwrap();
        assert_eq!(p.full_name(), "Ana Núñez");
        assert_eq!(p.sort_name(), "ana nunez");
        assert_eq!(p.email, "ana@example.org");
        assert_eq!(p.status, ParticipantStatus::Active);
        assert_eq!(p.role, ParticipantRole::DirectorMentor);
        assert_eq!(p.district, Some((DistrictSetType::Senate, 6)));
        assert_eq!(p.links.workplace_setting_ids, [1, 2]);
        assert_eq!(p.address.as_deref(), Some("1 Capitol Mall, Sacramento"));
    }

    #[test]
    fn unknown_enum_values_name_their_field() {
        let b = ParticipantBody { status: "Retired".into(), role_code: "Boss".into(), ..body() };
        assert_eq!(fields(check_participant(&b).unwrap_err()), ["roleCode", "status"]);
        let b = ParticipantBody { district_set_type: Some("County".into()), ..body() };
        assert_eq!(fields(check_participant(&b).unwrap_err()), ["districtSetType"]);
    }

    #[test]
    fn districts_come_in_pairs_within_california_ranges() {
        for (set, id, ok) in [
            (Some("Assembly"), Some(80), true),
            (Some("Assembly"), Some(81), false),
            (Some("Senate"), Some(41), false),
            (Some("Congressional"), Some(52), true),
            (Some("Congressional"), Some(0), false),
            (None, Some(3), false),
            (Some("Senate"), None, false),
            (None, None, true),
        ] {
            let b = ParticipantBody {
                district_set_type: set.map(Into::into),
                district_id: id,
                ..body()
            };
            assert_eq!(check_participant(&b).is_ok(), ok, "{set:?} {id:?}");
        }
    }

    #[test]
    fn contact_fields() {
        for bad in ["12", "call me", "555-0100-abc"] {
            let b = ParticipantBody { phone: Some(bad.into()), ..body() };
            assert_eq!(fields(check_participant(&b).unwrap_err()), ["phone"], "{bad}");
        }
        let b = ParticipantBody {
            phone: Some("  ".into()),
            address: None,
            email: "nope".into(),
            ..body()
        };
        assert_eq!(fields(check_participant(&b).unwrap_err()), ["email"]);
        let b = ParticipantBody { address: Some("x".repeat(501)), ..body() };
        assert_eq!(fields(check_participant(&b).unwrap_err()), ["address"]);
        let b = ParticipantBody {
            first_name: "".into(),
            permit_level_ids: vec![0],
            caucus_region_id: Some(-1),
            ..body()
        };
        assert_eq!(
            fields(check_participant(&b).unwrap_err()),
            ["caucusRegionId", "firstName", "permitLevelIds"]
        );
    }

    fn participation() -> ParticipationBody {
        ParticipationBody {
            mentor_program_id: 1,
            fiscal_year_id: 2,
            role_code: "Coordinator".into(),
            college_id: Some(5),
            start_date: NaiveDate::from_ymd_opt(2026, 7, 1).unwrap(),
            end_date: Some(NaiveDate::from_ymd_opt(2027, 6, 30).unwrap()),
        }
    }

    #[test]
    fn participations() {
        let mut c = Checks::default();
        let p = check_participation("", &participation(), &mut c).unwrap();
        assert_eq!(p.role, ParticipantRole::Coordinator);
        let bad = ParticipationBody {
            fiscal_year_id: 0,
            role_code: "x".into(),
            end_date: Some(NaiveDate::from_ymd_opt(2026, 6, 30).unwrap()),
            mentor_program_id: -1,
            college_id: Some(0),
            ..participation()
        };
        assert!(check_participation("participations[1].", &bad, &mut c).is_none());
        let mut r = Checks::default();
        participation_order("participations[1].", &bad, &mut r);
        assert!(r.0.contains_key("participations[1].endDate"));
        let keys: Vec<_> = c.0.keys().cloned().collect();
        assert_eq!(
            keys,
            [
                "participations[1].collegeId",
                "participations[1].fiscalYearId",
                "participations[1].mentorProgramId",
                "participations[1].roleCode"
            ]
        );
    }

    #[test]
    fn sorting_and_filters() {
        assert_eq!(SortBy::parse(None).unwrap(), SortBy::FullName);
        assert_eq!(SortBy::parse(Some("UPDATEDAT")).unwrap(), SortBy::UpdatedAt);
        assert!(SortBy::parse(Some("salary")).is_err());
        assert_eq!(
            enum_filter(
                "Status",
                Some("pending"),
                ParticipantStatus::parse,
                ParticipantStatus::labels
            )
            .unwrap(),
            Some(ParticipantStatus::Pending)
        );
        assert!(enum_filter(
            "Status",
            Some("x"),
            ParticipantStatus::parse,
            ParticipantStatus::labels
        )
        .is_err());
        assert_eq!(
            enum_filter("Status", None, ParticipantStatus::parse, ParticipantStatus::labels)
                .unwrap(),
            None
        );
        assert_eq!(search_text(Some(" Ana ")).as_deref(), Some("Ana"));
        assert_eq!(search_text(Some("  ")), None);
        assert_eq!(search_pattern("Ana_"), "%ana\\_%");
        assert_eq!(fts_phrase("email", r#"a"b c"#), r#"email : "a""b c""#);
    }

    #[test]
    fn creation_scope() {
        assert!(check_creation_scope(&Scope::All, &[]).is_ok());
        let s = Scope::decide(false, Some(1), [2], []);
        assert!(matches!(check_creation_scope(&s, &[]), Err(ApiError::Unprocessable { .. })));
        assert!(check_creation_scope(&s, &[2]).is_ok());
        assert!(matches!(check_creation_scope(&s, &[2, 3]), Err(ApiError::Forbidden(_))));
    }

    #[test]
    fn enum_codes() {
        assert_eq!(ParticipantRole::parse("directormentor"), Some(ParticipantRole::DirectorMentor));
        assert_eq!(ParticipantRole::codes(), "Mentor, DirectorMentor, Coordinator, Administrator");
        // Messages name the values in words.
        assert_eq!(
            ParticipantRole::labels(),
            "Mentor, Director mentor, Coordinator, Administrator"
        );
        let err =
            enum_filter("RoleCode", Some("Boss"), ParticipantRole::parse, ParticipantRole::labels)
                .unwrap_err();
        assert!(
            format!("{err:?}")
                .contains("must be one of Mentor, Director mentor, Coordinator, Administrator"),
            "{err:?}"
        );
        assert_eq!(DistrictSetType::Assembly.max_district(), 80);
        assert_eq!(full_name(" Ana ", ""), "Ana");
    }
}
