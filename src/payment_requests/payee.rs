//! Who a request pays, and whether that changed since approval. Pure.
//!
//! Approval copies the payee into the request, so what the office approved is what it
//! pays: a participant renamed or re-addressed afterwards changes neither the vendor
//! payment, its files nor the packet, and the vendor payment preview names the change.

use serde_json::Value;

use crate::forms::FormType;

/// A payee as approved or as it stands: who, where, and the e-mail that identifies a
/// participant (a vendor has none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payee {
    pub name: String,
    pub address: Option<String>,
    pub email: Option<String>,
}

/// The participant a request belongs to, as read now.
#[derive(Debug, Clone, Copy)]
pub struct Person<'a> {
    pub name: &'a str,
    pub address: Option<&'a str>,
    pub email: &'a str,
}

/// The payee of a request: the vendor for F9 (its details name and address it), otherwise
/// the participant the request pays.
pub fn of(form_type: FormType, details: &str, person: Person) -> Payee {
    if form_type == FormType::F9 {
        if let Ok(d) = serde_json::from_str::<Value>(details) {
            let text = |k: &str| {
                d.get(k)
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
            };
            if let Some(vendor) = text("vendorName") {
                return Payee { name: vendor, address: text("vendorAddress"), email: None };
            }
        }
    }
    Payee {
        name: person.name.to_owned(),
        address: person.address.map(str::to_owned),
        email: Some(person.email.to_owned()),
    }
}

/// What differs between the approved payee and today's, in words ("name and address"), or
/// None when they agree. Blank and missing addresses are the same.
pub fn changed(approved: &Payee, now: &Payee) -> Option<String> {
    let blank = |s: &Option<String>| {
        s.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned)
    };
    let parts: Vec<&str> = [
        (approved.name.trim() != now.name.trim(), "name"),
        (blank(&approved.address) != blank(&now.address), "address"),
        (blank(&approved.email) != blank(&now.email), "e-mail"),
    ]
    .into_iter()
    .filter_map(|(differs, part)| differs.then_some(part))
    .collect();
    match parts.as_slice() {
        [] => None,
        [one] => Some((*one).to_owned()),
        [rest @ .., last] => Some(format!("{} and {last}", rest.join(", "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAT: Person =
        Person { name: "Pat Payee", address: Some("home"), email: "pat@example.org" };

    fn payee(name: &str, address: Option<&str>, email: Option<&str>) -> Payee {
        Payee {
            name: name.into(),
            address: address.map(str::to_owned),
            email: email.map(str::to_owned),
        }
    }

    #[test]
    fn vendor_payments_pay_the_vendor_of_an_f9_and_the_participant_otherwise() {
        let f9 = r#"{"vendorName": " Acme Supply ", "vendorAddress": "1 Main St", "amount": 10}"#;
        let cases = [
            (FormType::F9, f9, payee("Acme Supply", Some("1 Main St"), None)),
            (FormType::F1, f9, payee("Pat Payee", Some("home"), Some("pat@example.org"))),
            // A vendor request without a vendor name falls back to the participant.
            (FormType::F9, "{}", payee("Pat Payee", Some("home"), Some("pat@example.org"))),
            (FormType::F9, "not json", payee("Pat Payee", Some("home"), Some("pat@example.org"))),
        ];
        for (form, details, want) in cases {
            assert_eq!(of(form, details, PAT), want, "{form:?} {details}");
        }
    }

    #[test]
    fn a_change_since_approval_is_named_in_words() {
        let approved = payee("Pat Payee", Some("1 Main St"), Some("pat@example.org"));
        let cases = [
            (approved.clone(), None),
            (payee(" Pat Payee ", Some("1 Main St "), Some("pat@example.org")), None),
            (payee("Pat Other", Some("1 Main St"), Some("pat@example.org")), Some("name")),
            (payee("Pat Payee", Some("9 Elm St"), Some("pat@example.org")), Some("address")),
            (payee("Pat Payee", None, Some("pat@example.org")), Some("address")),
            (
                payee("Pat Other", Some("9 Elm St"), Some("pat@example.org")),
                Some("name and address"),
            ),
            (
                payee("Pat Other", Some("9 Elm St"), Some("x@example.org")),
                Some("name, address and e-mail"),
            ),
        ];
        for (now, want) in cases {
            assert_eq!(changed(&approved, &now).as_deref(), want, "{now:?}");
        }
        let blank = payee("Pat Payee", Some(" "), None);
        assert_eq!(changed(&blank, &payee("Pat Payee", None, None)), None);
    }
}
