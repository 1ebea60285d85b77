//! The import's template, from the live lists: the header in words and one example row (CSV
//! and XLSX); the workbook also has a drop-down on every column that takes values from a list,
//! an "Allowed values" sheet those drop-downs read, and a "Notes" sheet that says how to
//! write each column, dates in the office's format included. The import reads only the first
//! sheet, so the others never get in its way.

use chrono::NaiveDate;
use rust_xlsxwriter::{
    DataValidation, DataValidationErrorStyle, Format, Formula, Workbook, Worksheet, XlsxError,
};

use super::{
    file::MAX_ROWS,
    rules::{self, Item, Lists},
};
use crate::entities::codes::{DistrictSetType, ParticipantRole, ParticipantStatus};

pub const ALLOWED_SHEET: &str = "Allowed values";
pub const NOTES_SHEET: &str = "Notes";

/// The header in words and the example row: a CSV file holds no lists, the workbook does.
pub fn csv() -> Result<Vec<u8>, csv::Error> {
    // The byte-order mark makes Excel read the file as UTF-8 (accented names).
    let mut out = "\u{feff}".as_bytes().to_vec();
    {
        let mut w = csv::Writer::from_writer(&mut out);
        w.write_record(rules::columns().map(|c| c.words))?;
        w.write_record(rules::EXAMPLE)?;
        w.flush()?;
    }
    Ok(out)
}

/// One list of allowed values: the column it serves (by key), the heading on the values
/// sheet, and the values.
struct Allowed {
    key: &'static str,
    heading: &'static str,
    values: Vec<String>,
}

fn names(items: &[Item]) -> Vec<String> {
    items.iter().map(|i| i.name.clone()).collect()
}

