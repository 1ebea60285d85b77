//! Seeds the reference lists with the real lists of a California early-childhood
//! mentor program: the California community colleges, the six Child Development
//! Permit levels, the languages and settings of the state's child-care workforce, and
//! a starting set of programs, funds, expense accounts and approval codes (editable
//! through the API afterwards).

use sea_orm_migration::{prelude::*, sea_orm::ConnectionTrait};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The 116 colleges of the California Community Colleges system.
pub const COLLEGES: &[&str] = &[
    "Allan Hancock College", "American River College", "Antelope Valley College", "Bakersfield College",
    "Barstow Community College", "Berkeley City College", "Butte College", "Cabrillo College", "Calbright College",
    "Cañada College", "Cerritos College", "Cerro Coso Community College", "Chabot College", "Chaffey College",
    "Citrus College", "City College of San Francisco", "Clovis Community College", "Coastline College",
    "College of Alameda", "College of Marin", "College of San Mateo", "College of the Canyons", "College of the Desert",
    "College of the Redwoods", "College of the Sequoias", "College of the Siskiyous", "Columbia College",
    "Compton College", "Contra Costa College", "Copper Mountain College", "Cosumnes River College",
    "Crafton Hills College", "Cuesta College", "Cuyamaca College", "Cypress College", "De Anza College",
    "Diablo Valley College", "East Los Angeles College", "El Camino College", "Evergreen Valley College",
    "Feather River College", "Folsom Lake College", "Foothill College", "Fresno City College", "Fullerton College",
    "Gavilan College", "Glendale Community College", "Golden West College", "Grossmont College", "Hartnell College",
    "Imperial Valley College", "Irvine Valley College", "Lake Tahoe Community College", "Laney College",
    "Las Positas College", "Lassen College", "Long Beach City College", "Los Angeles City College",
    "Los Angeles Harbor College", "Los Angeles Mission College", "Los Angeles Pierce College",
    "Los Angeles Southwest College", "Los Angeles Trade-Technical College", "Los Angeles Valley College",
    "Los Medanos College", "Madera Community College", "Mendocino College", "Merced College", "Merritt College",
    "MiraCosta College", "Mission College", "Modesto Junior College", "Monterey Peninsula College", "Moorpark College",
    "Moreno Valley College", "Mt. San Antonio College", "Mt. San Jacinto College", "Napa Valley College",
    "Norco College", "Ohlone College", "Orange Coast College", "Oxnard College", "Palo Verde College",
    "Palomar College", "Pasadena City College", "Porterville College", "Reedley College", "Rio Hondo College",
    "Riverside City College", "Sacramento City College", "Saddleback College", "San Bernardino Valley College",
    "San Diego City College", "San Diego Mesa College", "San Diego Miramar College", "San Joaquin Delta College",
    "San Jose City College", "Santa Ana College", "Santa Barbara City College", "Santa Monica College",
    "Santa Rosa Junior College", "Santiago Canyon College", "Shasta College", "Sierra College", "Skyline College",
    "Solano Community College", "Southwestern College", "Taft College", "Ventura College", "Victor Valley College",
    "West Hills College Coalinga", "West Hills College Lemoore", "West Los Angeles College", "West Valley College",
    "Woodland Community College", "Yuba College",
];

/// (name, code) in ladder order: the Child Development Permit matrix of the
/// Commission on Teacher Credentialing.
const PERMIT_LEVELS: &[(&str, &str)] = &[
    ("Assistant", "CDP-AST"),
    ("Associate Teacher", "CDP-ATC"),
    ("Teacher", "CDP-TCH"),
    ("Master Teacher", "CDP-MTC"),
    ("Site Supervisor", "CDP-SSV"),
    ("Program Director", "CDP-PDR"),
];

const EDUCATION_LEVELS: &[&str] = &[
    "Less than high school",
    "High school diploma or GED",
    "Some college",
    "Child development certificate",
    "Associate degree",
    "Bachelor's degree",
    "Master's degree",
    "Doctorate",
];

const LANGUAGES: &[&str] = &[
    "English", "Spanish", "Cantonese", "Mandarin", "Vietnamese", "Tagalog", "Korean", "Armenian", "Russian", "Hmong",
    "Punjabi", "Arabic", "Farsi", "Japanese", "Khmer", "Hindi", "Lao", "Mixteco", "Portuguese", "Ukrainian",
    "American Sign Language", "Other",
];

