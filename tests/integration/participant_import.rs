//! Participant import over HTTP on the real app: the template (its drop-downs of the live
//! lists), a dry run that writes nothing, a real run that writes every row or none, the same
//! file twice, headers in words or the old ones, programs by code or name and names matched
//! whatever their case, spaces and accents, dates in the office's format, a Coordinator's
//! scope, and every kind of bad file refused with a 4xx that changes nothing.

use crate::common;
use crate::common::dates::{shifted, shifted_day, shifted_fy};

use chrono::NaiveDate;
use common::*;
use serde_json::{json, Value};

const IMPORT: &str = "/api/v1/participants/import";
const HEAD: &str = "firstName,lastName,email,phone,status,roleCode,caucusRegion,languages,mentorProgram,fiscalYear,college,startDate";

async fn send_file(app: &TestApp, token: &str, query: &str, name: &str, bytes: Vec<u8>) -> Reply {
    let part = reqwest::multipart::Part::bytes(bytes).file_name(name.to_owned());
    let form = reqwest::multipart::Form::new().part("file", part);
    let res = app
        .client
        .post(format!("{}{IMPORT}{query}", app.base))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let text = res.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Reply { status, headers, body }
}

async fn participant_count(app: &TestApp, token: &str) -> i64 {
    app.get("/api/v1/participants?Size=1", token).await.ok()["totalCount"].as_i64().unwrap()
}

struct World {
    app: TestApp,
    admin: String,
}

async fn world() -> World {
    let app = spawn().await;
    let admin = app.admin_token().await;
    let fy = json!({"name": shifted_fy("FY 2026-27"), "startDate": shifted("2026-07-01"), "endDate": shifted("2027-06-30")});
    app.post("/api/v1/system-settings/fiscal-years", Some(&admin), fy).await.ok();
    World { app, admin }
}

fn csv(rows: &[&str]) -> Vec<u8> {
    let mut text = String::from(HEAD);
    for r in rows {
        text.push('\n');
        text.push_str(r);
    }
    text.push('\n');
    text.into_bytes()
}

/// Ana's row: this fiscal year's name and a start day in it, as an office would type them.
fn ana_row() -> String {
    format!("Ana,Núñez,ana@example.org,(916) 555-0100,Active,Mentor,bay area,english; SPANISH,Director Mentor Program,{},AMERICAN RIVER COLLEGE,{}", shifted_fy("fy 2026-27"), shifted("2026-08-01"))
}
const BO: &str = "Bo,Lee,BO@example.org,,Pending,DirectorMentor,,,,,,";

#[actix_web::test]
async fn a_dry_run_writes_nothing_and_a_real_run_writes_every_row_once() {
    let w = world().await;
    let before = participant_count(&w.app, &w.admin).await;
    let file = csv(&[ana_row().as_str(), BO]);

    let dry = send_file(&w.app, &w.admin, "", "people.csv", file.clone()).await;
    let dry = dry.ok();
    assert_eq!(
        (
            dry["rows"].clone(),
            dry["created"].clone(),
            dry["updated"].clone(),
            dry["unchanged"].clone()
        ),
        (json!(2), json!(2), json!(0), json!(0)),
        "{dry}"
    );
    assert_eq!(dry["dryRun"], true);
    assert_eq!(dry["errors"], json!([]));
    assert_eq!(participant_count(&w.app, &w.admin).await, before, "a dry run writes nothing");

    let real = send_file(&w.app, &w.admin, "?DryRun=false", "people.csv", file.clone()).await;
    assert_eq!(real.ok()["created"], 2);
    assert_eq!(participant_count(&w.app, &w.admin).await, before + 2);
    let found = w.app.get("/api/v1/participants?Email=ana@example.org", &w.admin).await;
    let ana = found.ok()["items"][0].clone();
    assert_eq!(ana["lastName"], "Núñez");
    assert_eq!(ana["languageIds"].as_array().unwrap().len(), 2, "{ana}");
    assert_eq!(ana["participations"][0]["startDate"], shifted("2026-08-01"));

    // The same file again: every row unchanged, nothing written.
    let again = send_file(&w.app, &w.admin, "?dryrun=false", "people.csv", file).await;
    let again = again.ok();
    assert_eq!(
        (again["unchanged"].clone(), again["created"].clone()),
        (json!(2), json!(0)),
        "{again}"
    );

    // A changed phone is an update of the participant the e-mail names (any case).
    let changed = ana_row().replace("(916) 555-0100", "(916) 555-0199").replace("ana@", "ANA@");
    let r =
        send_file(&w.app, &w.admin, "?DryRun=false", "people.csv", csv(&[changed.as_str(), BO]))
            .await;
    assert_eq!((r.ok()["updated"].clone(), r.ok()["unchanged"].clone()), (json!(1), json!(1)));
    assert_eq!(participant_count(&w.app, &w.admin).await, before + 2);
}

