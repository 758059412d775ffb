//! What every change of one versioned item starts from (`PUT` or `DELETE
//! <collection>/{id}` under `If-Match`): the caller, the id in the path and the version
//! the change is based on, extracted in that order, so that a bad token is refused before
//! a bad id, and a bad id before a bad `If-Match`.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use pf_app::IfMatch;

use crate::auth::Caller;
use crate::extract::{IfMatchHeader, Path};
use crate::{ApiError, AppState};

/// The caller, the item's id and `If-Match` of a replacement or a delete (its
/// documentation: `params(("id" = inline(docs::Id), Path), docs::IfMatch)`).
pub struct ItemChange {
    pub me: Caller,
    pub id: u64,
    /// `None`: the change is unconditional.
    pub expected: Option<IfMatch>,
}

impl FromRequestParts<AppState> for ItemChange {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let me = Caller::from_request_parts(parts, state).await?;
        let Path(id) = Path::<u64>::from_request_parts(parts, state).await?;
        let IfMatchHeader(expected) = IfMatchHeader::from_request_parts(parts, state).await?;
        Ok(Self { me, id, expected })
    }
}
