//! Categories: the global ones (shared by everyone, only admins create or edit them,
//! their type never changes and they are never deleted, because any user's transactions
//! may use them) and each user's own (bounded in number, their type fixed and deletion
//! refused while transactions use them).

mod fields;

use super::named::Named;
use super::users::require_admin;
use super::{AppError, AppResult, IfMatch};
pub use fields::{parse_fields, CategoryFields};
use pf_domain::time::Timestamp;
use pf_domain::{Category, CategoryType};
use pf_store::{with_fresh_id, ConflictKind, Store, StoreError};

fn store_error(store: &Store, e: StoreError) -> AppError {
    match e {
        StoreError::NotFound => AppError::not_found("category"),
        StoreError::Conflict(ConflictKind::Changed) => super::stale(),
        StoreError::Conflict(ConflictKind::InUse) => AppError::Conflict(
            "transactions use this category: its type cannot change and it cannot be deleted"
                .into(),
        ),
        StoreError::Conflict(ConflictKind::NameTaken) => name_taken(),
        StoreError::Conflict(ConflictKind::LimitReached) => AppError::Conflict(format!(
            "you have reached the limit of {} own categories",
            store.limits().categories
        )),
        e => AppError::Store(e),
    }
}

fn name_taken() -> AppError {
    AppError::Conflict("you already have a category of this type with this name".into())
}

/// Refuses the name of `fields` when one of the user's own categories of its type other
/// than `except` has it (case-insensitively). The reservations written with each category
/// refuse it too, also under a race; this read covers the categories stored before them.
async fn refuse_stored_name(
    store: &Store,
    user_id: u64,
    fields: &CategoryFields,
    except: Option<u64>,
) -> AppResult<()> {
    let folded = fields.name.to_lowercase();
    let own = store.list_categories(user_id, false).await?;
    let taken = own.iter().any(|c| {
        Some(c.id) != except
            && c.category_type == fields.category_type
            && c.name.trim().to_lowercase() == folded
    });
    if taken {
        return Err(name_taken());
    }
    Ok(())
}

fn new_record(id: u64, owner: Option<u64>, fields: &CategoryFields, now: Timestamp) -> Category {
    Category {
        id,
        owner,
        name: fields.name.clone(),
        icon: fields.icon.clone(),
        color: fields.color.clone(),
        category_type: fields.category_type,
        use_count: 0,
        version: 1,
        created_at: now,
        updated_at: now,
    }
}

fn create_error(store: &Store, e: StoreError) -> AppError {
    match e {
        StoreError::NotFound => super::users::account_gone(),
        e => store_error(store, e),
    }
}

/// Creates an own category, or (admins only) a global one. An own one's name is unique
/// per type among the user's own (`409`).
pub async fn create(
    store: &Store,
    user_id: u64,
    fields: CategoryFields,
    global: bool,
) -> AppResult<Category> {
    if global {
        require_admin(store, user_id).await?;
    } else {
        refuse_stored_name(store, user_id, &fields, None).await?;
    }
    let now = Timestamp::now();
    let owner = (!global).then_some(user_id);
    with_fresh_id(|id| {
        let record = new_record(id, owner, &fields, now);
        async move {
            store.create_category(user_id, &record).await?;
            Ok(record)
        }
    })
    .await
    .map_err(|e| create_error(store, e))
}

/// The user's own category of that name and type, created (`true`) unless a concurrent
/// create (another import) reserved the name first: then the winner's (`false`). The
/// caller read the user's categories just before and found none of the name (so none
/// stored before the reservations has it).
pub async fn create_or_find(
    store: &Store,
    user_id: u64,
    fields: CategoryFields,
) -> AppResult<(Category, bool)> {
    let now = Timestamp::now();
    with_fresh_id(|id| {
        let record = new_record(id, Some(user_id), &fields, now);
        async move {
            match store.create_category(user_id, &record).await {
                Ok(()) => Ok((record, true)),
                Err(e) if e.is_conflict(ConflictKind::NameTaken) => {
                    let (kind, name) = (record.category_type, &record.name);
                    match store.own_category_named(user_id, kind, name).await? {
                        Some(winner) => Ok((winner, false)),
                        // Deleted or renamed meanwhile: the name is free again.
                        None => Err(StoreError::Conflict(ConflictKind::Contention)),
                    }
                }
                Err(e) => Err(e),
            }
        }
    })
    .await
    .map_err(|e| create_error(store, e))
}

/// A global category or one of the user's own.
pub async fn get(store: &Store, user_id: u64, id: u64) -> AppResult<Category> {
    store
        .get_category(user_id, id)
        .await?
        .ok_or_else(|| AppError::not_found("category"))
}

