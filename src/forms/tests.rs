//! The catalogue's forms, checked without a database.

use super::*;
use crate::{
    error::{ApiError, Checks, FieldErrors},
    money::Money,
};
use chrono::NaiveDate;
use serde_json::json;

pub fn rates() -> Rates {
    Rates {
        mileage: Money(70),
        meals: MealRates { breakfast: Money(1000), lunch: Money(1500), dinner: Money(2500) },
    }
}

pub fn limits() -> Limits {
    Limits {
        max_amount: Money(500_000),
        submission_window_days: 60,
        max_miles_per_trip: Some(500),
        max_hours: Some(40),
        max_nights: Some(5),
    }
}

/// A valid `details` for every form, with the amount the server must compute (None = entered).
pub fn valid(form: FormType) -> (serde_json::Value, Option<i64>) {
    match form {
        FormType::F1 => (
            json!({"collegeId": 1, "menteeName": "Ana", "courseCode": "CD 101", "placementStartDate": "2025-09-01", "placementEndDate": "2025-12-15", "hours": 12.5}),
            None,
        ),
        FormType::F2 => (
            json!({"items": [{"date": "2025-10-01", "description": "Books", "amount": 12.34}, {"date": "2025-10-03", "description": "Paper", "amount": 0.66}], "fileIds": []}),
            Some(1300),
        ),
        FormType::F3 => (
            json!({"travelPurposeId": 1, "transitTypeId": 2, "trips": [{"date": "2025-10-01", "from": "Fresno", "to": "Clovis", "miles": 12.5}, {"date": "2025-10-02", "from": "Clovis", "to": "Fresno", "miles": 10}]}),
            Some(1575),
        ),
        FormType::F4 => (
            json!({"trainingTypeId": 1, "institutionId": 1, "title": "Infant care", "startDate": "2025-10-01", "endDate": "2025-10-02", "hours": 8, "fee": 150}),
            None,
        ),
        FormType::F5 => (json!({"seminarDate": "2025-10-01", "topic": "Play", "hours": 3}), None),
        FormType::F6 => {
            (json!({"activityType": "Workshop", "date": "2025-10-01", "hours": 2.25}), None)
        }
        FormType::F7 => (
            json!({"protegeName": "Bo", "siteName": "Sunrise", "startDate": "2025-09-01", "endDate": "2026-05-31", "placementEndDate": "2026-06-30"}),
            None,
        ),
        FormType::F8 => (
            json!({"institute": "Summer Institute", "startDate": "2025-07-01", "endDate": "2025-07-03"}),
            None,
        ),
        FormType::F9 => (
            json!({"vendorName": "Acme", "vendorAddress": "1 Main St", "invoiceNumber": "INV-7", "invoiceDate": "2025-10-01", "amount": 420.5}),
            Some(42050),
        ),
        FormType::F10 => (
            json!({"jobCategoryId": 1, "date": "2025-10-01", "hours": 7.5, "hourlyRate": 22.4}),
            Some(16800),
        ),
        FormType::F11 => (
            json!({"nightlyRate": 129.99, "city": "Sacramento", "checkIn": "2025-10-01", "checkOut": "2025-10-03"}),
            Some(25998),
        ),
        FormType::F12 => (
            json!({"days": [{"date": "2025-10-01", "breakfast": true, "lunch": true, "dinner": false}, {"date": "2025-10-02", "dinner": true}]}),
            Some(5000),
        ),
        FormType::F13 => (
            json!({"collegeId": 1, "institutionId": 1, "courseCode": "ECE 1", "units": 3, "term": "Fall 2025"}),
            None,
        ),
        FormType::F14 => (
            json!({"bonusType": "Completion", "fiscalYearId": 1, "reason": "Completed the year"}),
            None,
        ),
    }
}

fn run(
    form: FormType,
    value: serde_json::Value,
    entered: Option<Money>,
) -> Result<Evaluated, FieldErrors> {
    let mut d = Details::parse(form, &value).expect("parses");
    evaluate(&mut d, entered, &rates(), &limits())
}

fn field_err(form: FormType, value: serde_json::Value, entered: Option<Money>, field: &str) {
    let errs = run(form, value.clone(), entered).expect_err(&format!("{form:?} {value}"));
    assert!(errs.contains_key(field), "{form:?}: want {field}, got {errs:?}");
}

