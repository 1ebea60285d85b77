//! Request kernel shared by every area: a JSON body extractor whose errors name the
//! field, a query extractor that accepts SPEC's PascalCase names case-insensitively,
//! and the paging contract of DESIGN §3.

use std::{future::Future, pin::Pin};

use actix_web::{dev::Payload, web, FromRequest, HttpRequest};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, FieldErrors};

/// Largest accepted JSON body; uploads do not travel through JSON.
const MAX_JSON_BYTES: usize = 2 * 1024 * 1024;

/// `web::Json` with errors that say which field is wrong (`errors: {"roles[0]": [...]}`).
pub struct Json<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let is_json = req
            .headers()
            .get(actix_web::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json") || v.contains("+json"));
        let body = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            if !is_json {
                return Err(ApiError::bad_request("The body must be JSON (Content-Type: application/json)."));
            }
            let bytes = body.await.map_err(|e| ApiError::bad_request(format!("Unreadable body: {e}")))?;
            if bytes.len() > MAX_JSON_BYTES {
                return Err(ApiError::bad_request("The body is too large."));
            }
            parse_json(&bytes).map(Json)
        })
    }
}

/// Parses JSON and names the failing field path in the error.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        let message = clean_serde_message(&inner.to_string());
        match missing_field(&message) {
            Some(field) => ApiError::bad_field(&join_path(&path, field), "is required"),
            None if path == "." => ApiError::bad_request(format!("Invalid JSON: {message}")),
            None => ApiError::bad_field(&path, message),
        }
    })
}

fn join_path(path: &str, field: &str) -> String {
    if path == "." { field.to_owned() } else { format!("{path}.{field}") }
}

/// serde's messages end with " at line 1 column 9": the field name already says where.
fn clean_serde_message(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.strip_suffix('`')
}

/// Query string extractor: keys are matched case-insensitively (the struct's fields
/// must be declared lower case via `#[serde(rename_all = "lowercase")]`); list fields
/// take repeated keys and comma-separated values through [`list`].
pub struct Query<T>(pub T);

impl<T: DeserializeOwned> FromRequest for Query<T> {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(parse_query(req.query_string()).map(Query))
    }
}

pub fn parse_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let pairs: Vec<(String, String)> = serde_html_form::from_str(query)
        .map_err(|e| ApiError::bad_request(format!("Invalid query string: {e}")))?;
    let mut lowered = Vec::with_capacity(pairs.len());
    for (key, value) in pairs {
        // Empty values mean "no filter", as HTML forms and the UI send them.
        if !value.trim().is_empty() {
            lowered.push((key.to_ascii_lowercase(), value));
        }
    }
    let encoded = serde_html_form::to_string(&lowered)
        .map_err(|e| ApiError::bad_request(format!("Invalid query string: {e}")))?;
    serde_html_form::from_str(&encoded).map_err(|e| {
        let message = e.to_string();
        match missing_field(&message) {
            Some(field) => ApiError::bad_field(field, "is required"),
            None => ApiError::bad_request(format!("Invalid query parameter: {message}")),
        }
    })
}

/// For list query fields (`#[serde(default, deserialize_with = "crate::web::list")]`):
/// repeated keys and comma-separated values, so `Ids=1&Ids=2` and `Ids=1,2` agree.
/// Only list fields split on commas: a name filter may contain one.
pub fn list<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    let raw = Vec::<String>::deserialize(deserializer)?;
    raw.iter()
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| part.parse().map_err(|e| serde::de::Error::custom(format!("'{part}': {e}"))))
        .collect()
}

pub const DEFAULT_PAGE_SIZE: u64 = 25;
pub const MAX_PAGE_SIZE: u64 = 500;

/// `Page` (from 1) and `Size` (1..=500), both optional.
#[derive(Debug, Clone, Copy, Default, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Page number, starting at 1.
    #[param(rename = "Page")]
    pub page: Option<i64>,
    /// Page size, 1 to 500 (default 25).
    #[param(rename = "Size")]
    pub size: Option<i64>,
}

