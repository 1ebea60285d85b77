//! The route table: every API route is declared once, with its method, path and the
//! access it needs, where its area registers it (`Routes::get(path, access, handler)`).
//! The same table
//! - enforces access before anything else runs: a guard wrapped around each route
//!   authenticates (401), then checks the permission (403), then, on routes whose path
//!   names an entity of a program ([`Routes::scope`]), that the caller's scope reaches it
//!   (404/403), and only then lets the handler's extractors read the body (so a caller
//!   without the permission or the scope learns nothing about what the route expects);
//! - answers a wrong method on a known path with a JSON 405 naming the allowed ones;
//! - is what the permission-matrix and OpenAPI coverage tests iterate over.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::{future::Future, pin::Pin};

use actix_web::{
    body::BoxBody,
    dev::{ServiceRequest, ServiceResponse},
    http::{header, Method, StatusCode},
    middleware::{from_fn, Next},
    web, Error, FromRequest, Handler, HttpMessage, HttpRequest, HttpResponse, Responder,
};

use sea_orm::DatabaseConnection;

use crate::{
    auth::{
        scope::{scope_of, Scope},
        CurrentUser, Permission,
    },
    error::{title_for, ApiError, ApiResult, ProblemBody},
    state::AppState,
    web::heavy::{Heavy, Holding},
};

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No access token: sign-in, password links, health, the signed upload URL.
    Public,
    /// Any signed-in user (a handler may still narrow by its input, e.g. banners).
    SignedIn,
    Needs(Permission),
    /// Every one of these.
    AllOf(&'static [Permission]),
    /// At least one of these.
    AnyOf(&'static [Permission]),
}

impl Access {
    /// 403 naming the (first) missing permission.
    pub fn check(self, me: &CurrentUser) -> ApiResult<()> {
        match self {
            Access::Public | Access::SignedIn => Ok(()),
            Access::Needs(p) => me.require(p),
            Access::AllOf(all) => all.iter().try_for_each(|p| me.require(*p)),
            Access::AnyOf(any) => match any.iter().find(|p| me.has(**p)) {
                Some(_) => Ok(()),
                None => Err(ApiError::Forbidden(format!(
                    "You need one of the permissions {}.",
                    any.iter().map(|p| p.code()).collect::<Vec<_>>().join(", ")
                ))),
            },
        }
    }

    /// The smallest set of permissions that opens the route (the first of `AnyOf`).
    pub fn minimal_grant(self) -> Vec<Permission> {
        match self {
            Access::Public | Access::SignedIn => vec![],
            Access::Needs(p) => vec![p],
            Access::AllOf(all) => all.to_vec(),
            Access::AnyOf(any) => any.iter().take(1).copied().collect(),
        }
    }

    /// Whether a holder of exactly `granted` may call the route.
    pub fn allows(self, granted: &BTreeSet<Permission>) -> bool {
        match self {
            Access::Public | Access::SignedIn => true,
            Access::Needs(p) => granted.contains(&p),
            Access::AllOf(all) => all.iter().all(|p| granted.contains(p)),
            Access::AnyOf(any) => any.iter().any(|p| granted.contains(p)),
        }
    }

    /// Words for the OpenAPI summary and docs.
    pub fn describe(self) -> String {
        let codes = |ps: &[Permission], sep: &str| {
            ps.iter().map(|p| format!("`{}`", p.code())).collect::<Vec<_>>().join(sep)
        };
        match self {
            Access::Public => "no sign-in".into(),
            Access::SignedIn => "any signed-in user".into(),
            Access::Needs(p) => format!("permission `{}`", p.code()),
            Access::AllOf(all) => format!("permissions {}", codes(all, " and ")),
            Access::AnyOf(any) => format!("permission {}", codes(any, " or ")),
        }
    }
}

/// One row of the route table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteSpec {
    pub method: Method,
    /// Under /api/v1, with `{name}` placeholders as in the OpenAPI document.
    pub path: Cow<'static, str>,
    pub access: Access,
    /// The path parameter naming an entity the caller's scope must reach before the body
    /// is read ([`Routes::scope`]).
    pub scoped: Option<&'static str>,
    /// A heavy read, which passes its gate before running ([`Routes::heavy`]).
    pub heavy: Option<Heavy>,
    /// A POST that takes an `Idempotency-Key` ([`Routes::idempotent`]).
    pub idempotent: bool,
}

