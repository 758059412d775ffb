//! The paging every list shares: `limit` (default 50, at most 200), an opaque `cursor`
//! sealed for the caller and for one list only, and the next page's URL in
//! `Link: <…>; rel="next"` (the body stays a bare JSON array).

use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::Caller;
use super::respond::Page;
use super::{ApiError, ApiResult, FieldError};

/// Page size of lists: default 50, at most 200.
pub const DEFAULT_LIMIT: u32 = 50;
pub const MAX_LIMIT: u32 = 200;

/// Query of a list without filters: `limit` and `cursor`; unknown parameters are refused.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Page size, 1 to 200 (default 50).
    #[param(value_type = Option<u32>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Opaque cursor from the previous page's `Link` header.
    #[param(max_length = 512)]
    pub cursor: Option<String>,
}

/// `limit` checked: absent is [`DEFAULT_LIMIT`], else 1 to [`MAX_LIMIT`].
pub fn parse_limit(raw: Option<&str>) -> Result<u32, FieldError> {
    match raw.map(str::parse::<u32>) {
        None => Ok(DEFAULT_LIMIT),
        Some(Ok(l)) if (1..=MAX_LIMIT).contains(&l) => Ok(l),
        Some(_) => Err(FieldError::new(
            "limit",
            format!("must be an integer from 1 to {MAX_LIMIT}"),
        )),
    }
}

fn invalid_cursor() -> ApiError {
    pf_app::transactions::invalid_cursor().into()
}

/// One list's paging: its cursors' purpose (a cursor of one list is refused by another)
/// and its path.
pub struct Pager<'a> {
    pub caller: &'a Caller,
    pub purpose: &'static str,
    pub path: &'static str,
}

impl<'a> Pager<'a> {
    /// The paging of the list at `path`, its cursors sealed for `purpose` and the caller.
    pub fn new(caller: &'a Caller, purpose: &'static str, path: &'static str) -> Self {
        Self {
            caller,
            purpose,
            path,
        }
    }

    /// The page size and the position the cursor holds (`400` naming `limit` or `cursor`).
    pub fn start(
        &self,
        limit: Option<&str>,
        cursor: Option<&str>,
    ) -> ApiResult<(u32, Option<String>)> {
        let limit = parse_limit(limit).map_err(|e| ApiError::validation(vec![e]))?;
        let cursors = self.caller.state.tokens.cursors();
        let position = cursor
            .map(|c| {
                cursors
                    .open(self.purpose, self.caller.id, c)
                    .ok_or_else(invalid_cursor)
            })
            .transpose()?;
        Ok((limit, position))
    }

    /// The page, with the next page's URL (the same `filters` and `limit`, the position
    /// `next` sealed as its cursor) when more may follow.
    pub fn page<T>(
        &self,
        items: Vec<T>,
        next: Option<String>,
        limit: Option<&str>,
        filters: &[(&str, Option<&str>)],
    ) -> Page<T> {
        let next = next.map(|position| {
            let cursor =
                self.caller
                    .state
                    .tokens
                    .cursors()
                    .seal(self.purpose, self.caller.id, &position);
            let mut query = form_urlencoded::Serializer::new(String::new());
            for (name, value) in filters.iter().chain(&[("limit", limit)]) {
                if let Some(v) = value {
                    query.append_pair(name, v);
                }
            }
            query.append_pair("cursor", &cursor);
            format!("{}?{}", self.path, query.finish())
        });
        Page { items, next }
    }

    /// [`Pager::start`] and [`Pager::page`] of a list without filters.
    pub async fn list<T, U, F, Fut>(&self, q: &PageQuery, fetch: F) -> ApiResult<Page<U>>
    where
        F: FnOnce(i32, Option<String>) -> Fut,
        Fut: std::future::Future<Output = Result<(Vec<T>, Option<String>), pf_app::AppError>>,
        U: From<T>,
    {
        let (limit, position) = self.start(q.limit.as_deref(), q.cursor.as_deref())?;
        let (items, next) = fetch(limit as i32, position).await?;
        let items = items.into_iter().map(U::from).collect();
        Ok(self.page(items, next, q.limit.as_deref(), &[]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_default_and_are_bounded() {
        assert_eq!(parse_limit(None).unwrap(), 50);
        assert_eq!(parse_limit(Some("200")).unwrap(), 200);
        for bad in ["0", "201", "-1", "ten"] {
            assert_eq!(parse_limit(Some(bad)).unwrap_err().field, "limit", "{bad}");
        }
    }
}
