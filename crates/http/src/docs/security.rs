//! Each function's operations: tagged with its group, and declaring the bearer scheme
//! when they need a token.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::Modify;
use utoipa_axum::router::OpenApiRouter;

use crate::AppState;

/// A function's documented routes that need a bearer token: each operation is tagged with
/// the function's group and declares the `bearer` scheme, so no handler repeats either.
/// Their handlers take [`Caller`](crate::auth::Caller), which is what enforces it; the
/// openapi crate's tests check that exactly the public operations lack the scheme.
pub fn protected(group: &str, routes: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
    in_group(
        group,
        Some(SecurityRequirement::new("bearer", Vec::<String>::new())),
        routes,
    )
}

/// A function's documented routes that anyone may call (registration, login, refresh),
/// tagged with the function's group.
pub fn public(group: &str, routes: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
    in_group(group, None, routes)
}

fn in_group(
    group: &str,
    security: Option<SecurityRequirement>,
    mut routes: OpenApiRouter<AppState>,
) -> OpenApiRouter<AppState> {
    for item in routes.get_openapi_mut().paths.paths.values_mut() {
        let ops = [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.delete,
            &mut item.patch,
        ];
        for op in ops.into_iter().flatten() {
            op.tags = Some(vec![group.to_owned()]);
            op.security = security.clone().map(|s| vec![s]);
        }
    }
    routes
}

/// Adds the bearer scheme (`Authorization: Bearer <token>`) used by protected operations.
pub struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some(
                        "Access token from POST /auth/login, valid 15 minutes.",
                    ))
                    .build(),
            ),
        );
    }
}