fn with(form: FormType, path: &[&str], new: serde_json::Value) -> serde_json::Value {
    let (mut v, _) = valid(form);
    let mut cur = &mut v;
    for (i, p) in path.iter().enumerate() {
        let next = if let Ok(idx) = p.parse::<usize>() { &mut cur[idx] } else { &mut cur[*p] };
        if i == path.len() - 1 {
            *next = new.clone();
            break;
        }
        cur = next;
    }
    v
}

#[test]
fn form_types_round_trip_and_are_fourteen() {
    for f in FormType::ALL {
        assert_eq!(FormType::parse(f.as_str()), Some(f));
        assert_eq!(FormType::parse(&f.as_str().to_lowercase()), Some(f));
        assert_eq!(serde_json::to_value(f).unwrap(), json!(f.as_str()));
        assert!(!f.name().is_empty());
        assert_eq!(f.label(), format!("{} {}", f.as_str(), f.name()));
        assert!(FormType::LABELLED.contains(&(f.as_str(), f.label())), "{f:?}");
    }
    assert_eq!(FormType::LABELLED.len(), FormType::COUNT);
    assert_eq!(FormType::F2.label(), "F2 Expense reimbursement");
    assert_eq!(FormType::parse("F15"), None);
    assert_eq!(FormType::parse("F0"), None);
}

#[test]
fn every_form_valid_with_its_amount() {
    for form in FormType::ALL {
        let (value, computed) = valid(form);
        let entered = Money(12_345);
        let got = run(form, value, Some(entered)).unwrap_or_else(|e| panic!("{form:?}: {e:?}"));
        match computed {
            Some(cents) => {
                assert_eq!(got.requested_amount, Money(cents), "{form:?}");
                assert_ne!(form.amount_source(), AmountSource::Entered);
            }
            None => {
                assert_eq!(got.requested_amount, entered, "{form:?}");
                assert_eq!(form.amount_source(), AmountSource::Entered);
            }
        }
    }
}

#[test]
fn entered_forms_need_a_positive_amount_computed_forms_ignore_it() {
    for form in FormType::ALL {
        let (value, computed) = valid(form);
        match computed {
            None => {
                field_err(form, value.clone(), None, "requestedAmount");
                field_err(form, value.clone(), Some(Money(0)), "requestedAmount");
                field_err(form, value, Some(Money(-5)), "requestedAmount");
            }
            Some(cents) => {
                assert_eq!(
                    run(form, value.clone(), Some(Money(1))).unwrap().requested_amount.cents(),
                    cents
                );
                assert!(run(form, value, None).is_ok());
            }
        }
    }
}

#[test]
fn above_max_amount_is_named_on_every_form() {
    for form in FormType::ALL {
        let (value, _) = valid(form);
        let mut d = Details::parse(form, &value).unwrap();
        let tight = Limits { max_amount: Money(1), ..limits() };
        let errs = evaluate(&mut d, Some(Money(2)), &rates(), &tight).unwrap_err();
        assert!(errs.contains_key("requestedAmount"), "{form:?} {errs:?}");
        // Exactly at the maximum is allowed.
        let mut d = Details::parse(form, &value).unwrap();
        let at =
            evaluate(&mut d, Some(Money(2)), &rates(), &Limits::none()).unwrap().requested_amount;
        let mut d = Details::parse(form, &value).unwrap();
        assert!(
            evaluate(&mut d, Some(at), &rates(), &Limits { max_amount: at, ..limits() }).is_ok(),
            "{form:?}"
        );
    }
}

