//! Checking a body field by field, so that a request reports every broken field at once:
//! the parsers the transaction-like bodies (transactions, schedules) share.

use rust_decimal::Decimal;
use serde_json::Value;

use super::ids::{parse_optional_id, parse_tag_ids};
use super::{decimal, ApiError, FieldError};
use pf_app::transactions::check_amount;

/// The errors of a body's fields, gathered while each is parsed on its own.
#[derive(Debug, Default)]
pub struct FieldCheck {
    errors: Vec<FieldError>,
}

impl FieldCheck {
    /// The parsed value, or `None` with its error kept under `field`.
    pub fn field<T>(&mut self, field: &str, parsed: Result<T, String>) -> Option<T> {
        parsed
            .map_err(|e| self.errors.push(FieldError::new(field, e)))
            .ok()
    }

    /// Keeps an error of `field`.
    pub fn refuse(&mut self, field: &str, message: impl Into<String>) {
        self.errors.push(FieldError::new(field, message));
    }

    /// The provider (`providerId`) and tags (`tagIds`) a transaction-like body names.
    pub fn references(
        &mut self,
        provider_id: Option<&Value>,
        tag_ids: Option<&[Value]>,
    ) -> Option<(Option<u64>, Vec<u64>)> {
        let provider_id = self.field("providerId", parse_optional_id(provider_id));
        let tag_ids = self.field("tagIds", parse_tag_ids(tag_ids));
        Some((provider_id?, tag_ids?))
    }

    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// The `400` naming every field at fault.
    pub fn into_error(self) -> ApiError {
        ApiError::validation(self.errors)
    }
}

/// A transaction's amount given as a JSON number or a decimal string: positive, within the
/// bounds of an amount.
pub fn parse_amount(value: &Value) -> Result<Decimal, String> {
    check_amount(decimal::from_json(value, false).ok_or("must be a decimal number")?)
}