/// Regions of the state as the program's caucus meetings group them.
const CAUCUS_REGIONS: &[&str] = &[
    "Bay Area", "Central Coast", "Central Valley", "Far North", "Inland Empire", "Los Angeles County",
    "North Coast", "Orange County", "Sacramento Region", "San Diego and Imperial", "San Joaquin Valley", "Sierra",
];

const WORKPLACE_SETTINGS: &[&str] = &[
    "Family child care home (small)",
    "Family child care home (large)",
    "Child care center",
    "Infant/toddler center",
    "State Preschool",
    "Head Start",
    "Early Head Start",
    "Migrant Head Start",
    "Transitional Kindergarten",
    "School-age program",
    "Tribal child care",
    "College child development center",
];

const INSTITUTIONS: &[&str] = &[
    "California community college",
    "California State University, Fullerton",
    "California State University, Long Beach",
    "California State University, Northridge",
    "California State University, Sacramento",
    "Fresno State",
    "San Diego State University",
    "San Francisco State University",
    "UC Berkeley Extension",
    "UC Davis Continuing and Professional Education",
    "UCLA Extension",
    "WestEd (Program for Infant/Toddler Care)",
    "California Department of Education",
    "Pacific Oaks College",
    "Other accredited institution",
];

const JOB_CATEGORIES: &[&str] = &[
    "Substitute teacher",
    "Assistant teacher",
    "Associate teacher",
    "Teacher",
    "Master teacher",
    "Site supervisor",
    "Program director",
    "Family child care assistant",
];

const TRAVEL_PURPOSES: &[&str] = &[
    "Mentor seminar",
    "Site visit or observation",
    "Mentor selection committee",
    "Regional caucus meeting",
    "Statewide institute",
    "Professional conference",
    "Program advisory meeting",
];

const TRANSIT_TYPES: &[&str] =
    &["Personal vehicle", "Rental car", "Public transit", "Rail", "Air", "Taxi or ride share", "Shuttle"];

const TRAINING_TYPES: &[&str] =
    &["Workshop", "Conference", "College course", "Online course", "Coaching institute", "Certification program"];

/// (name, code)
const MENTOR_PROGRAMS: &[(&str, &str)] = &[
    ("California Early Childhood Mentor Program", "CECMP"),
    ("Director Mentor Program", "DMP"),
    ("Family Child Care Mentor Program", "FCCMP"),
];

const FUNDS: &[(&str, &str)] = &[
    ("State General Fund", "GF"),
    ("Child Care and Development Fund (federal)", "CCDF"),
    ("Proposition 98", "P98"),
    ("Quality Counts California", "QCC"),
];

const EXPENSE_ACCOUNTS: &[(&str, &str)] = &[
    ("Mentor stipends", "5210"),
    ("Director mentor stipends", "5220"),
    ("Travel and mileage", "5310"),
    ("Lodging and meals", "5320"),
    ("Professional development", "5410"),
    ("Tuition and fees", "5510"),
    ("Substitute and release time", "5610"),
    ("Vendor services", "5710"),
];

/// (code, name, payment request type)
const APPROVAL_CODES: &[(&str, &str, &str)] = &[
    ("PS-STD", "Placement stipend, standard", "F1"),
    ("PS-EXT", "Placement stipend, extended placement", "F1"),
    ("ER-STD", "Expense reimbursement", "F2"),
    ("TM-STD", "Travel and mileage", "F3"),
    ("PD-STD", "Professional development", "F4"),
    ("SA-STD", "Seminar attendance", "F5"),
    ("LA-STD", "Leadership activity", "F6"),
    ("DM-STD", "Director mentor stipend", "F7"),
    ("IA-STD", "Institute attendance", "F8"),
    ("VP-STD", "Vendor payment", "F9"),
    ("RT-STD", "Release time / substitute", "F10"),
    ("LO-STD", "Lodging", "F11"),
    ("ME-STD", "Meals", "F12"),
    ("TU-STD", "Tuition and course fees", "F13"),
    ("CB-STD", "Completion bonus", "F14"),
];

/// Colleges the smaller programs work with (the first program works with all of them).
const DMP_COLLEGES: &[&str] = &[
    "American River College", "Cabrillo College", "De Anza College", "Fresno City College", "Long Beach City College",
    "Pasadena City College", "San Diego Mesa College", "Santa Rosa Junior College",
];
const FCCMP_COLLEGES: &[&str] =
    &["Butte College", "Chaffey College", "Hartnell College", "Merced College", "Mt. San Antonio College", "Yuba College"];

fn alias(s: &str) -> Alias {
    Alias::new(s)
}

