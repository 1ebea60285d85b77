//! Reference lists (SPEC §7, DESIGN §5): every list through one generic implementation.
//! lists.rs describes each list; api.rs / store.rs / openapi.rs serve any of them.

pub mod api;
pub mod dto;
pub mod fixed;
pub mod lists;
pub mod openapi;
pub mod rules;
pub mod store;

use actix_web::web;

use crate::{auth::CurrentUser, routes::{self, Routes}, state::AppState, web::{Json, Query}};
use dto::{RefCreate, RefQuery};

/// Registers every list. Must come before areas with `/{id}` routes under the same
/// prefix (`/participants/roles` before `/participants/{id}`).
pub fn configure(r: &mut Routes) {
    for list in lists::LISTS {
        r.get(list.path, list.read.into(), move |s: web::Data<AppState>, me: CurrentUser, Query(q): Query<RefQuery>| {
            api::list_items(list, s, me, q)
        });
        if let Some(permission) = list.create {
            r.post(list.path, routes::Access::Needs(permission), move |s: web::Data<AppState>, me: CurrentUser, Json(b): Json<RefCreate>| {
                api::create_item(list, s, me, b)
            });
        }
    }
}