/// A validated page request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    pub page: u64,
    pub size: u64,
}

impl PageQuery {
    pub fn paging(self) -> Result<Paging, ApiError> {
        let mut errors = FieldErrors::new();
        let page = self.page.unwrap_or(1);
        let size = self.size.unwrap_or(DEFAULT_PAGE_SIZE as i64);
        if page < 1 {
            errors.entry("Page".into()).or_default().push("must be 1 or more".into());
        }
        if !(1..=MAX_PAGE_SIZE as i64).contains(&size) {
            errors.entry("Size".into()).or_default().push(format!("must be between 1 and {MAX_PAGE_SIZE}"));
        }
        if !errors.is_empty() {
            return Err(ApiError::validation(errors));
        }
        Ok(Paging { page: page as u64, size: size as u64 })
    }
}

impl Paging {
    pub fn offset(self) -> u64 {
        (self.page - 1) * self.size
    }

    /// Matches a list counts before it reports "at least": [`COUNT_BOUND`], or up to the
    /// end of the requested page when that lies further, so the page is inside the count.
    pub fn count_limit(self) -> u64 {
        COUNT_BOUND.max(self.offset() + self.size)
    }
}

/// The paged list shape of DESIGN §3.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Page<T> {
    pub items: Vec<T>,
    pub page: u64,
    pub size: u64,
    /// Matching items; a lower bound when `totalCountIsExact` is false.
    pub total_count: u64,
    /// False when the list stopped counting: at least `totalCount` items match (shown as
    /// "10,000+"). Lists count exactly up to [`COUNT_BOUND`] items, or to the end of the
    /// requested page when that lies further ([`Paging::count_limit`]).
    #[serde(default = "exact")]
    pub total_count_is_exact: bool,
}

fn exact() -> bool {
    true
}

impl<T> Page<T> {
    pub fn new(items: Vec<T>, paging: Paging, total_count: u64) -> Self {
        Self { items, page: paging.page, size: paging.size, total_count, total_count_is_exact: true }
    }

    /// With a count that may have stopped at its bound.
    pub fn counted(items: Vec<T>, paging: Paging, count: Count) -> Self {
        Self { items, page: paging.page, size: paging.size, total_count: count.total, total_count_is_exact: count.exact }
    }
}

/// How far past the requested page a list counts its matches. Counting every match of a
/// broad filter at a million rows costs more than the page itself; nobody pages through
/// ten thousand rows, they narrow the filter.
pub const COUNT_BOUND: u64 = 10_000;

/// A number of matches, exact or "at least".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    pub total: u64,
    pub exact: bool,
}

impl Count {
    pub fn exact(total: u64) -> Self {
        Self { total, exact: true }
    }

    /// From a count of at most `limit + 1` rows ([`Paging::count_limit`]).
    pub fn from_limited(found: u64, limit: u64) -> Self {
        if found > limit { Self { total: limit, exact: false } } else { Self::exact(found) }
    }
}

