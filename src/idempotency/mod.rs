//! Safe retries of the POSTs that create or move money: a client that did not hear the answer
//! (a lost connection, a timeout) sends the same request again with the same `Idempotency-Key`
//! and gets the first answer back instead of a second effect.
//!
//! The route table marks those routes ([`crate::routes::Routes::idempotent`]); on them the
//! guard, after the caller's access checks, runs [`around`]: it claims the key for the caller by
//! inserting its row first (the primary key (user, key) lets one request through), runs the
//! handler, and keeps its answer for [`KEPT`]. A retry with the same method, path and body is
//! answered from the row with `Idempotent-Replayed: true`; the same key on another request is a
//! 422; while the first request is still running, a 409. A request without the header runs as
//! before. Why it is built this way: docs/decisions-api.md, "Safe retries".

mod guard;
pub mod key;
pub mod store;

pub use guard::around;

/// The request header a client names its attempt with.
pub const HEADER: &str = "Idempotency-Key";
/// The answer header that says an answer is the kept first one.
pub const REPLAYED: &str = "Idempotent-Replayed";
/// How long a first answer is kept (then the key may be used afresh).
pub const KEPT: chrono::Duration = chrono::Duration::hours(24);

/// The answers a key adds to a marked route (the route table documents them as problems).
pub const ANSWERS: &[(&str, &str)] = &[
    ("400", "A malformed Idempotency-Key, naming it"),
    ("409", "A request with this Idempotency-Key is still being processed (Retry-After)"),
    ("422", "This Idempotency-Key was already used with another request"),
];

/// Describes the header and the replay mark in a marked route's OpenAPI operation.
pub fn document(op: &mut utoipa::openapi::path::Operation) {
    use utoipa::openapi::{
        header::Header,
        path::{ParameterBuilder, ParameterIn},
        schema::{ObjectBuilder, Type},
        RefOr, Required,
    };
    let key = ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(key::MAX_CHARS))
        .pattern(Some(format!("^[!-~]{{1,{}}}$", key::MAX_CHARS)));
    let parameter = ParameterBuilder::new()
        .name(HEADER)
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(
            "Names this attempt, so a retry is safe: 1 to 255 visible ASCII characters, new \
             for each new request, the same on a retry. The first answer is kept for 24 hours \
             for the caller and key, and a retry with the same body gets it again (with \
             `Idempotent-Replayed: true`) without a second effect; the same key with another \
             body is a 422, and a 409 answers while the first request is still running.",
        ))
        .schema(Some(key))
        .build();
    op.parameters.get_or_insert_with(Vec::new).push(parameter);
    for (status, response) in op.responses.responses.iter_mut() {
        if let (true, RefOr::T(response)) = (status.starts_with('2'), response) {
            let mut mark = Header::new(
                ObjectBuilder::new().schema_type(Type::String).enum_values(Some(["true"])),
            );
            mark.description = Some(format!("The kept first answer to this {HEADER}."));
            response.headers.insert(REPLAYED.to_owned(), mark);
        }
    }
}