/// Inserts `(name, code?, sort_order[, payment_request_type])` rows into one reference table.
async fn insert(m: &SchemaManager<'_>, table: &str, rows: &[(&str, Option<&str>, Option<&str>)], ordered: bool) -> Result<(), DbErr> {
    let mut q = Query::insert();
    q.into_table(alias(table));
    let mut cols = vec![alias("name"), alias("code"), alias("is_active"), alias("sort_order"), alias("created_at")];
    if table == "approval_codes" {
        cols.push(alias("payment_request_type"));
    }
    q.columns(cols);
    for (i, (name, code, kind)) in rows.iter().enumerate() {
        let order = if ordered { i as i32 + 1 } else { 0 };
        let mut values: Vec<Expr> = vec![
            (*name).into(),
            code.map(str::to_owned).into(),
            true.into(),
            order.into(),
            Expr::current_timestamp(),
        ];
        if let Some(kind) = kind {
            values.push((*kind).into());
        }
        q.values_panic(values);
    }
    m.exec_stmt(q).await
}

fn names(list: &[&'static str]) -> Vec<(&'static str, Option<&'static str>, Option<&'static str>)> {
    list.iter().map(|n| (*n, None, None)).collect()
}

fn coded(list: &[(&'static str, &'static str)]) -> Vec<(&'static str, Option<&'static str>, Option<&'static str>)> {
    list.iter().map(|(n, c)| (*n, Some(*c), None)).collect()
}

async fn id_of(m: &SchemaManager<'_>, table: &str, column: &str, value: &str) -> Result<i32, DbErr> {
    let db = m.get_connection();
    let select = Query::select().column(alias("id")).from(alias(table)).and_where(Expr::col(alias(column)).eq(value)).to_owned();
    let row = db.query_one(&select).await?.ok_or_else(|| DbErr::Custom(format!("seed: {table} {value} missing")))?;
    row.try_get_by_index::<i32>(0)
}

async fn link_colleges(m: &SchemaManager<'_>, program_code: &str, colleges: &[&str]) -> Result<(), DbErr> {
    let program = id_of(m, "mentor_programs", "code", program_code).await?;
    let mut q = Query::insert();
    q.into_table(alias("mentor_program_colleges")).columns([alias("mentor_program_id"), alias("college_id")]);
    for name in colleges {
        let college = id_of(m, "colleges", "name", name).await?;
        q.values_panic([program.into(), college.into()]);
    }
    m.exec_stmt(q).await
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        insert(m, "colleges", &names(COLLEGES), false).await?;
        insert(m, "permit_levels", &coded(PERMIT_LEVELS), true).await?;
        insert(m, "education_levels", &names(EDUCATION_LEVELS), true).await?;
        insert(m, "languages", &names(LANGUAGES), false).await?;
        insert(m, "caucus_regions", &names(CAUCUS_REGIONS), false).await?;
        insert(m, "workplace_settings", &names(WORKPLACE_SETTINGS), false).await?;
        insert(m, "institutions", &names(INSTITUTIONS), false).await?;
        insert(m, "job_categories", &names(JOB_CATEGORIES), false).await?;
        insert(m, "travel_purposes", &names(TRAVEL_PURPOSES), false).await?;
        insert(m, "transit_types", &names(TRANSIT_TYPES), false).await?;
        insert(m, "training_types", &names(TRAINING_TYPES), false).await?;
        insert(m, "mentor_programs", &coded(MENTOR_PROGRAMS), false).await?;
        insert(m, "funds", &coded(FUNDS), false).await?;
        insert(m, "expense_accounts", &coded(EXPENSE_ACCOUNTS), false).await?;
        let approval: Vec<_> = APPROVAL_CODES.iter().map(|(c, n, t)| (*n, Some(*c), Some(*t))).collect();
        insert(m, "approval_codes", &approval, false).await?;
        link_colleges(m, "CECMP", COLLEGES).await?;
        link_colleges(m, "DMP", DMP_COLLEGES).await?;
        link_colleges(m, "FCCMP", FCCMP_COLLEGES).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn lists_have_no_duplicates() {
        assert_eq!(COLLEGES.len(), 116);
        assert_eq!(COLLEGES.iter().collect::<HashSet<_>>().len(), COLLEGES.len());
        assert_eq!(PERMIT_LEVELS.len(), 6);
        for subset in [DMP_COLLEGES, FCCMP_COLLEGES] {
            assert!(subset.iter().all(|c| COLLEGES.contains(c)));
        }
        let codes: HashSet<_> = APPROVAL_CODES.iter().map(|(c, _, _)| c).collect();
        assert_eq!(codes.len(), APPROVAL_CODES.len());
    }
}
