//! Tags and providers differ only in names, so one implementation serves both:
//! [`label_api!`](crate::label_api) generates each function's typed, documented handlers,
//! which call [`app::labels`](pf_app::labels) with their [`LabelKind`](pf_domain::LabelKind).

/// Generates the typed, documented CRUD handlers and `api()` of one kind of label.
///
/// `label_api!(Tag, "/api/tags", "/api/tags/{id}", "tagName", "tags", TagInput, Tag)`, where
/// `Tag` is the [`LabelKind`](pf_domain::LabelKind) and `tagName` its `field()`.
///
/// A kind with more fields than its name lists them, with how a body gives the default
/// category patch (`None` keeps, `Some(None)` clears):
/// `..., Input { fields } |body| patch, Output)`, where `patch` is an
/// `ApiResult<Option<Option<u64>>>`. The output is [`label_output!`](crate::label_output)'s,
/// in `crate::dto::labels`.
#[macro_export]
macro_rules! label_api {
    ($kind:ident, $path:tt, $item_path:tt, $field:tt, $tag:tt, $input:ident, $output:ident) => {
        $crate::label_api!($kind, $path, $item_path, $field, $tag,
            $input {} |_body| Ok(None), $output);
    };
    ($kind:ident, $path:tt, $item_path:tt, $field:tt, $tag:tt,
     $input:ident { $($in_extra:tt)* } |$b:ident| $patch:expr,
     $output:ident) => {
        pub use $crate::dto::labels::$output;
        use $crate::__pf::app::labels;
        use $crate::__pf::domain::{Label, LabelKind};
        use $crate::auth::Caller;
        use $crate::extract::Query;
        use $crate::paging::{PageQuery, Pager};
        use $crate::respond::{Created, Page, Versioned};
        use $crate::{docs, ApiResult, AppState};

        const KIND: LabelKind = LabelKind::$kind;

        /// The fields a create or update accepts.
        #[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $input {
            #[serde(rename = $field)]
            #[schema(value_type = docs::Name)]
            pub name: String,
            $($in_extra)*
        }

        impl $input {
            /// The default category change the body asks for.
            fn default_category(&self) -> ApiResult<Option<Option<u64>>> {
                let $b = self;
                $patch
            }
        }

        /// The caller's own, by id (creation order), one page at a time.
        #[utoipa::path(get, path = $path, params(PageQuery),
            responses(
                (status = 200, description = "One page of the caller's", body = Vec<$output>, headers(
                    ("Link" = String, description = "`<url>; rel=\"next\"` when another page may follow"))),
                docs::ListErrors,
            ))]
        async fn list(me: Caller, Query(q): Query<PageQuery>) -> ApiResult<Page<$output>> {
            let pager = Pager::new(&me, $tag, $path);
            let (store, id) = (me.store(), me.id);
            pager
                .list(&q, |limit, after| async move {
                    labels::list_page(store, id, KIND, limit, after.as_deref()).await
                })
                .await
        }

        $crate::item_create!(
            /// Creates one; names are unique per user, ignoring case. At most as many as the
            /// cap on this kind (`409` naming it beyond).
            $path, $input => $output, "URL of the new item",
                responses: [(status = 404, response = docs::NotFound)];
            |me, body: $input| {
                let default_category = body.default_category()?.flatten();
                let record = labels::create(me.store(), me.id, KIND, &body.name, default_category).await?;
                Created::item($path, record.id, record.version, $output::from(record))
            }
        );

        $crate::item_read!(
            /// One of the caller's own.
            $item_path, "Found" => $output;
            |me, id| versioned(labels::get(me.store(), me.id, KIND, id).await?)
        );

        fn versioned(record: Label) -> Versioned<$output> {
            Versioned::new(record.version, record.into())
        }

        $crate::item_update!(
            /// Changes one of the caller's own.
            $item_path, $input => $output, "Changed";
            |me, id, body: $input, expected| {
                let patch = body.default_category()?;
                versioned(labels::rename(me.store(), me.id, KIND, id, &body.name, patch, expected).await?)
            }
        );

        $crate::item_delete!(
            /// Deletes one of the caller's own, unless transactions or a rule use it.
            $item_path, "Deleted";
            |me, id, expected| {
                labels::delete(me.store(), me.id, KIND, id, expected).await?;
                axum::http::StatusCode::NO_CONTENT
            }
        );

        /// The routes with their documentation: a route cannot exist without it.
        pub fn api() -> utoipa_axum::router::OpenApiRouter<AppState> {
            let routes = utoipa_axum::router::OpenApiRouter::new()
                .routes(utoipa_axum::routes!(list, create))
                .routes(utoipa_axum::routes!(read, update, remove));
            docs::protected($tag, routes)
        }
    };
}

/// The answer of one kind of label (`crate::dto::labels`: the sync and the export speak it
/// too): `label_output!("tagName", Tag {} |record| {})`, or with the kind's extra fields
/// and how a record fills them, as [`label_api!`](crate::label_api) took them.
#[macro_export]
macro_rules! label_output {
    ($field:tt, $output:ident { $($out_extra:tt)* } |$r:ident| { $($init:tt)* }) => {
        #[derive(Debug, serde::Serialize, utoipa::ToSchema)]
        pub struct $output {
            pub id: u64,
            #[serde(rename = $field)]
            pub name: String,
            /// Transactions using it (it cannot be deleted while any do).
            #[serde(rename = "transactionCount")]
            pub transaction_count: u64,
            $($out_extra)*
            /// UTC, `YYYY-MM-DDTHH:MM:SS`.
            #[serde(rename = "createdAt")]
            pub created_at: String,
            #[serde(rename = "updatedAt")]
            pub updated_at: String,
        }

        impl From<$crate::__pf::domain::Label> for $output {
            fn from($r: $crate::__pf::domain::Label) -> Self {
                Self { $($init)* id: $r.id, name: $r.name, transaction_count: $r.use_count, created_at: $r.created_at.to_string(), updated_at: $r.updated_at.to_string() }
            }
        }

    };
}
