//! Tags and providers differ only in names (and a provider's default category), so one
//! implementation serves both: each function's body type implements [`LabelInput`], and
//! its documented handlers (`functions/tags`, `functions/providers`) call the generic
//! ones here, which call [`app::labels`](pf_app::labels) with the body's
//! [`LabelKind`](pf_domain::LabelKind).

use axum::http::StatusCode;
use pf_app::{labels, IfMatch};
use pf_domain::{Label, LabelKind};

use crate::auth::Caller;
use crate::paging::{PageQuery, Pager};
use crate::respond::{Created, Page, Versioned};
use crate::ApiResult;

/// The body of a create or an update of one kind of label, and what its handlers need
/// to know of the kind.
pub trait LabelInput {
    /// The kind of label.
    const KIND: LabelKind;
    /// The collection (`/api/tags`): where a new one is and where the list pages.
    const PATH: &'static str;
    /// The list's cursor purpose and the API's group (`tags`).
    const GROUP: &'static str;
    /// The answer: `crate::dto::labels`'s (the sync and the export speak it too).
    type Output: From<Label>;

    /// The name the body gives.
    fn name(&self) -> &str;

    /// The default category change the body asks for (`None` keeps, `Some(None)` clears);
    /// a kind without one asks for none.
    fn default_category(&self) -> ApiResult<Option<Option<u64>>> {
        Ok(None)
    }
}

/// One page of the caller's, by id (creation order).
pub async fn list<L: LabelInput>(me: &Caller, q: &PageQuery) -> ApiResult<Page<L::Output>> {
    let pager = Pager::new(me, L::GROUP, L::PATH);
    let (store, id) = (me.store(), me.id);
    pager
        .list(q, |limit, after| async move {
            labels::list_page(store, id, L::KIND, limit, after.as_deref()).await
        })
        .await
}

/// Creates one (`201` at `L::PATH/<id>`).
pub async fn create<L: LabelInput>(me: &Caller, body: &L) -> ApiResult<Created<L::Output>> {
    let default_category = body.default_category()?.flatten();
    let record = labels::create(me.store(), me.id, L::KIND, body.name(), default_category).await?;
    let (id, version) = (record.id, record.version);
    Ok(Created::item(L::PATH, id, version, record.into()))
}

/// One of the caller's own.
pub async fn read<L: LabelInput>(me: &Caller, id: u64) -> ApiResult<Versioned<L::Output>> {
    let record = labels::get(me.store(), me.id, L::KIND, id).await?;
    Ok(versioned(record))
}

/// Renames one of the caller's own (and changes its default category as the body asks).
pub async fn update<L: LabelInput>(
    me: &Caller,
    id: u64,
    body: &L,
    expected: Option<IfMatch>,
) -> ApiResult<Versioned<L::Output>> {
    let patch = body.default_category()?;
    let (store, name) = (me.store(), body.name());
    let record = labels::rename(store, me.id, L::KIND, id, name, patch, expected).await?;
    Ok(versioned(record))
}

/// Deletes one of the caller's own (`204`).
pub async fn remove<L: LabelInput>(
    me: &Caller,
    id: u64,
    expected: Option<IfMatch>,
) -> ApiResult<StatusCode> {
    labels::delete(me.store(), me.id, L::KIND, id, expected).await?;
    Ok(StatusCode::NO_CONTENT)
}

fn versioned<T: From<Label>>(record: Label) -> Versioned<T> {
    Versioned::new(record.version, record.into())
}
