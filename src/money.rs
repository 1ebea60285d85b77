//! Money on the wire: a JSON number with at most two decimals, parsed exactly from
//! its text (never through binary floating point), kept as integer cents.

use std::fmt;

use serde::{de::Error as _, Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use utoipa::{
    openapi::{schema::SchemaType, ObjectBuilder, RefOr, Schema, Type},
    PartialSchema, ToSchema,
};

/// Largest accepted amount: 10 billion, far above any real request, and small enough
/// that every amount prints back exactly (cents stay below 2^53).
pub const MAX_CENTS: i64 = 1_000_000_000_000;

/// An amount in integer cents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(pub i64);

impl Money {
    pub const ZERO: Money = Money(0);

    pub fn cents(self) -> i64 {
        self.0
    }

    /// Exact parse of a decimal text such as `12`, `12.5`, `-0.05`; no exponent, at most
    /// two decimals, at most `MAX_CENTS` in size.
    pub fn parse(text: &str) -> Result<Money, &'static str> {
        const BAD: &str = "must be a number with at most two decimals";
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) || (digits.contains('.') && fraction.is_empty()) {
            return Err(BAD);
        }
        if fraction.len() > 2 {
            return Err("must have at most two decimals");
        }
        let whole = whole.trim_start_matches('0');
        if whole.len() > 13 {
            return Err("is too large");
        }
        let whole: i64 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| BAD)? };
        let fraction_cents: i64 = format!("{fraction:0<2}").parse().map_err(|_| BAD)?;
        let cents = whole * 100 + fraction_cents;
        if cents > MAX_CENTS {
            return Err("is too large");
        }
        Ok(Money(if negative { -cents } else { cents }))
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Exact: below 2^53 cents the nearest double to cents/100 prints as its two-decimal text.
        serializer.serialize_f64(self.0 as f64 / 100.0)
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // The raw JSON text of the value: `12.345` is seen as written, not as a double.
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        let text = raw.get().trim();
        if !text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
            return Err(D::Error::custom("must be a number"));
        }
        Money::parse(text).map_err(D::Error::custom)
    }
}

impl PartialSchema for Money {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::Number))
            .multiple_of(Some(0.01))
            .description(Some("Amount with at most two decimals (stored as integer cents)."))
            .examples([serde_json::json!(12.34)])
            .into()
    }
}

impl ToSchema for Money {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{error::ApiError, web::parse_json};

    #[test]
    fn parses_exactly() {
        for (text, cents) in [
            ("0", 0),
            ("12", 1200),
            ("12.3", 1230),
            ("12.34", 1234),
            ("0.01", 1),
            ("-0.05", -5),
            ("0.29", 29),
            ("1.10", 110),
            ("007.5", 750),
            ("10000000000", MAX_CENTS),
        ] {
            assert_eq!(Money::parse(text), Ok(Money(cents)), "{text}");
        }
        for bad in ["", "-", ".5", "5.", "1.234", "0.001", "1e2", "1E-2", "+1", "abc", "1.2.3", "10000000000.01", "99999999999999999999"] {
            assert!(Money::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn prints_two_decimals() {
        assert_eq!(Money(1234).to_string(), "12.34");
        assert_eq!(Money(-5).to_string(), "-0.05");
        assert_eq!(Money(100).to_string(), "1.00");
    }

    #[derive(Debug, Deserialize, Serialize)]
    struct Body {
        amount: Money,
        rates: Vec<Money>,
    }

    #[test]
    fn json_round_trip_is_exact() {
        let b: Body = serde_json::from_str(r#"{"amount": 0.29, "rates": [1, 2.5, 99999999.99]}"#).unwrap();
        assert_eq!(b.amount, Money(29));
        assert_eq!(b.rates, [Money(100), Money(250), Money(9_999_999_999)]);
        let text = serde_json::to_string(&b).unwrap();
        assert_eq!(text, r#"{"amount":0.29,"rates":[1.0,2.5,99999999.99]}"#);
        for cents in [1, 7, 29, 1234, 123_456_789, MAX_CENTS - 1] {
            let printed = serde_json::to_string(&Money(cents)).unwrap();
            let back: Money = serde_json::from_str(&printed).unwrap();
            assert_eq!(back, Money(cents), "{printed}");
        }
    }

    #[test]
    fn the_json_extractor_names_the_bad_amount() {
        for (body, field) in [
            (r#"{"amount": 1.234, "rates": []}"#, "amount"),
            (r#"{"amount": "1.23", "rates": []}"#, "amount"),
            (r#"{"amount": 1, "rates": [1, 1e2]}"#, "rates[1]"),
            (r#"{"amount": null, "rates": []}"#, "amount"),
        ] {
            match parse_json::<Body>(body.as_bytes()).unwrap_err() {
                ApiError::BadRequest { errors, .. } => assert!(errors.contains_key(field), "{body}: {errors:?}"),
                other => panic!("{other:?}"),
            }
        }
        let ok: Body = parse_json(br#"{"amount": 5.5, "rates": [0.01]}"#).unwrap();
        assert_eq!(ok.amount, Money(550));
    }
}
