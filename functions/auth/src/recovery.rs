//! Forgot-password and e-mail verification: links mailed to the address (SMTP locally,
//! SES in AWS), each token single use and short-lived.

use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use pf_app as app;
use pf_http::auth::Caller;
use pf_http::extract::Json;
use pf_http::{docs, ApiResult, AppState};

pub fn public(open: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
    open.routes(routes!(request_reset))
        .routes(routes!(confirm_reset))
        .routes(routes!(verify))
}

pub fn protected(signed_in: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
    signed_in.routes(routes!(resend))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = PasswordResetRequest)]
pub struct ResetRequest {
    #[schema(max_length = 254, example = "ann@example.com")]
    pub email: String,
}

auth_post!(
    /// Forgot password: mails a link `APP_URL/reset-password?token=…` (valid 30 minutes, single
    /// use) when the address has an account. Always `202`, in the same time, whether or not
    /// it has one; at most 3 mails per address an hour (beyond, nothing is sent).
    request_reset "/auth/password-reset", ResetRequest,
    (status = 202, description = "If the address has an account, a link is on its way");
    |state, body| {
        if body.email.chars().count() > 254 {
            let e = pf_http::FieldError::new("email", "must be at most 254 characters");
            return Err(pf_http::ApiError::validation(vec![e]));
        }
        app::accounts::request_password_reset(&state.store, state.links(), &body.email).await?;
        StatusCode::ACCEPTED
    }
);

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = PasswordResetConfirmation)]
pub struct ConfirmRequest {
    /// The `token` of the mailed link.
    #[schema(min_length = 43, max_length = 43)]
    pub token: String,
    /// 15 to 128 characters; common passwords are refused.
    #[schema(min_length = 15, max_length = 128, format = Password)]
    pub password: String,
    /// Must repeat `password`.
    #[schema(min_length = 15, max_length = 128, format = Password)]
    pub confirm_password: String,
}

auth_post!(
    /// Sets a new password with a reset link's token and logs the owner in: `200` with the
    /// body of `POST /auth/login` (a new session and its `deviceToken`, so the owner gets
    /// in at once, past the back-off that strangers' guesses keep up on the e-mail). Every
    /// earlier session and device token of the account ends; the address counts as
    /// verified when the link went to it. A used, expired or unknown token is `400` (field
    /// `token`).
    confirm_reset "/auth/password-reset/confirm", ConfirmRequest,
    (status = 200, description = "Password set; logged in", body = crate::LoginResponse, headers(("Cache-Control" = String, description = "no-store")));
    |state, body| {
        let (token, password) = (&body.token, &body.password);
        let confirmation = &body.confirm_password;
        let (store, tokens) = (&state.store, &state.tokens);
        let session =
            app::accounts::confirm_password_reset(store, tokens, token, password, confirmation)
                .await?;
        crate::NoStore(Json(crate::LoginResponse::from(session)))
    }
);

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = EmailVerification)]
pub struct VerifyRequest {
    /// The `token` of the mailed link.
    #[schema(min_length = 43, max_length = 43)]
    pub token: String,
}

auth_post!(
    /// Confirms an address with the token of the link mailed at registration or e-mail change
    /// (valid 48 hours, single use): `204`, and the user's `emailVerified` becomes `true`. A
    /// used, expired or unknown token, or one mailed to an address the account no longer
    /// has, is `400` (field `token`).
    verify "/auth/verify-email", VerifyRequest,
    (status = 204, description = "The address is verified");
    |state, body| {
        app::accounts::verify_email(&state.store, &body.token).await?;
        StatusCode::NO_CONTENT
    }
);

auth_post!(
    /// Mails the caller a new verification link: `202`; `409` when the address is verified
    /// already; at most 3 an hour (`429` with `Retry-After`).
    resend "/auth/verify-email/resend",
    (status = 202, description = "A new link is on its way"),
    errors: [409 => Conflict, 429 => TooManyRequests];
    |me| {
        app::accounts::resend_verification(me.store(), me.state.links(), me.id).await?;
        StatusCode::ACCEPTED
    }
);
