//! The documented handlers of a versioned resource, as every one of them has them: a page
//! of the list (`Link`), a create (`201`, `Location`, `ETag`), a read by id or of the
//! caller's own one (`ETag`, `If-None-Match` and `304`), a replacement (`If-Match`, `412`) and a delete (`If-Match`,
//! `204`). Each macro writes one handler (`list`, `create`, `read`, `update`, `remove`)
//! with its OpenAPI operation; the caller gives what differs: the path, the bodies, the descriptions, extra responses, and the
//! service call, an expression over the names it binds (`|me, id, ...|`).
//!
//! ```ignore
//! shared::item_delete!(
//!     /// Deletes a rule (transactions it categorised keep their category).
//!     "/api/rules/{id}", "Deleted";
//!     |me, id, expected| {
//!         app::rules::delete(me.store(), me.id, id, expected).await?;
//!         StatusCode::NO_CONTENT
//!     }
//! );
//! ```

/// `POST <collection>`: `201` with `Location` and `ETag`; `$create` is the response (a
/// [`Created`](crate::respond::Created)). Extra header parameters, responses and
/// extractors (before the body) follow the usual ones.
#[macro_export]
macro_rules! item_create {
    ($(#[$doc:meta])* $path:literal, $input:ident => $output:ident, $location:literal
     $(, params: [$($param:path),*])? $(, responses: [$($extra:tt),*])?;
     |$me:ident, $body:ident: $body_ty:ty $(, $arg:ident: $arg_ty:ty)*| $create:expr) => {
        $(#[$doc])*
        #[utoipa::path(
            post,
            path = $path,
            $(params($($param),*),)?
            request_body = $input,
            responses(
                (status = 201, description = "Created", body = $output, headers(
                    ("Location" = String, description = $location),
                    ("ETag" = String, description = "Version, for If-Match"))),
                $crate::docs::CreateErrors,
                $($($extra,)*)?
            )
        )]
        pub(crate) async fn create(
            $me: $crate::auth::Caller,
            $($arg: $arg_ty,)*
            $crate::extract::Json($body): $crate::extract::Json<$body_ty>,
        ) -> $crate::ApiResult<::axum::response::Response> {
            Ok(::axum::response::IntoResponse::into_response($create))
        }
    };
}

/// `GET <collection>/{id}`: `200` with `ETag`, `304` on a matching `If-None-Match`; `$get`
/// is the [`Versioned`](crate::respond::Versioned) response.
#[macro_export]
macro_rules! item_read {
    ($(#[$doc:meta])* $path:literal, $found:literal => $output:ident
     $(, responses: [$($extra:tt),*])?;
     |$me:ident, $id:ident| $get:expr) => {
        $(#[$doc])*
        #[utoipa::path(
            get,
            path = $path,
            params(("id" = inline($crate::docs::Id), Path), $crate::docs::IfNoneMatch),
            responses(
                (status = 200, description = $found, body = $output, headers(
                    ("ETag" = String, description = "Version, for If-Match"))),
                $crate::docs::Cached,
                $crate::docs::ReadErrors,
                $($($extra,)*)?
            )
        )]
        pub(crate) async fn read(
            $me: $crate::auth::Caller,
            $crate::extract::Path($id): $crate::extract::Path<u64>,
        ) -> $crate::ApiResult<$crate::respond::Versioned<$output>> {
            Ok($get)
        }
    };
}

/// `GET` of the caller's own one-of-a-kind resource (no id: the profile, the wallet): `200`
/// with `ETag` (described as `$etag`), `304` on a matching `If-None-Match`; `$get` is the
/// [`Versioned`](crate::respond::Versioned) response of handler `$name`.
#[macro_export]
macro_rules! own_read {
    ($(#[$doc:meta])* $name:ident $path:literal, $found:literal => $output:ident, $etag:literal;
     |$me:ident| $get:expr) => {
        $(#[$doc])*
        #[utoipa::path(
            get,
            path = $path,
            params($crate::docs::IfNoneMatch),
            responses(
                (status = 200, description = $found, body = $output, headers(
                    ("ETag" = String, description = $etag))),
                $crate::docs::Cached,
                $crate::docs::ReadErrors,
            )
        )]
        pub(crate) async fn $name(
            $me: $crate::auth::Caller,
        ) -> $crate::ApiResult<$crate::respond::Versioned<$output>> {
            Ok($get)
        }
    };
}