#[test]
fn wrong_types_unknown_fields_and_enum_values_are_400_naming_the_field() {
    let cases: &[(FormType, &[&str], serde_json::Value, &str)] = &[
        (FormType::F1, &["hours"], json!("ten"), "details.hours"),
        (FormType::F1, &["placementEndDate"], json!("2025-13-01"), "details.placementEndDate"),
        (FormType::F1, &["collegeId"], json!(1.5), "details.collegeId"),
        (FormType::F2, &["items", "0", "amount"], json!(1.234), "details.items[0].amount"),
        (FormType::F3, &["trips", "1", "miles"], json!("far"), "details.trips[1].miles"),
        (FormType::F6, &["activityType"], json!("Party"), "details.activityType"),
        (FormType::F9, &["amount"], json!("420.50"), "details.amount"),
        (FormType::F12, &["days", "0", "lunch"], json!("yes"), "details.days[0].lunch"),
        (FormType::F14, &["bonusType"], json!("Huge"), "details.bonusType"),
    ];
    for (form, path, value, field) in cases {
        let body = with(*form, path, value.clone());
        match Details::parse(*form, &body) {
            Err(ApiError::BadRequest { errors, .. }) => {
                assert!(errors.contains_key(*field), "{form:?} {field}: {errors:?}")
            }
            other => panic!("{form:?} {field}: {other:?}"),
        }
    }
    // missing and unknown fields
    let (mut v, _) = valid(FormType::F5);
    v.as_object_mut().unwrap().remove("topic");
    assert!(
        matches!(Details::parse(FormType::F5, &v), Err(ApiError::BadRequest { errors, .. }) if errors.contains_key("details.topic"))
    );
    let (mut v, _) = valid(FormType::F5);
    v["color"] = json!("red");
    assert!(matches!(Details::parse(FormType::F5, &v), Err(ApiError::BadRequest { .. })));
    assert!(
        matches!(Details::parse(FormType::F5, &json!([1])), Err(ApiError::BadRequest { errors, .. }) if errors.contains_key("details"))
    );
    // details of another form do not pass as this one
    let (f9, _) = valid(FormType::F9);
    assert!(Details::parse(FormType::F10, &f9).is_err());
}

#[test]
fn limits_are_named_per_field() {
    field_err(
        FormType::F3,
        with(FormType::F3, &["trips", "1", "miles"], json!(500.01)),
        None,
        "details.trips[1].miles",
    );
    assert!(
        run(FormType::F3, with(FormType::F3, &["trips", "1", "miles"], json!(500)), None).is_ok()
    );
    field_err(
        FormType::F3,
        with(FormType::F3, &["trips", "0", "miles"], json!(0)),
        None,
        "details.trips[0].miles",
    );
    for form in [FormType::F1, FormType::F4, FormType::F5, FormType::F6, FormType::F10] {
        field_err(form, with(form, &["hours"], json!(40.01)), Some(Money(100)), "details.hours");
        field_err(form, with(form, &["hours"], json!(0)), Some(Money(100)), "details.hours");
        assert!(run(form, with(form, &["hours"], json!(40)), Some(Money(100))).is_ok(), "{form:?}");
    }
    field_err(
        FormType::F11,
        with(FormType::F11, &["checkOut"], json!("2025-10-07")),
        None,
        "details.nights",
    );
    assert!(
        run(FormType::F11, with(FormType::F11, &["checkOut"], json!("2025-10-06")), None).is_ok()
    );
}

#[test]
fn without_limits_nothing_but_sanity_is_checked() {
    let mut d =
        Details::parse(FormType::F3, &with(FormType::F3, &["trips", "0", "miles"], json!(9999)))
            .unwrap();
    assert!(evaluate(&mut d, None, &rates(), &Limits::none()).is_ok());
}

#[test]
fn date_order() {
    field_err(
        FormType::F1,
        with(FormType::F1, &["placementEndDate"], json!("2025-08-31")),
        Some(Money(1)),
        "details.placementEndDate",
    );
    field_err(
        FormType::F4,
        with(FormType::F4, &["endDate"], json!("2025-09-30")),
        Some(Money(1)),
        "details.endDate",
    );
    field_err(
        FormType::F7,
        with(FormType::F7, &["endDate"], json!("2025-08-01")),
        Some(Money(1)),
        "details.endDate",
    );
    field_err(
        FormType::F7,
        with(FormType::F7, &["placementEndDate"], json!("2025-08-01")),
        Some(Money(1)),
        "details.placementEndDate",
    );
    field_err(
        FormType::F8,
        with(FormType::F8, &["endDate"], json!("2025-06-30")),
        Some(Money(1)),
        "details.endDate",
    );
    field_err(
        FormType::F11,
        with(FormType::F11, &["checkOut"], json!("2025-10-01")),
        None,
        "details.checkOut",
    );
    // same-day spans are fine where a day is a unit
    assert!(run(
        FormType::F8,
        with(FormType::F8, &["endDate"], json!("2025-07-01")),
        Some(Money(1))
    )
    .is_ok());
}