impl RouteSpec {
    pub fn full_path(&self) -> String {
        format!("{}{}", crate::routes::API_PREFIX, self.path)
    }
}

pub const API_PREFIX: &str = "/api/v1";

/// Whether a caller of this (restricted) scope may reach the entity with this id (Ok), or
/// the 404/403 it gets. An area's scope rule over its store, run by the guard; an
/// unrestricted caller passes without it.
pub type ScopeCheck = for<'a> fn(&'a DatabaseConnection, &'a Scope, i32) -> ScopeFuture<'a>;
pub type ScopeFuture<'a> = Pin<Box<dyn Future<Output = ApiResult<()>> + 'a>>;

/// `Routes::get(path, access, handler)` and its kin: `handler` answers `$method` on `path`
/// for callers with `access`.
macro_rules! shortcuts {
    ($($name:ident => $method:ident),*) => {$(
        #[doc = concat!("`", stringify!($method), "` on `path`, answered by `handler`.")]
        pub fn $name<F, Args>(
            &mut self,
            path: impl Into<Cow<'static, str>>,
            access: Access,
            handler: F,
        ) -> &mut Self
        where
            F: Handler<Args>,
            Args: FromRequest + 'static,
            F::Output: Responder + 'static,
        {
            self.add(Method::$method, path.into(), access, web::method(Method::$method).to(handler))
        }
    )*};
}

/// The routes of every area, in registration order (fixed paths before `{id}` ones).
#[derive(Default)]
pub struct Routes {
    entries: Vec<(RouteSpec, Option<ScopeCheck>, actix_web::Route)>,
}

impl Routes {
    pub fn new() -> Self {
        Self::default()
    }

    fn add(
        &mut self,
        method: Method,
        path: Cow<'static, str>,
        access: Access,
        route: actix_web::Route,
    ) -> &mut Self {
        let spec = RouteSpec { method, path, access, scoped: None, heavy: None, idempotent: false };
        self.entries.push((spec, None, route));
        self
    }

    /// Every route registered so far whose path starts with `prefix` names, in its path
    /// parameter `param`, an entity `check` decides the caller's scope over: the guard
    /// runs it after the permission and before the body is read. A value that is not a
    /// whole number is left to the path extractor (400).
    pub fn scope(&mut self, prefix: &str, param: &'static str, check: ScopeCheck) -> &mut Self {
        self.mark_scoped(|spec| spec.path.starts_with(prefix), prefix, param, check)
    }

    /// [`Routes::scope`] for the one route `method path` (where another method of the same
    /// path names something else by the same parameter).
    pub fn scope_route(
        &mut self,
        method: Method,
        path: &str,
        param: &'static str,
        check: ScopeCheck,
    ) -> &mut Self {
        self.mark_scoped(|spec| spec.method == method && spec.path == path, path, param, check)
    }

    /// Every GET registered so far whose path is `selected` is a heavy read: it waits for a
    /// slot of its kind (web::heavy) after its access checks.
    pub fn heavy(&mut self, selected: impl Fn(&str) -> bool) -> &mut Self {
        let mut marked = 0;
        for (spec, _, _) in self.entries.iter_mut() {
            if spec.method == Method::GET && selected(&spec.path) {
                spec.heavy = Some(Heavy::of(&spec.path));
                marked += 1;
            }
        }
        assert!(marked > 0, "no heavy route");
        self
    }

    /// The POST registered so far on `path` creates or moves money: a client may send it with
    /// an `Idempotency-Key` and retry it safely (crate::idempotency).
    pub fn idempotent(&mut self, path: &str) -> &mut Self {
        let spec = self
            .entries
            .iter_mut()
            .map(|(spec, _, _)| spec)
            .find(|spec| spec.method == Method::POST && spec.path == path);
        spec.unwrap_or_else(|| panic!("no POST {path}")).idempotent = true;
        self
    }

