//! Money: integer cents inside, JSON numbers with at most two decimals outside, read and
//! written from their decimal text (no binary floating point on the way).

use std::fmt;

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// Largest amount accepted: ten billion dollars, far above any real request or budget.
pub const MAX_CENTS: i64 = 1_000_000_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(pub i64);

impl Money {
    pub const ZERO: Money = Money(0);

    pub fn cents(self) -> i64 {
        self.0
    }

    /// As a reader reads an amount: `$174,080.55`, `-$5.00`.
    pub fn dollars(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        format!("{sign}${}.{:02}", crate::text::count(abs / 100), abs % 100)
    }

    pub fn checked_add(self, other: Money) -> Option<Money> {
        self.0.checked_add(other.0).map(Money)
    }

    pub fn checked_sub(self, other: Money) -> Option<Money> {
        self.0.checked_sub(other.0).map(Money)
    }

    /// `self × quantity`, where quantity has up to two decimals (miles, hours), rounded
    /// half away from zero to the cent.
    pub fn times_hundredths(self, hundredths: i64) -> Option<Money> {
        let product = (self.0 as i128).checked_mul(hundredths as i128)?;
        let rounded = if product >= 0 { (product + 50) / 100 } else { (product - 50) / 100 };
        i64::try_from(rounded).ok().map(Money)
    }

    /// `self` raised (or, negative, lowered) by a percentage given in hundredths of a percent
    /// (`350` = 3.5 %), rounded half away from zero to the cent.
    pub fn changed_by_percent(self, percent_hundredths: i64) -> Option<Money> {
        let factor = 10_000i128.checked_add(percent_hundredths as i128)?;
        let product = (self.0 as i128).checked_mul(factor)?;
        let rounded =
            if product >= 0 { (product + 5_000) / 10_000 } else { (product - 5_000) / 10_000 };
        i64::try_from(rounded).ok().map(Money)
    }
}

/// Parses a JSON number's text ("12", "12.5", "-0.25") into hundredths, exactly.
/// Refuses exponents, more than two decimals and values beyond `MAX_CENTS`.
pub fn parse_hundredths(text: &str) -> Result<i64, String> {
    let text = text.trim();
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let well_formed = !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.bytes().all(|b| b.is_ascii_digit())
        && !(digits.contains('.') && fraction.is_empty());
    if !well_formed {
        return Err("must be a number with at most two decimals".into());
    }
    if fraction.len() > 2 {
        return Err("must have at most two decimals".into());
    }
    if whole.len() > 13 {
        return Err("is too large".into());
    }
    let whole: i64 = whole.parse().map_err(|_| "is too large".to_string())?;
    let fraction: i64 = format!("{fraction:0<2}").parse().unwrap_or(0);
    let value = whole * 100 + fraction;
    if value > MAX_CENTS {
        return Err("is too large".into());
    }
    Ok(if negative { -value } else { value })
}

pub fn format_hundredths(value: i64) -> String {
    Money(value).to_string()
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
        let raw =
            RawValue::from_string(format_hundredths(self.0)).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        let text = raw.get();
        if text.starts_with('"') {
            return Err(de::Error::custom("must be a number, not a string"));
        }
        parse_hundredths(text).map(Money).map_err(de::Error::custom)
    }
}

/// A quantity with up to two decimals (miles, hours), same exact rules as money.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Hundredths(pub i64);

impl Serialize for Hundredths {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Money(self.0).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Hundredths {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Money::deserialize(deserializer).map(|m| Hundredths(m.0))
    }
}

impl utoipa::PartialSchema for Money {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Number)
            .description(Some("Amount in dollars with at most two decimals"))
            .multiple_of(Some(0.01))
            .minimum(Some(-(MAX_CENTS as f64) / 100.0))
            .maximum(Some(MAX_CENTS as f64 / 100.0))
            .into()
    }
}

impl utoipa::ToSchema for Money {}

/// The schema of an amount that may not be negative (rates, limits, budgets).
pub struct NonNegativeMoney;

impl utoipa::PartialSchema for NonNegativeMoney {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Number)
            .description(Some("Amount in dollars with at most two decimals, not negative"))
            .multiple_of(Some(0.01))
            .minimum(Some(0.0))
            .maximum(Some(MAX_CENTS as f64 / 100.0))
            .into()
    }
}

impl utoipa::ToSchema for NonNegativeMoney {}

/// The schema of a sum of amounts (budget totals, report totals). Each amount is at most
/// `MAX_CENTS`, but many of them add up beyond it: a sum is bounded only by the 64-bit cents
/// it is kept in, which is what the document says rather than an amount's bound.
pub struct MoneySum;

impl utoipa::PartialSchema for MoneySum {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Number)
            .description(Some(
                "Sum of amounts in dollars with at most two decimals; beyond a single amount's \
                 bound when many amounts add up",
            ))
            .multiple_of(Some(0.01))
            .minimum(Some(i64::MIN as f64 / 100.0))
            .maximum(Some(i64::MAX as f64 / 100.0))
            .into()
    }
}

