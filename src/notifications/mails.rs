//! A mail's words: plain text and a simple HTML part, rendered from its event when sent.

use super::events::{days, Event, RequestFacts, Waiting};
use crate::money::Money;

/// The message parts of `event`; links point under `public_url` (the address users open).
pub fn render(event: &Event, public_url: &str) -> (String, String) {
    let base = public_url.trim_end_matches('/');
    match event {
        Event::Invitation { email, token, valid_for, again } => {
            let link = crate::mail::set_password_link(base, email, token);
            let lead = if *again {
                format!("Here is a new link to choose the password of your MentorPay account ({email}); the links sent before no longer work.")
            } else {
                format!("A MentorPay account has been created for {email}.")
            };
            let text = format!(
                "{lead}\n\nChoose your password here (valid for {valid_for}, once):\n{link}\n"
            );
            let html = format!(
                "<p>{}</p>\n<p><a href=\"{}\">Choose your password</a> (valid for {}, once).</p>\n",
                escape(&lead),
                escape(&link),
                escape(valid_for)
            );
            (text, page(html))
        }
        Event::RequestMoved { happened, request, actor, reason } => {
            let mut text = format!(
                "{} was {} by {actor}.\n\n{}\n",
                describe(request),
                happened.phrase(),
                lines(request)
            );
            let mut html = format!(
                "<p>{} was {} by {}.</p>\n<ul>{}</ul>\n",
                escape(&describe(request)),
                happened.phrase(),
                escape(actor),
                items(request)
            );
            if let Some(reason) = reason.as_deref().filter(|r| !r.trim().is_empty()) {
                text.push_str(&format!("Reason: {reason}\n"));
                html.push_str(&format!("<p>Reason: {}</p>\n", escape(reason)));
            }
            let link = link(base, request);
            text.push_str(&format!("\nOpen the request: {link}\n"));
            html.push_str(&format!("<p><a href=\"{}\">Open the request</a></p>\n", escape(&link)));
            (text, page(html))
        }
        Event::StepWaiting { waiting, escalation } => {
            render(&Event::steps_waiting(vec![waiting.clone()], *escalation), public_url)
        }
        Event::StepsWaiting { waiting, more, escalation } => {
            if let ([waiting], 0) = (&waiting[..], more) {
                return one_waiting(base, waiting, *escalation);
            }
            let n = crate::text::count((waiting.len() + more) as u64);
            let lead = if *escalation {
                format!("{n} requests have waited for approval longer than the office allows, the longest first:")
            } else {
                format!("{n} requests have waited for you (or someone you stand in for) longer than the office allows, the longest first:")
            };
            let mut text = format!("{lead}\n\n");
            let mut html = format!("<p>{}</p>\n<ul>\n", escape(&lead));
            for w in waiting {
                let link = link(base, &w.request);
                text.push_str(&format!("- {}: {link}\n", waited(w)));
                html.push_str(&format!(
                    "<li><a href=\"{}\">{}</a></li>\n",
                    escape(&link),
                    escape(&waited(w))
                ));
            }
            html.push_str("</ul>\n");
            if *more > 0 {
                // The list the reader can take them from: her own, or every submitted request.
                let list = if *escalation {
                    format!("{base}/?FormStatus=Submitted")
                } else {
                    format!("{base}/?WaitingForMe=true")
                };
                let more = crate::text::count(*more as u64);
                text.push_str(&format!("\nAnd {more} more, in the request list: {list}\n"));
                html.push_str(&format!(
                    "<p>And {more} more, in <a href=\"{}\">the request list</a>.</p>\n",
                    escape(&list)
                ));
            }
            (text, page(html))
        }
        Event::Digest { to_approve, sent_back, overdue, escalated } => {
            let mut text = String::from("What waits for you in MentorPay today.\n");
            let mut html = String::from("<p>What waits for you in MentorPay today.</p>\n");
            let requests = |list: &[RequestFacts]| -> Vec<(String, String)> {
                list.iter().map(|r| (link(base, r), describe(r))).collect()
            };
            let waits = |list: &[Waiting]| -> Vec<(String, String)> {
                list.iter().map(|w| (link(base, &w.request), waited(w))).collect()
            };
            for (title, lines) in [
                ("Requests to approve", requests(to_approve)),
                ("Your requests sent back for revision", requests(sent_back)),
                ("Waiting longer than the office allows", waits(overdue)),
                ("Escalated to the Administrators", waits(escalated)),
            ] {
                if lines.is_empty() {
                    continue;
                }
                text.push_str(&format!("\n{title} ({}):\n", lines.len()));
                html.push_str(&format!("<h2>{title} ({})</h2>\n<ul>\n", lines.len()));
                for (link, line) in lines {
                    text.push_str(&format!("- {line}: {link}\n"));
                    html.push_str(&format!(
                        "<li><a href=\"{}\">{}</a></li>\n",
                        escape(&link),
                        escape(&line)
                    ));
                }
                html.push_str("</ul>\n");
            }
            (text, page(html))
        }
    }
}