#[actix_web::test]
async fn a_real_run_with_any_bad_row_is_a_422_listing_them_and_writes_nothing() {
    let w = world().await;
    let before = participant_count(&w.app, &w.admin).await;
    let ana = ana_row();
    let rows = [
        ana.as_str(),
        "Cy,Lee,not-an-email,,Retired,Boss,,Klingon,,,,",
        "Di,Lee,bo@example.org,,Active,Mentor,,,Nowhere Program,FY 1999,,",
        BO,
    ];
    let r = send_file(&w.app, &w.admin, "?DryRun=false", "people.csv", csv(&rows)).await;
    let body = r.problem(422);
    let named: Vec<(i64, String)> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["row"].as_i64().unwrap(), e["column"].as_str().unwrap().to_owned()))
        .collect();
    // The file has the old headers; the errors name the columns in words.
    for expected in [
        (3, "E-mail"),
        (3, "Status"),
        (3, "Role"),
        (3, "Languages"),
        (4, "Program"),
        (4, "Fiscal year"),
        (5, "E-mail"),
    ] {
        assert!(named.contains(&(expected.0, expected.1.to_owned())), "{expected:?} in {named:?}");
    }
    assert!(body["errors"].to_string().contains("repeats row 4"), "{body}");
    assert_eq!(participant_count(&w.app, &w.admin).await, before, "all or nothing");

    // The dry run of the same file reports the same errors with a 200.
    let dry = send_file(&w.app, &w.admin, "", "people.csv", csv(&rows)).await;
    assert_eq!(dry.ok()["errors"], body["errors"]);
}

/// The headers in words, as the template has them.
const WORDS: &str =
    "First name,Last name,E-mail,Status,Role,Program,Fiscal year,Role in program,Start date";

fn csv_in_words(rows: &[String]) -> Vec<u8> {
    format!("{WORDS}\n{}\n", rows.join("\n")).into_bytes()
}

/// A day as an office in the United States types it (7/1/2026), or day first (1/7/2026).
fn us(day: NaiveDate) -> String {
    day.format("%-m/%-d/%Y").to_string()
}
fn day_first(day: NaiveDate) -> String {
    day.format("%-d/%-m/%Y").to_string()
}

/// The participation the import gave the participant with this e-mail: program id, start.
async fn taking(w: &World, email: &str) -> (i64, String) {
    let found = w.app.get(&format!("/api/v1/participants?Email={email}"), &w.admin).await;
    let p = found.ok()["items"][0]["participations"][0].clone();
    (p["mentorProgramId"].as_i64().unwrap(), p["startDate"].as_str().unwrap().to_owned())
}

async fn program_id(w: &World, code: &str) -> i64 {
    let programs = w.app.get("/api/v1/mentor-programs", &w.admin).await;
    let found = programs.ok().as_array().unwrap().iter().find(|p| p["code"] == code).cloned();
    found.unwrap_or_else(|| panic!("{code}"))["id"].as_i64().unwrap()
}

async fn set_date_format(w: &World, format: &str) -> Reply {
    let mut general = w.app.get("/api/v1/system-settings/general", &w.admin).await.ok().clone();
    general["dateFormat"] = json!(format);
    let path = format!("/api/v1/system-settings/general/{}", general["id"]);
    w.app.put(&path, &w.admin, general).await
}