/// `SELECT COUNT(*) FROM (SELECT 1 FROM … LIMIT limit + 1)`: stops reading at the bound.
pub async fn count_at_most<E: sea_orm::EntityTrait>(
    db: &impl sea_orm::ConnectionTrait,
    select: sea_orm::Select<E>,
    limit: u64,
) -> Result<Count, ApiError> {
    use sea_orm::{
        sea_query::{Alias, Expr, ExprTrait, Query},
        QuerySelect, QueryTrait,
    };
    let inner = select.select_only().expr(Expr::val(1)).limit(limit + 1).into_query();
    let count = Query::select().expr_as(Expr::val(1).count(), Alias::new("n")).from_subquery(inner, Alias::new("bounded")).to_owned();
    let found: i64 = match db.query_one(&count).await? {
        Some(row) => row.try_get("", "n")?,
        None => 0,
    };
    Ok(Count::from_limited(u64::try_from(found).unwrap_or(0), limit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "lowercase")]
    struct Filters {
        email: Option<String>,
        #[serde(default, deserialize_with = "list")]
        roles: Vec<String>,
        #[serde(default, deserialize_with = "list")]
        ids: Vec<i32>,
        page: Option<i64>,
    }

    #[test]
    fn query_keys_are_case_insensitive_and_lists_split() {
        let f: Filters = parse_query("Email=a%40b.org&ROLES=Administrator,Coordinator&page=2").unwrap();
        assert_eq!(f.email.as_deref(), Some("a@b.org"));
        assert_eq!(f.roles, ["Administrator", "Coordinator"]);
        assert_eq!(f.page, Some(2));
        let f: Filters = parse_query("Roles=A&Roles=B&Email=").unwrap();
        assert_eq!(f.roles, ["A", "B"]);
        assert_eq!(f.email, None);
        let f: Filters = parse_query("IDS=1,2&ids=3").unwrap();
        assert_eq!(f.ids, [1, 2, 3]);
        let f: Filters = parse_query("ids=7").unwrap();
        assert_eq!(f.ids, [7]);
    }

    #[test]
    fn only_list_fields_split_on_commas() {
        let f: Filters = parse_query("email=Lopez,%20Ana").unwrap();
        assert_eq!(f.email.as_deref(), Some("Lopez, Ana"));
        assert!(parse_query::<Filters>("ids=1,x").is_err());
    }

    #[test]
    fn bad_query_values_are_400() {
        let err = parse_query::<Filters>("Page=two").unwrap_err();
        assert!(matches!(err, ApiError::BadRequest { .. }));
    }

    #[test]
    fn paging_defaults_and_bounds() {
        assert_eq!(PageQuery::default().paging().unwrap(), Paging { page: 1, size: 25 });
        for (page, size) in [(Some(0), None), (None, Some(0)), (None, Some(501)), (Some(-3), Some(10))] {
            let err = PageQuery { page, size }.paging().unwrap_err();
            assert!(matches!(err, ApiError::BadRequest { .. }), "{page:?} {size:?}");
        }
        assert_eq!(PageQuery { page: Some(3), size: Some(500) }.paging().unwrap().offset(), 1000);
    }

    #[test]
    fn counts_stop_at_the_bound_past_the_page() {
        let first = Paging { page: 1, size: 25 };
        assert_eq!(first.count_limit(), COUNT_BOUND);
        assert_eq!(Paging { page: 501, size: 25 }.count_limit(), 12_525);
        assert_eq!(Count::from_limited(12, 100), Count { total: 12, exact: true });
        assert_eq!(Count::from_limited(100, 100), Count { total: 100, exact: true });
        assert_eq!(Count::from_limited(101, 100), Count { total: 100, exact: false });
        let page = Page::counted(vec![1], first, Count { total: 10_000, exact: false });
        let json = serde_json::to_value(&page).unwrap();
        assert_eq!(json["totalCount"], 10_000);
        assert_eq!(json["totalCountIsExact"], false);
        assert_eq!(serde_json::to_value(Page::new(vec![1], first, 1)).unwrap()["totalCountIsExact"], true);
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Body {
        email: String,
        roles: Vec<String>,
    }

    #[test]
    fn json_errors_name_the_field() {
        match parse_json::<Body>(br#"{"roles": []}"#).unwrap_err() {
            ApiError::BadRequest { errors, .. } => assert!(errors.contains_key("email")),
            other => panic!("{other:?}"),
        }
        match parse_json::<Body>(br#"{"email": "x", "roles": [1]}"#).unwrap_err() {
            ApiError::BadRequest { errors, .. } => assert!(errors.contains_key("roles[0]"), "{errors:?}"),
            other => panic!("{other:?}"),
        }
        assert!(parse_json::<Body>(b"{not json").is_err());
    }
}