/// A reminder or an escalation of one step: the request described in full.
fn one_waiting(base: &str, waiting: &Waiting, escalation: bool) -> (String, String) {
    let r = &waiting.request;
    let lead = if escalation {
        format!(
            "{} has waited {} at the approval step {}, longer than the office allows.",
            describe(r),
            days(waiting.days),
            waiting.step
        )
    } else {
        format!(
            "{} has waited {} for you (or someone you stand in for) at the approval step {}.",
            describe(r),
            days(waiting.days),
            waiting.step
        )
    };
    let link = link(base, r);
    let text = format!("{lead}\n\n{}\n\nOpen the request: {link}\n", lines(r));
    let html = format!(
        "<p>{}</p>\n<ul>{}</ul>\n<p><a href=\"{}\">Open the request</a></p>\n",
        escape(&lead),
        items(r),
        escape(&link)
    );
    (text, page(html))
}

/// "Expense reimbursement request F2 #7 for Ann Lee ($123.45)": forms by their names, as people
/// know them, and the request as every screen names it.
fn describe(r: &RequestFacts) -> String {
    format!(
        "{} request {} for {} ({})",
        r.form.name(),
        crate::text::request_ref(r.form.as_str(), r.id.into()),
        r.payee,
        Money(r.amount_cents).dollars()
    )
}

/// "… request F2 #7 for Ann Lee ($12.00), 5 days at Finance"
fn waited(w: &Waiting) -> String {
    format!("{}, {} at {}", describe(&w.request), days(w.days), w.step)
}

fn lines(r: &RequestFacts) -> String {
    format!(
        "Form: {}\nPayee: {}\nAmount: {}",
        r.form.name(),
        r.payee,
        Money(r.amount_cents).dollars()
    )
}

fn items(r: &RequestFacts) -> String {
    format!(
        "<li>Form: {}</li><li>Payee: {}</li><li>Amount: {}</li>",
        escape(r.form.name()),
        escape(&r.payee),
        Money(r.amount_cents).dollars()
    )
}

fn link(base: &str, r: &RequestFacts) -> String {
    format!("{base}/payment-request/{}/{}/details", r.form.as_str(), r.id)
}