#[actix_web::test]
async fn programs_by_code_or_name_and_dates_in_the_offices_format_with_headers_in_words() {
    let w = world().await;
    let fy = shifted_fy("fy 2026-27");
    let (aug, sep) = (shifted_day("2026-08-15"), shifted_day("2026-09-03"));
    let rows = [
        // The code the screens show, with stray spaces and any case; the US date.
        format!("Ana,Lee,ana@example.org,Active,Mentor, dmp ,{fy},,{}", us(aug)),
        // The name, spaced and cased otherwise; the role in words; an ISO date.
        format!("Bo,Lee,bo@example.org,active,director mentor,family child care  MENTOR program,{fy},Director mentor,{sep}"),
    ];
    let r = send_file(&w.app, &w.admin, "?DryRun=false", "people.csv", csv_in_words(&rows)).await;
    assert_eq!(r.ok()["created"], 2, "{}", r.body);
    assert_eq!(taking(&w, "ana@example.org").await, (program_id(&w, "DMP").await, aug.to_string()));
    assert_eq!(
        taking(&w, "bo@example.org").await,
        (program_id(&w, "FCCMP").await, sep.to_string())
    );

    // An office that writes the day first: 3/9 is the 3rd of September, and ISO still reads.
    set_date_format(&w, "DD/MM/YYYY").await.ok();
    let rows = [
        format!("Cy,Lee,cy@example.org,Active,Mentor,CECMP,{fy},,{}", day_first(sep)),
        format!("Di,Lee,di@example.org,Active,Mentor,CECMP,{fy},,{aug}"),
        // The US text of the 15th of August is no day at all read day first.
        format!("Ed,Lee,ed@example.org,Active,Mentor,CECMP,{fy},,{}", us(aug)),
    ];
    let r = send_file(&w.app, &w.admin, "", "people.csv", csv_in_words(&rows)).await;
    let r = r.ok();
    assert_eq!(r["created"], 2, "{r}");
    assert_eq!(
        r["errors"],
        json!([{"row": 4, "column": "Start date", "value": us(aug), "message": "must be a date written DD/MM/YYYY or YYYY-MM-DD"}])
    );
    send_file(&w.app, &w.admin, "?DryRun=false", "people.csv", csv_in_words(&rows[..2])).await.ok();
    let cecmp = program_id(&w, "CECMP").await;
    assert_eq!(taking(&w, "cy@example.org").await, (cecmp, sep.to_string()));
    assert_eq!(taking(&w, "di@example.org").await, (cecmp, aug.to_string()));
}