#[test]
fn required_texts_and_lines() {
    field_err(
        FormType::F1,
        with(FormType::F1, &["menteeName"], json!("  ")),
        Some(Money(1)),
        "details.menteeName",
    );
    field_err(
        FormType::F9,
        with(FormType::F9, &["vendorName"], json!("x".repeat(201))),
        None,
        "details.vendorName",
    );
    field_err(FormType::F2, with(FormType::F2, &["items"], json!([])), None, "details.items");
    field_err(
        FormType::F2,
        with(FormType::F2, &["items", "1", "description"], json!("")),
        None,
        "details.items[1].description",
    );
    field_err(
        FormType::F2,
        with(FormType::F2, &["items", "1", "amount"], json!(0)),
        None,
        "details.items[1].amount",
    );
    field_err(
        FormType::F2,
        with(FormType::F2, &["fileIds"], json!(["a", "a"])),
        None,
        "details.fileIds[1]",
    );
    field_err(FormType::F3, with(FormType::F3, &["trips"], json!([])), None, "details.trips");
    field_err(
        FormType::F3,
        with(FormType::F3, &["trips", "0", "to"], json!("")),
        None,
        "details.trips[0].to",
    );
    field_err(FormType::F4, with(FormType::F4, &["fee"], json!(-1)), Some(Money(1)), "details.fee");
    field_err(FormType::F9, with(FormType::F9, &["amount"], json!(0)), None, "details.amount");
    field_err(
        FormType::F10,
        with(FormType::F10, &["hourlyRate"], json!(0)),
        None,
        "details.hourlyRate",
    );
    field_err(
        FormType::F11,
        with(FormType::F11, &["nightlyRate"], json!(0)),
        None,
        "details.nightlyRate",
    );
    field_err(FormType::F11, with(FormType::F11, &["city"], json!("")), None, "details.city");
    field_err(FormType::F12, with(FormType::F12, &["days"], json!([])), None, "details.days");
    field_err(
        FormType::F12,
        with(FormType::F12, &["days", "1", "dinner"], json!(false)),
        None,
        "details.days[1]",
    );
    field_err(
        FormType::F12,
        with(FormType::F12, &["days", "1", "date"], json!("2025-10-01")),
        None,
        "details.days[1].date",
    );
    field_err(
        FormType::F13,
        with(FormType::F13, &["units"], json!(0)),
        Some(Money(1)),
        "details.units",
    );
    field_err(
        FormType::F13,
        with(FormType::F13, &["term"], json!("")),
        Some(Money(1)),
        "details.term",
    );
    field_err(
        FormType::F14,
        with(FormType::F14, &["reason"], json!("")),
        Some(Money(1)),
        "details.reason",
    );
    field_err(
        FormType::F5,
        with(FormType::F5, &["topic"], json!("")),
        Some(Money(1)),
        "details.topic",
    );
    field_err(
        FormType::F7,
        with(FormType::F7, &["siteName"], json!("")),
        Some(Money(1)),
        "details.siteName",
    );
    field_err(
        FormType::F8,
        with(FormType::F8, &["institute"], json!("")),
        Some(Money(1)),
        "details.institute",
    );
    let mut many = Vec::new();
    for _ in 0..=MAX_LINES {
        many.push(json!({"date": "2025-10-01", "description": "x", "amount": 1}));
    }
    field_err(FormType::F2, with(FormType::F2, &["items"], json!(many)), None, "details.items");
}

#[test]
fn f11_nights_are_computed_and_a_wrong_count_refused() {
    let mut d = Details::parse(FormType::F11, &valid(FormType::F11).0).unwrap();
    evaluate(&mut d, None, &rates(), &limits()).unwrap();
    assert!(matches!(&d, Details::F11(x) if x.nights == Some(2)));
    field_err(FormType::F11, with(FormType::F11, &["nights"], json!(3)), None, "details.nights");
    assert!(run(FormType::F11, with(FormType::F11, &["nights"], json!(2)), None).is_ok());
}