    fn mark_scoped(
        &mut self,
        selected: impl Fn(&RouteSpec) -> bool,
        prefix: &str,
        param: &'static str,
        check: ScopeCheck,
    ) -> &mut Self {
        assert!(prefix.contains(&format!("{{{param}}}")), "{prefix} has no {{{param}}}");
        let mut marked = 0;
        for (spec, scope, _) in self.entries.iter_mut().filter(|(spec, _, _)| selected(spec)) {
            spec.scoped = Some(param);
            *scope = Some(check);
            marked += 1;
        }
        assert!(marked > 0, "no route under {prefix}");
        self
    }

    shortcuts!(get => GET, post => POST, put => PUT, delete => DELETE);

    /// The table, without the handlers.
    pub fn specs(&self) -> Vec<RouteSpec> {
        self.entries.iter().map(|(spec, _, _)| spec.clone()).collect()
    }

    /// Registers every route: one resource per path (in first-seen order), each route
    /// behind its access guard, and a JSON 405 for the methods the path lacks.
    pub fn register(self, cfg: &mut web::ServiceConfig) {
        let mut paths: Vec<Cow<'static, str>> = Vec::new();
        for (spec, _, _) in &self.entries {
            if !paths.contains(&spec.path) {
                paths.push(spec.path.clone());
            }
        }
        let mut entries: Vec<Option<(RouteSpec, Option<ScopeCheck>, actix_web::Route)>> =
            self.entries.into_iter().map(Some).collect();
        for path in paths {
            let mut allowed: Vec<String> = Vec::new();
            let mut resource = web::resource(path.as_ref());
            for slot in entries.iter_mut() {
                if slot.as_ref().is_some_and(|(spec, _, _)| spec.path == path) {
                    let (spec, check, route) = slot.take().expect("checked");
                    allowed.push(spec.method.to_string());
                    let access = spec.access;
                    let scope = spec.scoped.zip(check);
                    let (heavy, idempotent) = (spec.heavy, spec.idempotent);
                    resource = resource.route(route.wrap(from_fn(
                        move |req: ServiceRequest, next: Next<BoxBody>| {
                            enforce(access, scope, heavy, idempotent, req, next)
                        },
                    )));
                }
            }
            let allow = allowed.join(", ");
            resource = resource.default_service(web::to(move |req: HttpRequest| {
                let allow = allow.clone();
                async move { method_not_allowed(&req, &allow) }
            }));
            cfg.service(resource);
        }
    }
}