fn page(body: String) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>MentorPay</title></head>\n<body>\n{body}<p>MentorPay</p>\n</body></html>\n"
    )
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        entities::codes::FormType,
        notifications::events::{Happened, LISTED},
    };

    fn request() -> RequestFacts {
        RequestFacts {
            id: 42,
            form: FormType::F3,
            payee: "Ann <b>Lee</b>".into(),
            amount_cents: 123_456,
        }
    }

    #[test]
    fn a_move_says_what_to_which_request_by_whom_with_a_link() {
        let event = Event::RequestMoved {
            happened: Happened::SentForRevision,
            request: request(),
            actor: "Bo Approver".into(),
            reason: Some("Mileage & dates".into()),
        };
        let (text, html) = render(&event, "https://mentorpay.agency.local/");
        assert!(text.contains("Travel and mileage request F3 #42 for Ann <b>Lee</b> ($1,234.56) was sent back for revision by Bo Approver."), "{text}");
        assert!(text.contains("Form: Travel and mileage\n"), "{text}");
        // The form by its name; its code only in the request's reference ("F3 #42", as every
        // screen names it) and the link.
        let bare = |t: &str| t.replace("/F3/", "").replace("F3 #42", "").contains("F3");
        assert!(!bare(&text), "no form code outside the reference and link: {text}");
        assert!(!bare(&html), "no form code outside the reference and link: {html}");
        assert!(text.contains("Reason: Mileage & dates"));
        assert!(text.contains("https://mentorpay.agency.local/payment-request/F3/42/details"));
        assert!(html.contains("Ann &lt;b&gt;Lee&lt;/b&gt;"), "HTML is escaped: {html}");
        assert!(html.contains("Reason: Mileage &amp; dates"));
        assert!(
            html.contains("href=\"https://mentorpay.agency.local/payment-request/F3/42/details\"")
        );
    }

    #[test]
    fn a_digest_lists_only_what_waits() {
        let event = Event::Digest {
            to_approve: vec![request()],
            sent_back: vec![],
            overdue: vec![],
            escalated: vec![],
        };
        let (text, html) = render(&event, "http://h");
        assert!(text.contains("Requests to approve (1):"));
        assert!(!text.contains("sent back"));
        assert!(!text.contains("Waiting longer"));
        assert!(html.contains("<h2>Requests to approve (1)</h2>"));
    }

    #[test]
    fn a_digest_repeats_what_waits_too_long_and_a_reminder_says_where() {
        let w = Waiting { request: request(), step: "Finance".into(), days: 5 };
        let event = Event::Digest {
            to_approve: vec![request()],
            sent_back: vec![],
            overdue: vec![w.clone()],
            escalated: vec![],
        };
        let (text, _) = render(&event, "http://h");
        assert!(text.contains("Waiting longer than the office allows (1):\n- Travel and mileage request F3 #42 for Ann <b>Lee</b> ($1,234.56), 5 days at Finance: http://h/payment-request/F3/42/details"), "{text}");
        let (text, html) =
            render(&Event::StepWaiting { waiting: w, escalation: true }, "http://h/");
        assert!(text.starts_with("Travel and mileage request F3 #42 for Ann <b>Lee</b> ($1,234.56) has waited 5 days at the approval step Finance"), "{text}");
        assert!(html.contains("Ann &lt;b&gt;Lee&lt;/b&gt;"), "{html}");
        assert!(text.contains("Open the request: http://h/payment-request/F3/42/details"));
    }

    #[test]
    fn a_reminder_of_many_lists_the_longest_waiting_and_counts_the_rest() {
        let w = |id, days| Waiting {
            request: RequestFacts { id, ..request() },
            step: "Finance".into(),
            days,
        };
        let many: Vec<Waiting> = (1..=LISTED as i32 + 3).map(|id| w(id, i64::from(id))).collect();
        let event = Event::steps_waiting(many, false);
        assert_eq!(
            event.subject(),
            "Reminder: 53 requests have waited for your approval longer than the office allows"
        );
        let (text, html) = render(&event, "http://h/");
        assert!(text.starts_with("53 requests have waited for you (or someone you stand in for) longer than the office allows, the longest first:\n\n- Travel and mileage request F3 #53 for Ann <b>Lee</b> ($1,234.56), 53 days at Finance: http://h/payment-request/F3/53/details\n"), "{text}");
        assert!(!text.contains("F3 #3 "), "past the first fifty only counted: {text}");
        assert!(
            text.ends_with("And 3 more, in the request list: http://h/?WaitingForMe=true\n"),
            "{text}"
        );
        assert!(html.contains("Ann &lt;b&gt;Lee&lt;/b&gt;"), "{html}");
        let (text, _) = render(&Event::steps_waiting(vec![w(1, 9), w(2, 9)], true), "http://h");
        assert!(text.starts_with("2 requests have waited for approval longer"), "{text}");
        assert!(!text.contains("more"), "{text}");
        // One step reads as a reminder of that request, however it was queued.
        let one = Event::StepWaiting { waiting: w(7, 4), escalation: false };
        assert_eq!(
            render(&one, "http://h"),
            render(&Event::steps_waiting(vec![w(7, 4)], false), "http://h")
        );
        assert_eq!(one.subject(), Event::steps_waiting(vec![w(7, 4)], false).subject());
    }
}
