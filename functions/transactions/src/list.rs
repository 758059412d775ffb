//! The list's query parameters: parsed into a filter, and carried into the next page's
//! link.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::IntoParams;

use pf_app::TxnFilter;
use pf_domain::time::{format_date, parse_date};
use pf_domain::CategoryType;
use pf_http::{decimal, ApiError, FieldError};

use pf_http::ids::parse_id;

pub use pf_http::paging::{parse_limit, DEFAULT_LIMIT, MAX_LIMIT};

/// Query of `GET /api/transactions`; unknown parameters are refused.
#[derive(Debug, Deserialize, Serialize, IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// First date included (`YYYY-MM-DD`).
    #[param(format = Date, value_type = Option<String>, pattern = r"^(19[0-9]{2}|2[0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$")]
    pub from: Option<String>,
    /// Last date included (`YYYY-MM-DD`).
    #[param(format = Date, value_type = Option<String>, pattern = r"^(19[0-9]{2}|2[0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$")]
    pub to: Option<String>,
    #[param(value_type = Option<u64>, minimum = 1, maximum = 9007199254740991.0)]
    pub category_id: Option<String>,
    /// Only debits or only credits.
    #[serde(rename = "type")]
    #[param(value_type = Option<CategoryType>)]
    pub category_type: Option<String>,
    #[param(value_type = Option<u64>, minimum = 1, maximum = 9007199254740991.0)]
    pub provider_id: Option<String>,
    #[param(value_type = Option<u64>, minimum = 1, maximum = 9007199254740991.0)]
    pub tag_id: Option<String>,
    /// Smallest amount included.
    #[param(value_type = Option<String>, pattern = r"^[0-9]{1,13}(\.[0-9]{1,3})?$")]
    pub min_amount: Option<String>,
    /// Largest amount included.
    #[param(value_type = Option<String>, pattern = r"^[0-9]{1,13}(\.[0-9]{1,3})?$")]
    pub max_amount: Option<String>,
    /// Text the note contains (case-insensitive).
    #[param(max_length = 100)]
    pub q: Option<String>,
    /// Page size, 1 to 200 (default 50).
    #[param(value_type = Option<u32>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Opaque cursor from the previous page's `Link` header.
    #[param(max_length = 512)]
    pub cursor: Option<String>,
}

/// A parsed optional field, or none with its error kept under `field`.
fn or_keep<T>(
    errors: &mut Vec<FieldError>,
    field: &str,
    parsed: Result<Option<T>, String>,
) -> Option<T> {
    parsed.unwrap_or_else(|e| {
        errors.push(FieldError::new(field, e));
        None
    })
}

impl ListQuery {
    /// The checked filter and page size.
    pub fn parse(&self) -> Result<(TxnFilter, i32), ApiError> {
        let mut errors = Vec::new();
        let date = |v: &Option<String>| v.as_deref().map(parse_date).transpose();
        let id = |v: &Option<String>| {
            v.as_deref()
                .map(|s| parse_id(&Value::String(s.into())))
                .transpose()
        };
        let amount = |v: &Option<String>| {
            v.as_deref()
                .map(|s| {
                    decimal::parse_plain(s, false)
                        .ok_or_else(|| "must be a decimal number like 12.50".to_string())
                })
                .transpose()
        };
        let category_type = self
            .category_type
            .as_deref()
            .map(|t| CategoryType::parse(t).ok_or_else(|| "must be DEBIT or CREDIT".to_string()));
        let errs = &mut errors;
        // `from` after `to` is an empty range: it lists nothing rather than failing.
        let mut filter = TxnFilter {
            from: or_keep(errs, "from", date(&self.from)).map(format_date),
            to: or_keep(errs, "to", date(&self.to)).map(format_date),
            category_id: or_keep(errs, "categoryId", id(&self.category_id)),
            provider_id: or_keep(errs, "providerId", id(&self.provider_id)),
            tag_id: or_keep(errs, "tagId", id(&self.tag_id)),
            category_type: or_keep(errs, "type", category_type.transpose()),
            min_amount: or_keep(errs, "minAmount", amount(&self.min_amount)),
            max_amount: or_keep(errs, "maxAmount", amount(&self.max_amount)),
            q: None,
        };
        let mut keep = |field: &str, e: String| errors.push(FieldError::new(field, e));
        match &self.q {
            Some(q) if q.chars().count() > 100 => {
                keep("q", "must be at most 100 characters".into())
            }
            Some(q) if !q.trim().is_empty() => filter.q = Some(q.trim().to_owned()),
            _ => {}
        }
        let limit = parse_limit(self.limit.as_deref()).unwrap_or_else(|e| {
            keep(&e.field, e.message);
            DEFAULT_LIMIT
        });
        if self.cursor.as_ref().is_some_and(|c| c.len() > 512) {
            keep("cursor", "is not a cursor this service issued".into());
        }
        if errors.is_empty() {
            Ok((filter, limit as i32))
        } else {
            Err(ApiError::validation(errors))
        }
    }

    /// The query string of the next page: the same filters and limit, the new cursor.
    pub fn next_page(&self, cursor: &str) -> String {
        let mut out = form_urlencoded::Serializer::new(String::new());
        let pairs = [
            ("from", &self.from),
            ("to", &self.to),
            ("categoryId", &self.category_id),
            ("type", &self.category_type),
            ("providerId", &self.provider_id),
            ("tagId", &self.tag_id),
            ("minAmount", &self.min_amount),
            ("maxAmount", &self.max_amount),
            ("q", &self.q),
            ("limit", &self.limit),
        ];
        for (name, value) in pairs {
            if let Some(v) = value {
                out.append_pair(name, v);
            }
        }
        out.append_pair("cursor", cursor);
        out.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_page_keeps_filters_and_encodes_text() {
        let q: ListQuery =
            serde_json::from_value(serde_json::json!({"q": "café & co", "limit": "10"})).unwrap();
        assert_eq!(q.next_page("abc"), "q=caf%C3%A9+%26+co&limit=10&cursor=abc");
    }
}
