//! The category of a create that names none: the user's rules choose one (one `Query` for
//! the rules), else the provider's default category (one read of the provider), else it
//! stays without one and `build_record` refuses it (400 naming `categoryId`). Whichever
//! chooses, the category sets the transaction's type.

use super::TransactionDraft;
use crate::app::AppResult;
use crate::domain::{CategorySource, LabelKind};
use crate::store::Store;

pub(super) async fn category(
    store: &Store,
    user_id: u64,
    input: &mut TransactionDraft,
) -> AppResult<()> {
    crate::app::rules::categorize(store, user_id, input).await?;
    if let (None, Some(provider)) = (input.category_id, input.provider_id) {
        let found = store
            .get_label(user_id, LabelKind::Provider, provider)
            .await?;
        if let Some(default) = found.and_then(|p| p.default_category_id) {
            input.category_id = Some(default);
            input.category_source = CategorySource::Provider;
        }
    }
    Ok(())
}