#[actix_web::test]
async fn an_unknown_or_ambiguous_program_is_named_by_row_column_and_value() {
    let w = world().await;
    // A program whose name is another program's code: "DMP" could be either.
    let clash = json!({"name": "DMP", "code": "DMPX"});
    w.app.post("/api/v1/mentor-programs", Some(&w.admin), clash).await.ok();
    let fy = shifted_fy("FY 2026-27");
    let rows = [
        format!("Ana,Lee,ana@example.org,Active,Mentor,dmp,{fy},,"),
        format!("Bo,Lee,bo@example.org,Active,Mentor,Nowhere Program,{fy},,"),
        format!("Cy,Lee,cy@example.org,Active,Mentor,DMPX,{fy},,"),
        format!("Di,Lee,di@example.org,Active,Mentor,Director Mentor Program,{fy},,"),
    ];
    let before = participant_count(&w.app, &w.admin).await;
    let r = send_file(&w.app, &w.admin, "?DryRun=false", "people.csv", csv_in_words(&rows)).await;
    let body = r.problem(422);
    let errors = body["errors"].as_array().unwrap();
    let said: Vec<(i64, &str, &str)> = errors
        .iter()
        .map(|e| {
            (
                e["row"].as_i64().unwrap(),
                e["column"].as_str().unwrap(),
                e["value"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(said, [(2, "Program", "dmp"), (3, "Program", "Nowhere Program")], "{body}");
    let ambiguous = errors[0]["message"].as_str().unwrap();
    assert!(
        ambiguous.contains("is ambiguous")
            && ambiguous.contains("Director Mentor Program (DMP)")
            && ambiguous.contains("DMP (DMPX)"),
        "{ambiguous}"
    );
    assert!(errors[1]["message"]
        .as_str()
        .unwrap()
        .contains("not a known, active program name or code"));
    assert_eq!(participant_count(&w.app, &w.admin).await, before, "nothing written");
}

#[actix_web::test]
async fn xlsx_imports_like_csv_and_formulas_are_text() {
    let w = world().await;
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (c, name) in HEAD.split(',').enumerate() {
        sheet.write_string(0, c as u16, name).unwrap();
    }
    for (c, value) in BO.split(',').enumerate() {
        sheet.write_string(1, c as u16, value).unwrap();
    }
    sheet.write_formula(2, 0, "=1+2").unwrap();
    for (c, value) in ["Eve", "x@example.org", "", "Active", "Mentor"].iter().enumerate() {
        sheet.write_string(2, c as u16 + 1, *value).unwrap();
    }
    let bytes = book.save_to_buffer().unwrap();
    let r = send_file(&w.app, &w.admin, "?DryRun=false", "people.xlsx", bytes).await;
    assert_eq!(r.ok()["created"], 2, "{}", r.body);
    let found = w.app.get("/api/v1/participants?Email=x@example.org", &w.admin).await;
    assert_eq!(found.ok()["items"][0]["firstName"], "=1+2", "kept as typed, never evaluated");
}

async fn template(w: &World, format: &str) -> (String, Vec<u8>) {
    let res = w
        .app
        .client
        .get(format!("{}{IMPORT}/template?ReportFormat={format}", w.app.base))
        .bearer_auth(&w.admin)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let content_type = res.headers()["content-type"].to_str().unwrap().to_owned();
    (content_type, res.bytes().await.unwrap().to_vec())
}

#[actix_web::test]
async fn the_template_is_the_header_and_one_example_row_that_imports_as_it_is() {
    let w = world().await;
    for (format, kind) in [("Csv", "text/csv"), ("xlsx", "spreadsheetml")] {
        let (content_type, bytes) = template(&w, format).await;
        assert!(content_type.contains(kind), "{content_type}");
        let name = format!("template.{}", format.to_lowercase());
        let r = send_file(&w.app, &w.admin, "", &name, bytes).await;
        let r = r.ok();
        assert_eq!(
            (r["rows"].clone(), r["created"].clone()),
            (json!(1), json!(1)),
            "{format}: {r}"
        );
    }
    let (_, csv) = template(&w, "Csv").await;
    let header = String::from_utf8(csv).unwrap();
    let header = header.trim_start_matches('\u{feff}').lines().next().unwrap().to_owned();
    assert!(
        header.starts_with("First name,Last name,E-mail,Phone,Address,Status,Role,"),
        "{header}"
    );
    assert!(
        header.ends_with(",Program,Fiscal year,Role in program,College,Start date"),
        "{header}"
    );
    let bad = w.app.get(&format!("{IMPORT}/template?ReportFormat=Pdf"), &w.admin).await;
    assert!(bad.problem(400)["errors"]["ReportFormat"].is_array());
}

/// The text of one part of a workbook.
fn part(xlsx: &[u8], name: &str) -> String {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(xlsx)).unwrap();
    let mut text = String::new();
    zip.by_name(name).unwrap().read_to_string(&mut text).unwrap();
    text
}

/// A sheet of a workbook as rows of text.
fn sheet_rows(xlsx: &[u8], name: &str) -> Vec<Vec<String>> {
    use calamine::{Reader, Xlsx};
    let mut book: Xlsx<_> = Xlsx::new(std::io::Cursor::new(xlsx.to_vec())).unwrap();
    let range = book.worksheet_range(name).unwrap();
    range.rows().map(|r| r.iter().map(|c| c.to_string()).collect()).collect()
}

#[actix_web::test]
async fn the_excel_template_offers_the_live_lists_as_drop_downs_and_says_how_to_write_a_date() {
    let w = world().await;
    // A program added today is in the template at once.
    let added = json!({"name": "Infant Care Mentor Program", "code": "ICMP"});
    w.app.post("/api/v1/mentor-programs", Some(&w.admin), added).await.ok();
    let (_, xlsx) = template(&w, "Xlsx").await;

    // The Participants sheet (the first) has a list check on each closed column, from the
    // Allowed values sheet.
    let sheet = part(&xlsx, "xl/worksheets/sheet1.xml");
    let lists = sheet.matches("<dataValidation ").count();
    assert!(sheet.contains("<dataValidations"), "{sheet}");
    assert!(lists >= 12, "{lists} checks in {sheet}");
    assert!(sheet.contains("type=\"list\""), "{sheet}");
    assert!(
        sheet.contains("&apos;Allowed values&apos;!$") || sheet.contains("'Allowed values'!$"),
        "{sheet}"
    );
    let names = sheet_rows(&xlsx, "Participants");
    assert_eq!(names[0][0], "First name");
    // Each column's check covers it from row 2 to the last row an import takes.
    let header = &names[0];
    let program_col = header.iter().position(|h| h == "Program").unwrap();
    let letter = (b'A' + program_col as u8) as char;
    assert!(sheet.contains(&format!("sqref=\"{letter}2:{letter}10001\"")), "{sheet}");

    let allowed = sheet_rows(&xlsx, "Allowed values");
    let column = |heading: &str| -> Vec<String> {
        let at =
            allowed[0].iter().position(|h| h == heading).unwrap_or_else(|| panic!("{heading}"));
        allowed[1..].iter().map(|r| r[at].clone()).filter(|v| !v.is_empty()).collect()
    };
    assert_eq!(column("Status"), ["Active", "Inactive", "Pending"]);
    assert_eq!(column("Role"), ["Mentor", "Director mentor", "Coordinator", "Administrator"]);
    assert_eq!(column("District set"), ["Assembly", "Senate", "Congressional"]);
    assert!(column("Program").contains(&"Director Mentor Program".to_owned()));
    assert!(column("Program").contains(&"Infant Care Mentor Program".to_owned()));
    assert!(column("Program code").contains(&"ICMP".to_owned()));
    assert_eq!(column("Fiscal year"), [shifted_fy("FY 2026-27")]);
    assert!(!column("Languages").is_empty());

    let notes = sheet_rows(&xlsx, "Notes").concat().join("\n");
    assert!(notes.contains("MM/DD/YYYY or YYYY-MM-DD"), "{notes}");
    assert!(notes.contains("names separated by \";\""), "{notes}");
}

#[actix_web::test]
async fn bad_files_get_a_clear_4xx_and_change_nothing() {
    let w = world().await;
    let before = participant_count(&w.app, &w.admin).await;
    let wide = format!("{HEAD}\n{}\n", vec!["x"; 500].join(","));
    let many = {
        let mut text = String::from("firstName,lastName,email,status,roleCode\n");
        for i in 0..10_001 {
            text.push_str(&format!("A,B,p{i}@example.org,Active,Mentor\n"));
        }
        text
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("a PDF", b"%PDF-1.7\n\xff\xfe\x00binary".to_vec(), "CSV file in UTF-8 or an XLSX"),
        ("an empty file", Vec::new(), "is empty"),
        ("a broken workbook", b"PK\x03\x04not really a zip".to_vec(), "not a readable XLSX"),
        (
            "unknown and missing columns",
            b"firstName,nickname\nAna,Al\n".to_vec(),
            "unknown columns: nickname",
        ),
        ("a header only", format!("{HEAD}\n").into_bytes(), "no rows"),
        ("10,001 rows", many.into_bytes(), "more than 10000 rows"),
        ("a row of 500 cells", wide.into_bytes(), "row 2 has 500 cells"),
    ];
    for (what, bytes, says) in cases {
        let r = send_file(&w.app, &w.admin, "?DryRun=false", "people.csv", bytes).await;
        let body = r.problem(422);
        let message = body["errors"]["file"][0].as_str().unwrap_or_default();
        assert!(message.contains(says), "{what}: {body}");
    }
    let huge = vec![b'a'; 10 * 1024 * 1024 + 1];
    send_file(&w.app, &w.admin, "?DryRun=false", "people.csv", huge).await.problem(413);
    // Not multipart at all, or without the field.
    let r = w.app.post(IMPORT, Some(&w.admin), json!({"file": "x"})).await;
    assert!(r.problem(400)["errors"]["file"].is_array());
    let r = send_file(&w.app, &w.admin, "?DryRun=nope", "people.csv", csv(&[BO])).await;
    r.problem(400);
    assert_eq!(participant_count(&w.app, &w.admin).await, before);
}

#[actix_web::test]
async fn a_coordinator_imports_into_its_own_programs_only() {
    let w = world().await;
    let programs = ids(&w.app, &w.admin, "/api/v1/mentor-programs").await;
    let fy = ids(&w.app, &w.admin, "/api/v1/system-settings/fiscal-years").await[0];
    // Program ids follow the seed's order: the Director Mentor Program is the second.
    let coord = w
        .app
        .coordinator_of(&w.admin, "cora@example.org", "coordinator pw 1", programs[1], fy)
        .await;
    let ana = ana_row();
    let rows = [
        ana.as_str(),
        BO,
        &ana.replace("ana@", "eve@")
            .replace("Director Mentor Program", "Family Child Care Mentor Program"),
    ];
    let r = send_file(&w.app, &coord, "", "people.csv", csv(&rows)).await;
    let r = r.ok();
    assert_eq!(r["created"], 1, "{r}");
    let named: Vec<(i64, &str)> = r["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["row"].as_i64().unwrap(), e["column"].as_str().unwrap()))
        .collect();
    assert_eq!(named, [(3, "Program"), (4, "Program")]);
    // Without participant:create and participant:edit, no import.
    let role = json!({"name": "Reader", "permissions": ["participant:read"]});
    w.app.post("/api/v1/identity/roles", Some(&w.admin), role).await.ok();
    w.app.create_user(&w.admin, "reader@example.org", &["Reader"], "reader pass 123").await;
    let (reader, _) = w.app.login("reader@example.org", "reader pass 123").await;
    send_file(&w.app, &reader, "", "people.csv", csv(&[BO])).await.problem(403);
}