#[test]
fn rates_are_recorded_in_details_and_read_back() {
    for form in [FormType::F3, FormType::F12] {
        let mut d = Details::parse(form, &valid(form).0).unwrap();
        evaluate(&mut d, None, &rates(), &limits()).unwrap();
        let stored = d.to_json();
        assert!(stored.contains("mileageRate") || stored.contains("mealRates"), "{stored}");
        assert_eq!(Details::from_stored(form, &stored).unwrap(), d);
    }
    // A caller cannot set the rate.
    let mut v = valid(FormType::F3).0;
    v["mileageRate"] = json!(5);
    let mut d = Details::parse(FormType::F3, &v).unwrap();
    assert_eq!(evaluate(&mut d, None, &rates(), &limits()).unwrap().requested_amount, Money(1575));
}

#[test]
fn mileage_rounds_to_the_cent() {
    let r = Rates { mileage: Money(67), ..rates() };
    let mut d = Details::parse(
        FormType::F3,
        &with(
            FormType::F3,
            &["trips"],
            json!([{"date": "2025-10-01", "from": "a", "to": "b", "miles": 0.33}]),
        ),
    )
    .unwrap();
    assert_eq!(evaluate(&mut d, None, &r, &limits()).unwrap().requested_amount, Money(22));
}

#[test]
fn texts_are_trimmed() {
    let mut d =
        Details::parse(FormType::F9, &with(FormType::F9, &["vendorName"], json!("  Acme  ")))
            .unwrap();
    evaluate(&mut d, None, &rates(), &limits()).unwrap();
    assert!(matches!(&d, Details::F9(x) if x.vendor_name == "Acme"));
}

#[test]
fn placement_and_activity_dates() {
    let date = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
    for form in FormType::ALL {
        let got = run(form, valid(form).0, Some(Money(1))).unwrap();
        match form {
            FormType::F1 => assert_eq!(got.placement_end_date, Some(date("2025-12-15"))),
            FormType::F7 => assert_eq!(got.placement_end_date, Some(date("2026-06-30"))),
            _ => assert_eq!(got.placement_end_date, None, "{form:?}"),
        }
        match form {
            FormType::F13 | FormType::F14 => assert_eq!(got.activity_dates, None),
            _ => {
                let (a, b) = got.activity_dates.unwrap_or_else(|| panic!("{form:?}"));
                assert!(a <= b);
            }
        }
    }
    let got = run(FormType::F3, valid(FormType::F3).0, None).unwrap();
    assert_eq!(got.activity_dates, Some((date("2025-10-01"), date("2025-10-02"))));
}

#[test]
fn references_name_their_fields() {
    for form in FormType::ALL {
        let d = Details::parse(form, &valid(form).0).unwrap();
        let value = valid(form).0;
        for (field, _, id) in d.references() {
            assert_eq!(value[field], json!(id), "{form:?} {field}");
        }
        assert_eq!(d.form_type(), form);
    }
    let d = Details::parse(FormType::F3, &valid(FormType::F3).0).unwrap();
    assert_eq!(d.references().len(), 2);
}