/// Authentication, then permission, then scope over the entity the path names, then a
/// heavy read's slot, before the handler (and so its body extractor) runs. The caller is left in the request's
/// extensions for the `CurrentUser` extractor. The handler still narrows by scope inside
/// its transaction; this early answer only keeps the body unread. On an idempotent route the
/// handler then runs inside `idempotency::around`.
async fn enforce(
    access: Access,
    scope: Option<(&'static str, ScopeCheck)>,
    heavy: Option<Heavy>,
    idempotent: bool,
    req: ServiceRequest,
    next: Next<BoxBody>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    // A call that may write holds the callers' cache off until its handler has finished
    // (auth::callers): its answer leaves after every later call sees what it changed.
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let _writing = state.as_ref().filter(|_| !req.method().is_safe()).map(|s| s.callers.writing());
    if access != Access::Public {
        let me = match CurrentUser::extract(req.request())
            .await
            .and_then(|me| access.check(&me).map(|()| me))
        {
            Ok(me) => me,
            Err(e) => return Ok(req.error_response(e)),
        };
        if let Some((param, check)) = scope {
            if let Some(id) = req.match_info().get(param).and_then(|v| v.parse::<i32>().ok()) {
                let decided = match &state {
                    Some(state) => match scope_of(&state.db, &me).await {
                        Ok(scope) if scope.is_all() => Ok(()),
                        Ok(scope) => check(&state.db, &scope, id).await,
                        Err(e) => Err(e),
                    },
                    None => Err(ApiError::Internal(
                        "the route table's scope check has no AppState".into(),
                    )),
                };
                if let Err(e) = decided {
                    return Ok(req.error_response(e));
                }
            }
        }
        let user = me.user.id;
        req.extensions_mut().insert(me);
        if let (true, Some(state)) = (idempotent, &state) {
            return crate::idempotency::around(&state.db, user, req, next).await;
        }
    }
    match (heavy, &state) {
        (Some(kind), Some(state)) => {
            let slot = match state.heavy.enter(kind).await {
                Ok(slot) => slot,
                Err(e) => return Ok(req.error_response(e)),
            };
            // The slot is given back with the body, when its last byte has left.
            let response = next.call(req).await?;
            Ok(response.map_body(|_, body| BoxBody::new(Holding::new(body, slot))))
        }
        _ => next.call(req).await,
    }
}

fn method_not_allowed(req: &HttpRequest, allow: &str) -> HttpResponse {
    let status = StatusCode::METHOD_NOT_ALLOWED;
    HttpResponse::build(status).insert_header((header::ALLOW, allow.to_owned())).json(ProblemBody {
        status: status.as_u16(),
        title: title_for(status).to_owned(),
        detail: format!("{} is not allowed on {}; use {allow}.", req.method(), req.path()),
        errors: Default::default(),
    })
}

/// Path segments that do not parse (an id beyond 32 bits, a word for a number) are a
/// 400 naming the segment.
pub fn path_error(err: actix_web::error::PathError, req: &HttpRequest) -> Error {
    let message = err.to_string();
    let name = req
        .match_info()
        .iter()
        .find(|(_, value)| message.contains(&format!("{value:?}")))
        .map(|(name, _)| name.to_owned())
        .unwrap_or_else(|| "path".to_owned());
    ApiError::bad_field(&name, "must be a whole number from 1 to 2147483647").into()
}

// ---- the OpenAPI side of the table ----

/// A JSON answer holding `schema`, for the operations built by hand (generic handlers).
pub fn json_response(
    description: &str,
    schema: impl Into<utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>>,
) -> utoipa::openapi::Response {
    use utoipa::openapi::{ContentBuilder, ResponseBuilder};
    ResponseBuilder::new()
        .description(description)
        .content("application/json", ContentBuilder::new().schema(Some(schema)).build())
        .build()
}

/// A problem answer (`ProblemBody`) described as `description`.
pub fn problem(description: &str) -> utoipa::openapi::Response {
    json_response(description, utoipa::openapi::Ref::from_schema_name("ProblemBody"))
}

/// Adds what the kernel answers on every route to its operation, so the document
/// lists every status a route can give: 401/403 from the guard, 400 from the path,
/// query and body extractors, 413 from the body limit; and says who may call it.
pub fn document(spec: &RouteSpec, op: &mut utoipa::openapi::path::Operation) {
    use utoipa::openapi::{path::ParameterIn, security::SecurityRequirement};
    let mut add = |status: &str, description: &str| {
        op.responses
            .responses
            .entry(status.to_owned())
            .or_insert_with(|| problem(description).into());
    };
    if spec.access != Access::Public {
        add("401", "No valid access token");
    }
    if matches!(spec.access, Access::Needs(_) | Access::AllOf(_) | Access::AnyOf(_)) {
        add("403", "Missing permission");
    }
    let params = op.parameters.as_deref().unwrap_or_default();
    if params
        .iter()
        .any(|p| p.parameter_in == ParameterIn::Path && p.name != "formType" && p.name != "fileId")
    {
        add("400", "A path id that is not a whole number of 32 bits");
    }
    if params.iter().any(|p| p.parameter_in == ParameterIn::Query) {
        add("400", "A query parameter that does not parse, naming it");
    }
    if op.request_body.is_some() {
        add("400", "A body that does not parse, naming the field");
        add("413", "A body over the size limit");
        add("422", "A rule the body breaks (one field against another, or against stored data), naming the field");
    }
    if spec.idempotent {
        for (status, description) in crate::idempotency::ANSWERS {
            add(status, description);
        }
        crate::idempotency::document(op);
    }
    if spec.access == Access::Public {
        op.security = None;
    } else if op.security.is_none() {
        op.security = Some(vec![SecurityRequirement::new("bearer", Vec::<String>::new())]);
    }
    let who = format!("Access: {}.", spec.access.describe());
    op.description = Some(match op.description.take() {
        Some(d) if !d.contains("Access: ") => format!("{d}\n\n{who}"),
        Some(d) => d,
        None => who,
    });
}

/// The control characters the kernel refuses in text ([`crate::web::is_forbidden_control`]),
/// as the body of a regex class.
const CONTROLS: &str = r"\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F";
const DAY: &str = r"(19[0-9]{2}|20[0-9]{2}|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])";

/// Writes the kernel's text rules into every string schema of the document, so it says
/// exactly what the server accepts: no control characters (`minLength` >= 1 also means
/// "not blank": fields are trimmed), dates and date-times in 1900..2100. Strings with an
/// enum or a pattern of their own keep it.
pub fn constrain_strings(node: &mut serde_json::Value) {
    use serde_json::Value;
    match node {
        Value::Object(map) => {
            // An optional query parameter sent empty means "no filter" (docs/api.md).
            if map.get("in").and_then(Value::as_str) == Some("query")
                && map.get("required") != Some(&Value::Bool(true))
            {
                map.insert("allowEmptyValue".into(), Value::Bool(true));
            }
            let is_string = match map.get("type") {
                Some(Value::String(t)) => t == "string",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "string"),
                _ => false,
            };
            let is_integer = matches!(map.get("type"), Some(Value::String(t)) if t == "integer")
                || matches!(map.get("type"), Some(Value::Array(ts)) if ts.iter().any(|t| t == "integer"));
            // A whole number's bounds are its width's unless the schema says more.
            let bounds = match map.get("format").and_then(Value::as_str) {
                Some("int32") => Some((i64::from(i32::MIN), i64::from(i32::MAX))),
                Some("int64") => Some((i64::MIN, i64::MAX)),
                _ => None,
            };
            if let (true, Some((low, high))) = (is_integer, bounds) {
                map.entry("minimum").or_insert(Value::from(low));
                map.entry("maximum").or_insert(Value::from(high));
            }
            if is_string && !map.contains_key("enum") && !map.contains_key("pattern") {
                let pattern = match map.get("format").and_then(Value::as_str) {
                    Some("date") => format!("^{DAY}$"),
                    Some("date-time") => format!(
                        r"^{DAY}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{{1,9}})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"
                    ),
                    Some("binary") => String::new(),
                    _ if map.get("minLength").and_then(Value::as_u64).unwrap_or(0) >= 1 => {
                        format!(r"^[^{CONTROLS}]*[^\s{CONTROLS}][^{CONTROLS}]*$")
                    }
                    _ => format!("^[^{CONTROLS}]*$"),
                };
                if !pattern.is_empty() {
                    map.insert("pattern".into(), Value::String(pattern));
                }
            }
            for value in map.values_mut() {
                constrain_strings(value);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(constrain_strings),
        _ => {}
    }
}

/// The operation of `method` in a path item.
pub fn operation_mut<'a>(
    item: &'a mut utoipa::openapi::PathItem,
    method: &Method,
) -> Option<&'a mut utoipa::openapi::path::Operation> {
    match *method {
        Method::GET => item.get.as_mut(),
        Method::POST => item.post.as_mut(),
        Method::PUT => item.put.as_mut(),
        Method::DELETE => item.delete.as_mut(),
        Method::PATCH => item.patch.as_mut(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_decisions() {
        use Permission as P;
        let granted: BTreeSet<_> = [P::LogRead].into();
        assert!(Access::Needs(P::LogRead).allows(&granted));
        assert!(!Access::AllOf(&[P::LogRead, P::RequestRead]).allows(&granted));
        assert!(Access::AnyOf(&[P::RequestRead, P::LogRead]).allows(&granted));
        assert!(Access::SignedIn.allows(&BTreeSet::new()));
        assert_eq!(
            Access::AnyOf(&[P::RequestCreate, P::RequestEdit]).minimal_grant(),
            [P::RequestCreate]
        );
        assert_eq!(
            Access::AllOf(&[P::LogRead, P::RequestRead]).minimal_grant(),
            [P::LogRead, P::RequestRead]
        );
        assert!(Access::Public.minimal_grant().is_empty());
    }
}