/// `PUT <collection>/{id}` under `If-Match`: `200` with the new `ETag`; `$update` is the
/// response (a [`Versioned`](crate::respond::Versioned)). Extra header parameters,
/// responses and extractors (before the body) follow the usual ones.
#[macro_export]
macro_rules! item_update {
    ($(#[$doc:meta])* $path:literal, $input:ident => $output:ident, $updated:literal
     $(, params: [$($param:path),*])? $(, responses: [$($extra:tt),*])?;
     |$me:ident, $id:ident, $body:ident: $body_ty:ty, $expected:ident $(, $arg:ident: $arg_ty:ty)*|
     $update:expr) => {
        $crate::__item_change!(
            $(#[$doc])* put update $path, [$($($param),*)?],
            [
                request_body = $input,
                responses(
                    (status = 200, description = $updated, body = $output, headers(
                        ("ETag" = String, description = "New version"))),
                    $crate::docs::VersionedUpdateErrors,
                    $($($extra,)*)?
                )
            ],
            |$me, $id, $expected|
            ($($arg: $arg_ty,)* $crate::extract::Json($body): $crate::extract::Json<$body_ty>)
            $update
        );
    };
}

/// `DELETE <collection>/{id}` under `If-Match`: `204` (described as `$deleted`); `$delete`
/// does it and is the response. Extra header parameters, responses and extractors follow
/// the usual ones.
#[macro_export]
macro_rules! item_delete {
    ($(#[$doc:meta])* $path:literal, $deleted:literal
     $(, params: [$($param:path),*])? $(, responses: [$($extra:tt),*])?;
     |$me:ident, $id:ident, $expected:ident $(, $arg:ident: $arg_ty:ty)*| $delete:expr) => {
        $crate::__item_change!(
            $(#[$doc])* delete remove $path, [$($($param),*)?],
            [
                responses(
                    (status = 204, description = $deleted),
                    $crate::docs::VersionedDeleteErrors,
                    $($($extra,)*)?
                )
            ],
            |$me, $id, $expected| ($($arg: $arg_ty),*) $delete
        );
    };
}

/// A change of one item under `If-Match`: the operation (`$method`, the id and `If-Match`
/// parameters, then `$param`s and the rest of `$operation`) and its handler (the caller,
/// the id, `If-Match`, then `$args`), answering `$response`.
#[doc(hidden)]
#[macro_export]
macro_rules! __item_change {
    ($(#[$doc:meta])* $method:ident $name:ident $path:literal, [$($param:path),*],
     [$($operation:tt)*], |$me:ident, $id:ident, $expected:ident| ($($args:tt)*) $response:expr) => {
        $(#[$doc])*
        #[utoipa::path(
            $method,
            path = $path,
            params(("id" = inline($crate::docs::Id), Path), $crate::docs::IfMatch $(, $param)*),
            $($operation)*
        )]
        pub(crate) async fn $name(
            $me: $crate::auth::Caller,
            $crate::extract::Path($id): $crate::extract::Path<u64>,
            $crate::extract::IfMatchHeader($expected): $crate::extract::IfMatchHeader,
            $($args)*
        ) -> $crate::ApiResult<::axum::response::Response> {
            Ok(::axum::response::IntoResponse::into_response($response))
        }
    };
}

/// `GET <collection>`: one page of a list, `Link: <next>; rel="next"` when more may
/// follow; `$list` is the [`Page`](crate::respond::Page) result.
#[macro_export]
macro_rules! item_list {
    ($(#[$doc:meta])* $path:literal, $query:ident, $page:literal => $output:ident;
     |$me:ident, $q:ident| $list:expr) => {
        $(#[$doc])*
        #[utoipa::path(
            get,
            path = $path,
            params($query),
            responses(
                (status = 200, description = $page, body = Vec<$output>, headers(
                    ("Link" = String, description = "`<url>; rel=\"next\"` when another page may follow"))),
                $crate::docs::ListErrors,
            )
        )]
        pub(crate) async fn list(
            $me: $crate::auth::Caller,
            $crate::extract::Query($q): $crate::extract::Query<$query>,
        ) -> $crate::ApiResult<$crate::respond::Page<$output>> {
            $list
        }
    };
}