#[test]
fn f4_institution_is_optional_and_null_reads_as_missing() {
    let d = Details::parse(
        FormType::F4,
        &with(FormType::F4, &["institutionId"], serde_json::Value::Null),
    )
    .unwrap();
    assert_eq!(d.references().len(), 1, "only the training type is checked");
    let mut v = valid(FormType::F4).0;
    v.as_object_mut().unwrap().remove("institutionId");
    assert!(Details::parse(FormType::F4, &v).is_ok());
    // A required id sent as null is "required", in words.
    match Details::parse(
        FormType::F4,
        &with(FormType::F4, &["trainingTypeId"], serde_json::Value::Null),
    ) {
        Err(ApiError::BadRequest { errors, .. }) => {
            assert_eq!(errors["details.trainingTypeId"], ["is required"])
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn details_speak_the_words_of_a_whole_body() {
    let said = |path: &[&str], value: serde_json::Value, field: &str| match Details::parse(
        FormType::F6,
        &with(FormType::F6, path, value),
    ) {
        Err(ApiError::BadRequest { errors, .. }) => errors[field][0].clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(said(&["date"], json!(null), "details.date"), "is required");
    assert_eq!(
        said(&["activityType"], json!("Party"), "details.activityType"),
        "must be one of Workshop, Presentation, Committee, Conference, Other"
    );
    assert_eq!(
        said(&["date"], json!("2025-13-01"), "details.date"),
        "is not a day of the calendar"
    );
    assert!(said(&["zz"], json!(1), "details.zz").starts_with("is not a field here"));
}

#[test]
fn description_is_optional_and_bounded() {
    let mut errs = Checks::default();
    assert_eq!(check_description(Some("  hi "), &mut errs), Some("hi".into()));
    assert_eq!(check_description(Some("   "), &mut errs), None);
    assert_eq!(check_description(None, &mut errs), None);
    assert!(errs.is_empty());
    check_description(Some(&"x".repeat(MAX_DESCRIPTION_CHARS + 1)), &mut errs);
    assert!(errs.0.contains_key("description"));
}

#[test]
fn huge_quantities_do_not_overflow() {
    let mut d =
        Details::parse(FormType::F10, &with(FormType::F10, &["hourlyRate"], json!(10000000000i64)))
            .unwrap();
    // 7.5 hours × 10 billion is above the money ceiling: refused, not wrapped.
    assert!(evaluate(&mut d, None, &rates(), &Limits::none()).is_err());
}

/// The rates as `GET /payment-requests/rates` sends them (`rates()` in dollars).
fn rates_on_the_wire() -> serde_json::Value {
    json!({"mileageRate": 0.70, "mealRates": {"breakfast": 10, "lunch": 15, "dinner": 25}})
}

/// A served amount rule applied to `details` the way the UI applies it: from the JSON that
/// travels, written apart from the server's own arithmetic so the two can disagree.
fn apply(rule: AmountRule, d: &serde_json::Value, rates: &serde_json::Value) -> Option<i64> {
    let hundredths = |v: &serde_json::Value| (v.as_f64().unwrap_or(0.0) * 100.0).round() as i64;
    let rows = |name: &str| d[name].as_array().cloned().unwrap_or_default();
    let day = |v: &serde_json::Value| NaiveDate::parse_from_str(v.as_str()?, "%Y-%m-%d").ok();
    match rule {
        AmountRule::Entered => None,
        AmountRule::Sum { rows: r, column } => {
            Some(rows(r).iter().map(|row| hundredths(&row[column])).sum())
        }
        AmountRule::Field { field } => Some(hundredths(&d[field])),
        AmountRule::Product { quantity, rate, rounding: Rounding::HalfAwayFromZero } => {
            let q = match quantity {
                AmountQuantity::Field { field } => hundredths(&d[field]),
                AmountQuantity::SumOfRows { rows: r, column } => {
                    rows(r).iter().map(|row| hundredths(&row[column]).max(0)).sum()
                }
                AmountQuantity::DaysBetween { from, to } => match (day(&d[from]), day(&d[to])) {
                    (Some(a), Some(b)) => (b - a).num_days().max(0) * 100,
                    _ => 0,
                },
            };
            let r = match rate {
                AmountRate::Field { field } => hundredths(&d[field]),
                AmountRate::Setting { setting, .. } => hundredths(&rates[setting]),
            };
            let p = q * r;
            Some(if p >= 0 { (p + 50) / 100 } else { (p - 50) / 100 })
        }
        AmountRule::Meals { rows: r, setting } => {
            let mut total = 0;
            for row in rows(r) {
                for (meal, rate) in rates[setting].as_object().expect("meal rates") {
                    if row[meal.as_str()] == json!(true) {
                        total += hundredths(rate);
                    }
                }
            }
            Some(total)
        }
    }
}

#[test]
fn the_served_amount_rule_computes_what_the_server_computes() {
    // The valid samples, and some whose products round (half a cent and more).
    let mut cases: Vec<(FormType, serde_json::Value)> =
        FormType::ALL.iter().map(|f| (*f, valid(*f).0)).collect();
    cases.push((FormType::F3, with(FormType::F3, &["trips", "0", "miles"], json!(0.33))));
    cases.push((FormType::F3, with(FormType::F3, &["trips", "1", "miles"], json!(0.05))));
    cases.push((FormType::F10, with(FormType::F10, &["hourlyRate"], json!(0.07))));
    cases.push((FormType::F10, with(FormType::F10, &["hours"], json!(0.5))));
    cases.push((FormType::F11, with(FormType::F11, &["checkOut"], json!("2025-10-06"))));
    cases.push((FormType::F12, with(FormType::F12, &["days", "1", "lunch"], json!(true))));
    for (form, details) in cases {
        let rule = form.rules().amount;
        let server = run(form, details.clone(), Some(Money(12_345)))
            .unwrap_or_else(|e| panic!("{form:?} {details}: {e:?}"));
        match apply(rule, &details, &rates_on_the_wire()) {
            Some(cents) => assert_eq!(server.requested_amount, Money(cents), "{form:?} {details}"),
            None => assert_eq!(server.requested_amount, Money(12_345), "{form:?}"),
        }
        assert_eq!(form.rules().amount_source, form.amount_source());
        assert_eq!(rule == AmountRule::Entered, form.amount_source() == AmountSource::Entered);
    }
    assert_eq!(apply(FormType::F12.amount_rule(), &json!({}), &rates_on_the_wire()), Some(0));
}

#[test]
fn served_rounding_is_the_money_rounding() {
    // Half a cent away from zero, both ways.
    assert_eq!(Money(5).times_hundredths(10), Some(Money(1)));
    assert_eq!(Money(5).times_hundredths(-10), Some(Money(-1)));
    assert_eq!(Money(4).times_hundredths(10), Some(Money(0)));
    assert_eq!(
        serde_json::to_value(Rounding::HalfAwayFromZero).unwrap(),
        json!("halfAwayFromZero")
    );
}

#[test]
fn served_references_are_the_ones_checked() {
    for form in FormType::ALL {
        let d = Details::parse(form, &valid(form).0).unwrap();
        let checked: Vec<_> = d.references().into_iter().map(|(f, l, _)| (f, l)).collect();
        let served: Vec<_> = form.rules().references.iter().map(|r| (r.field, r.list)).collect();
        assert_eq!(served, checked, "{form:?}");
    }
    let uses = |list: Reference| -> Vec<FormType> {
        FormType::ALL
            .into_iter()
            .filter(|f| f.rules().references.iter().any(|r| r.list == list))
            .collect()
    };
    assert_eq!(uses(Reference::College), [FormType::F1, FormType::F13]);
    assert_eq!(uses(Reference::Institution), [FormType::F4, FormType::F13]);
    assert_eq!(uses(Reference::FiscalYear), [FormType::F14]);
    let optional: Vec<_> = FormType::ALL
        .into_iter()
        .flat_map(|f| f.rules().references)
        .filter(|r| r.optional)
        .map(|r| r.field)
        .collect();
    assert_eq!(optional, ["institutionId"], "only F4's institution may be left empty");
    let wire = serde_json::to_value(FormType::F14.rules()).unwrap();
    assert_eq!(
        wire["references"],
        json!([{"field": "fiscalYearId", "list": "fiscal_years", "optional": false}])
    );
}

#[test]
fn only_the_expense_form_takes_receipts() {
    for form in FormType::ALL {
        let receipts = form.rules().receipts;
        assert_eq!(receipts.is_some(), form == FormType::F2, "{form:?}");
    }
    let rules = FormType::F2.rules().receipts.unwrap();
    assert_eq!((rules.field, rules.max_files, rules.max_bytes), ("fileIds", 20, 10 * 1024 * 1024));
    let mut value = valid(FormType::F2).0;
    value["fileIds"] = json!(["a", "b"]);
    assert_eq!(Details::parse(FormType::F2, &value).unwrap().file_ids(), ["a", "b"]);
    let wire = serde_json::to_value(FormType::F3.rules()).unwrap();
    assert_eq!(wire["receipts"], serde_json::Value::Null);
    assert_eq!(wire["amountSource"], "Rate");
    assert_eq!(
        wire["amount"],
        json!({"rule": "product", "quantity": {"kind": "sumOfRows", "rows": "trips", "column": "miles"},
            "rate": {"kind": "setting", "setting": "mileageRate", "unit": "mile"}, "rounding": "halfAwayFromZero"})
    );
}