impl utoipa::ToSchema for MoneySum {}

impl utoipa::PartialSchema for Hundredths {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Number)
            .description(Some("Quantity with at most two decimals"))
            .multiple_of(Some(0.01))
            .minimum(Some(-(MAX_CENTS as f64) / 100.0))
            .maximum(Some(MAX_CENTS as f64 / 100.0))
            .into()
    }
}

impl utoipa::ToSchema for Hundredths {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_read_with_sign_and_separators() {
        assert_eq!(Money(17_408_055).dollars(), "$174,080.55");
        assert_eq!(Money(-500).dollars(), "-$5.00");
        assert_eq!(Money(99_999).dollars(), "$999.99");
        assert_eq!(Money(100_000).dollars(), "$1,000.00");
        assert_eq!(Money(0).dollars(), "$0.00");
        assert_eq!(Money(123_456_789_012).dollars(), "$1,234,567,890.12");
    }

    #[test]
    fn parses_exactly() {
        for (text, cents) in [
            ("0", 0),
            ("12", 1200),
            ("12.5", 1250),
            ("12.34", 1234),
            ("-0.25", -25),
            ("0.1", 10),
            ("10000000000", MAX_CENTS),
        ] {
            assert_eq!(parse_hundredths(text), Ok(cents), "{text}");
        }
        for bad in [
            "",
            "-",
            "1.",
            ".5",
            "1.234",
            "1e3",
            "1E2",
            "+5",
            "12,5",
            "abc",
            "0x10",
            "10000000000.01",
            "99999999999999",
        ] {
            assert!(parse_hundredths(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn formats_with_two_decimals() {
        assert_eq!(format_hundredths(1234), "12.34");
        assert_eq!(format_hundredths(5), "0.05");
        assert_eq!(format_hundredths(-25), "-0.25");
        assert_eq!(format_hundredths(0), "0.00");
    }

    #[test]
    fn json_round_trip() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Body {
            amount: Money,
        }
        let body: Body = serde_json::from_str(r#"{"amount": 0.1}"#).unwrap();
        assert_eq!(body.amount, Money(10));
        assert_eq!(
            serde_json::to_string(&Body { amount: Money(1999) }).unwrap(),
            r#"{"amount":19.99}"#
        );
        assert!(serde_json::from_str::<Body>(r#"{"amount": 0.125}"#).is_err());
        assert!(serde_json::from_str::<Body>(r#"{"amount": "12.00"}"#).is_err());
        assert!(serde_json::from_str::<Body>(r#"{"amount": 1e2}"#).is_err());
        // Through the API's extractor (serde_path_to_error) too, with the field named.
        let err = crate::web::parse_json::<Body>(br#"{"amount": 3.333}"#).unwrap_err();
        assert!(
            matches!(err, crate::error::ApiError::BadRequest { ref errors, .. } if errors.contains_key("amount")),
            "{err:?}"
        );
        assert_eq!(
            crate::web::parse_json::<Body>(br#"{"amount": 3.33}"#).unwrap().amount,
            Money(333)
        );
    }

    #[test]
    fn percentage_changes_round_half_away_from_zero_to_the_cent() {
        assert_eq!(Money(10_000).changed_by_percent(0), Some(Money(10_000)));
        assert_eq!(Money(10_000).changed_by_percent(350), Some(Money(10_350)));
        assert_eq!(Money(10_000).changed_by_percent(-10_000), Some(Money(0)));
        // $0.50 + 5 % = $0.525 -> $0.53; $0.10 + 2.5 % = $0.1025 -> $0.10
        assert_eq!(Money(50).changed_by_percent(500), Some(Money(53)));
        assert_eq!(Money(10).changed_by_percent(250), Some(Money(10)));
        // $0.01 - 50 % = $0.005 -> $0.01 (away from zero), and the same below zero
        assert_eq!(Money(1).changed_by_percent(-5_000), Some(Money(1)));
        assert_eq!(Money(-1).changed_by_percent(-5_000), Some(Money(-1)));
        assert_eq!(Money(123_457).changed_by_percent(333), Some(Money(127_568)));
        assert_eq!(Money(i64::MAX).changed_by_percent(10_000), None);
    }

    #[test]
    fn rates_times_quantities_round_to_the_cent() {
        // 0.70/mile × 12.5 miles = 8.75
        assert_eq!(Money(70).times_hundredths(1250), Some(Money(875)));
        // 0.655 does not exist; 0.67 × 0.33 = 0.2211 -> 0.22
        assert_eq!(Money(67).times_hundredths(33), Some(Money(22)));
        // half rounds away from zero: 0.05 × 0.5 = 0.025 -> 0.03
        assert_eq!(Money(5).times_hundredths(50), Some(Money(3)));
        assert_eq!(Money(i64::MAX).times_hundredths(i64::MAX), None);
    }
}
