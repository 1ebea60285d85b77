//! People in the loop: who hears of what when a request moves (`events`), how each user wants
//! to hear (at once, a daily digest, or not at all), and the outbox that carries the mails:
//! written in the moving action's transaction, sent after commit by `worker`.

pub mod api;
pub mod commands;
pub mod digest;
pub mod dto;
pub mod events;
pub mod facts;
pub mod mails;
pub mod outbox;
pub mod recipients;
pub mod reminders;
pub mod worker;

use crate::{
    auth::Permission as P,
    routes::{Access::*, Routes},
};

pub fn configure(r: &mut Routes) {
    r.get("/identity/me/notifications", SignedIn, api::get_mine)
        .put("/identity/me/notifications", SignedIn, api::put_mine)
        .get("/system-settings/outbox", Needs(P::SettingRead), api::list_outbox);
}