/// Replaces name, icon, colour and type (a global category: admins only, type fixed).
pub async fn update(
    store: &Store,
    user_id: u64,
    id: u64,
    fields: CategoryFields,
    expected: Option<IfMatch>,
) -> AppResult<Category> {
    let current = get(store, user_id, id).await?;
    if current.is_global() {
        require_admin(store, user_id).await?;
        if fields.category_type != current.category_type {
            return Err(AppError::Conflict(
                "the type of a global category cannot change: transactions may use it".into(),
            ));
        }
    }
    let retyped = fields.category_type != current.category_type;
    // Read before the look for budgets and rules: the write holds only while no budget or
    // rule has named the category since (`store::categories::refs`).
    let ref_mark = match retyped && !current.is_global() {
        true => Some(store.category_ref_mark(user_id, id).await?),
        false => None,
    };
    if retyped {
        refuse_retype(store, user_id, id).await?;
    }
    let renamed = current.name.to_lowercase() != fields.name.to_lowercase()
        || current.category_type != fields.category_type;
    if !current.is_global() && renamed {
        refuse_stored_name(store, user_id, &fields, Some(id)).await?;
    }
    let next = Category {
        name: fields.name,
        icon: fields.icon,
        color: fields.color,
        category_type: fields.category_type,
        updated_at: Timestamp::now(),
        version: current.version + 1,
        ..current.clone()
    };
    // At the version read: the answer's version is the one stored.
    let keep = super::at_read_version(expected, current.version)?;
    let written = store.update_category(&current, &next, keep, ref_mark).await;
    if let (Err(StoreError::Conflict(ConflictKind::InUse)), true) = (&written, retyped) {
        // A budget or rule that named it meanwhile: refused as if it had been there.
        refuse_retype(store, user_id, id).await?;
    }
    written.map_err(|e| super::moved_on("category", expected, store_error(store, e)))?;
    Ok(next)
}

/// `409` when a type change would leave a rule, schedule or budget on a category of
/// another type than it was made for.
async fn refuse_retype(store: &Store, user_id: u64, id: u64) -> AppResult<()> {
    // A rule that sets it, or a schedule, would then flip the sign of what it books.
    super::named::refuse_if_named(store, user_id, Named::Category(id)).await?;
    // Budgets are for DEBIT categories: a CREDIT one's would never count its spending.
    if !store.category_refs(user_id, id).await?.is_empty() {
        return Err(AppError::Conflict(
            "the category has budgets, which are for DEBIT categories: delete them first".into(),
        ));
    }
    Ok(())
}

/// Deletes one of the user's own categories unless transactions use it, then its (zero)
/// monthly totals and its budgets. Global categories are never deleted, so nothing of
/// theirs (totals, budgets in any user's partition) is ever left behind.
pub async fn delete(
    store: &Store,
    user_id: u64,
    id: u64,
    expected: Option<IfMatch>,
) -> AppResult<()> {
    let current = get(store, user_id, id).await?;
    if current.is_global() {
        require_admin(store, user_id).await?;
        return Err(AppError::Conflict(
            "global categories cannot be deleted: any user's transactions may use them".into(),
        ));
    }
    let keep = super::version_to_keep(expected, current.version)?;
    super::named::refuse_if_named(store, user_id, Named::Category(id)).await?;
    super::named::refuse_if_a_default(store, user_id, id).await?;
    store
        .delete_own_category(user_id, &current, keep)
        .await
        .map_err(|e| store_error(store, e))?;
    store.purge_category_refs(user_id, id).await?;
    Ok(())
}

/// One page of [`Store::list_categories_page`]: the global categories, then the user's
/// own; a position that is not one the store wrote is an invalid cursor.
pub async fn list_page(
    store: &Store,
    user_id: u64,
    wanted: Option<CategoryType>,
    limit: i32,
    position: Option<&str>,
) -> AppResult<(Vec<Category>, Option<String>)> {
    store
        .list_categories_page(user_id, wanted, limit, position)
        .await
        .map_err(super::page_error)
}

/// The global categories, then the user's own, each by id; optionally of one type.
pub async fn list(
    store: &Store,
    user_id: u64,
    wanted: Option<CategoryType>,
) -> AppResult<Vec<Category>> {
    let (global, own) = tokio::try_join!(
        store.list_categories(user_id, true),
        store.list_categories(user_id, false),
    )?;
    Ok(global
        .into_iter()
        .chain(own)
        .filter(|c| wanted.is_none_or(|t| c.category_type == t))
        .collect())
}