fn labels(labelled: &[(&str, &'static str)]) -> Vec<String> {
    labelled.iter().map(|(_, label)| (*label).to_owned()).collect()
}

fn list(key: &'static str, heading: &'static str, values: Vec<String>) -> Allowed {
    Allowed { key, heading, values }
}

/// Every closed column's values, in the order of the values sheet.
fn allowed(lists: &Lists) -> Vec<Allowed> {
    vec![
        list("status", "Status", labels(ParticipantStatus::LABELLED)),
        list("roleCode", "Role", labels(ParticipantRole::LABELLED)),
        list("districtSetType", "District set", labels(DistrictSetType::LABELLED)),
        list("caucusRegion", "Caucus region", names(&lists.caucus_regions)),
        list("workplaceSettings", "Workplace settings", names(&lists.workplace_settings)),
        list("languages", "Languages", names(&lists.languages)),
        list("educationLevels", "Education levels", names(&lists.education_levels)),
        list("permitLevels", "Permit levels", names(&lists.permit_levels)),
        list("mentorProgram", "Program", names(&lists.mentor_programs)),
        list(
            "",
            "Program code",
            lists.mentor_programs.iter().map(|p| p.code.clone().unwrap_or_default()).collect(),
        ),
        list(
            "fiscalYear",
            "Fiscal year",
            lists.fiscal_years.iter().map(|(y, _)| y.name.clone()).collect(),
        ),
        list("programRole", "Role in program", labels(ParticipantRole::LABELLED)),
        list("college", "College", names(&lists.colleges)),
    ]
}

/// Column letters of the values sheet: A to Z is room enough for its lists.
fn letter(col: usize) -> char {
    (b'A' + col as u8) as char
}

/// The notes sheet's lines, in words.
fn notes(lists: &Lists, today: NaiveDate) -> Vec<String> {
    let format = lists.date_format;
    let required: Vec<&str> = rules::REQUIRED.into_iter().map(rules::words).collect();
    let lists_in_words: Vec<&str> = rules::LISTS.into_iter().map(rules::words).collect();
    vec![
        "How to fill in the Participants sheet".to_owned(),
        "One participant a row. Rows are matched to existing participants by e-mail: new ones are created, changed ones updated.".to_owned(),
        format!("Required columns: {}.", required.join(", ")),
        format!(
            "Dates (Start date): {}, for example {} or {}. The format is the office's, set in General settings.",
            format.accepted(),
            format.write(today),
            today.format("%Y-%m-%d")
        ),
        "Program: the program's name or its code, as the Allowed values sheet lists them.".to_owned(),
        format!(
            "{}: names separated by \";\", for example English;Spanish.",
            lists_in_words.join(", ")
        ),
        "Names match whatever their case, spaces and accents; the drop-down lists offer the allowed values.".to_owned(),
        "District number: 1 to 80 for Assembly, 1 to 40 for Senate, 1 to 52 for Congressional; give it with District set.".to_owned(),
        "A participation (Program, Fiscal year, Role in program, College, Start date) is optional; Program and Fiscal year are required when any of them is filled. Without a start date it starts on the fiscal year's first day; without a role in program it takes the Role.".to_owned(),
        "The import reads only the Participants sheet.".to_owned(),
    ]
}

pub fn xlsx(lists: &Lists, today: NaiveDate) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let header = Format::new().set_bold();
    let text = Format::new().set_num_format("@");

    let mut values = Worksheet::new();
    values.set_name(ALLOWED_SHEET)?;
    let allowed = allowed(lists);
    // Where each column's list lies on the values sheet, for its drop-down.
    let mut sources: Vec<(&'static str, String)> = Vec::new();
    for (c, list) in allowed.iter().enumerate() {
        let col = c as u16;
        values.write_string_with_format(0, col, list.heading, &header)?;
        let widest = list.values.iter().map(|v| v.chars().count()).max().unwrap_or(0);
        values.set_column_width(col, (widest.max(list.heading.len()) + 2).min(60) as f64)?;
        for (r, value) in list.values.iter().enumerate() {
            values.write_string(r as u32 + 1, col, value)?;
        }
        if !list.key.is_empty() && !list.values.is_empty() {
            let at = letter(c);
            let last = list.values.len() + 1;
            sources.push((list.key, format!("='{ALLOWED_SHEET}'!${at}$2:${at}${last}")));
        }
    }

    let mut sheet = Worksheet::new();
    sheet.set_name("Participants")?;
    for (c, (column, example)) in rules::columns().zip(rules::EXAMPLE).enumerate() {
        let col = c as u16;
        // Every column as text, so Excel keeps leading zeros and dates as typed.
        sheet.set_column_format(col, &text)?;
        let width = column.words.len().max(example.chars().count()) + 4;
        sheet.set_column_width(col, width as f64)?;
        sheet.write_string_with_format(0, col, column.words, &header)?;
        if !example.is_empty() {
            sheet.write_string(1, col, example)?;
        }
        if let Some(check) = check_for(column.key, &sources, lists)? {
            sheet.add_data_validation(1, col, MAX_ROWS as u32, col, &check)?;
        }
    }
    sheet.set_freeze_panes(1, 0)?;

    let mut notes_sheet = Worksheet::new();
    notes_sheet.set_name(NOTES_SHEET)?;
    notes_sheet.set_column_width(0, 120)?;
    for (r, line) in notes(lists, today).iter().enumerate() {
        if r == 0 {
            notes_sheet.write_string_with_format(0, 0, line, &header)?;
        } else {
            notes_sheet.write_string(r as u32, 0, line)?;
        }
    }

    book.push_worksheet(sheet);
    book.push_worksheet(values);
    book.push_worksheet(notes_sheet);
    book.save_to_buffer()
}

/// The check a column's cells get: a drop-down from its list on the values sheet (a warning,
/// not a refusal, since codes and other spellings also import; a column of several names
/// only informs), or an input message for the dates.
fn check_for(
    key: &str,
    sources: &[(&'static str, String)],
    lists: &Lists,
) -> Result<Option<DataValidation>, XlsxError> {
    if key == "startDate" {
        let message = format!(
            "Write the day as {}. It is the office's format (General settings).",
            lists.date_format.accepted()
        );
        return Ok(Some(
            DataValidation::new()
                .allow_any_value()
                .set_input_title("Start date")?
                .set_input_message(message)?,
        ));
    }
    let Some((_, source)) = sources.iter().find(|(k, _)| *k == key) else {
        return Ok(None);
    };
    let column = rules::words(key);
    let several = rules::LISTS.contains(&key);
    let (style, message) = if several {
        (
            DataValidationErrorStyle::Information,
            format!("Pick one {column} value from the list, or type several separated by \";\". The Allowed values sheet lists them."),
        )
    } else if key == "mentorProgram" {
        (
            DataValidationErrorStyle::Warning,
            "Pick a program from the list, or type its code. The Allowed values sheet lists both."
                .to_owned(),
        )
    } else {
        (
            DataValidationErrorStyle::Warning,
            format!("Pick a {column} value from the list. The Allowed values sheet lists them."),
        )
    };
    let title = "Not in the list";
    Ok(Some(
        DataValidation::new()
            .allow_list_formula(Formula::new(source))
            .set_error_style(style)
            .set_error_title(title)?
            .set_error_message(message)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_fits_the_values_sheet_and_every_closed_column_has_its_list() {
        let lists = Lists::default();
        let all = allowed(&lists);
        assert!(all.len() <= 26);
        for key in ["status", "roleCode", "districtSetType", "mentorProgram", "programRole"]
            .into_iter()
            .chain(rules::LISTS)
        {
            assert!(all.iter().any(|a| a.key == key), "{key}");
        }
        for a in &all {
            assert!(a.key.is_empty() || rules::columns().any(|c| c.key == a.key), "{}", a.key);
        }
    }
}
