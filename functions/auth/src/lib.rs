//! Account endpoints: registration and login.

use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::Router;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use base64::Engine;
use shared::auth::{password, token::ACCESS_TTL_SECS};
use shared::domain::text::{parse_name, NAME_MAX_LEN};
use shared::domain::time::now_local_date_time;
use shared::domain::{Email, Password};
use shared::http::extract::Json;
use shared::http::users::UserResponse;
use shared::http::{docs, finish, ApiError, ApiResult, AppState, FieldError};
use shared::store::sessions::{self, Rotation};
use shared::store::users::{CreateUserError, NewUser, Role, UserRecord};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(login))
        .routes(routes!(refresh))
        .routes(routes!(logout))
}

pub fn router(state: AppState) -> Router {
    finish(api().split_for_parts().0, state)
}

/// Registration body. The spec spells the names `firstname`/`lastname`; the camelCase
/// spellings used everywhere else are accepted too.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = Registration)]
pub struct RegisterRequest {
    /// Also accepted as `firstName`.
    #[serde(alias = "firstName")]
    #[schema(
        min_length = 1,
        max_length = 100,
        pattern = r"^[^\x00-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x1F\x7F-\x9F]*$",
        example = "Ann"
    )]
    pub firstname: String,
    /// Also accepted as `lastName`.
    #[serde(alias = "lastName")]
    #[schema(
        min_length = 1,
        max_length = 100,
        pattern = r"^[^\x00-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x1F\x7F-\x9F]*$",
        example = "Lee"
    )]
    pub lastname: String,
    /// The login identifier; unique regardless of case.
    #[schema(format = Email, max_length = 254, example = "ann@example.com")]
    pub email: String,
    /// 15 to 128 characters; common passwords are refused.
    #[schema(min_length = 15, max_length = 128, format = Password, example = "correct horse battery staple")]
    pub password: String,
    /// Must repeat `password`.
    #[schema(min_length = 15, max_length = 128, format = Password, example = "correct horse battery staple")]
    pub confirm_password: String,
}

struct ValidRegistration {
    first_name: String,
    last_name: String,
    email: Email,
    password: Password,
}

impl TryFrom<RegisterRequest> for ValidRegistration {
    type Error = ApiError;

    fn try_from(r: RegisterRequest) -> Result<Self, ApiError> {
        let mut errors = Vec::new();
        let mut field = |name: &str, result: Result<(), String>| {
            if let Err(message) = result {
                errors.push(FieldError::new(name, message));
            }
        };
        let first = parse_name(&r.firstname, NAME_MAX_LEN);
        field(
            "firstname",
            first.as_ref().map(|_| ()).map_err(Clone::clone),
        );
        let last = parse_name(&r.lastname, NAME_MAX_LEN);
        field("lastname", last.as_ref().map(|_| ()).map_err(Clone::clone));
        let email = Email::parse(&r.email);
        field("email", email.as_ref().map(|_| ()).map_err(Clone::clone));
        let password = Password::parse(&r.password);
        field(
            "password",
            password.as_ref().map(|_| ()).map_err(Clone::clone),
        );
        if r.password != r.confirm_password {
            field("confirmPassword", Err("must repeat the password".into()));
        }
        match (first, last, email, password) {
            (Ok(first_name), Ok(last_name), Ok(email), Ok(password)) if errors.is_empty() => {
                Ok(Self {
                    first_name,
                    last_name,
                    email,
                    password,
                })
            }
            _ => Err(ApiError::validation(errors)),
        }
    }
}

/// Registers a user and creates their wallet (EUR).
#[utoipa::path(
    post,
    path = "/auth/register",
    tag = "auth",
    request_body = RegisterRequest,
    responses(
        (status = 201, description = "Registered", body = UserResponse, headers(("Location" = String, description = "URL of the new user"))),
        (status = 400, response = docs::BadRequest),
        (status = 409, response = docs::Conflict),
        (status = 413, response = docs::PayloadTooLarge),
        (status = 415, response = docs::UnsupportedMediaType),
        (status = 500, response = docs::InternalError),
    )
)]
async fn register(
    axum::extract::State(state): axum::extract::State<AppState>,
    Json(body): Json<RegisterRequest>,
) -> ApiResult<impl IntoResponse> {
    let valid = ValidRegistration::try_from(body)?;
    let plain = valid.password.expose().to_owned();
    let password_hash = password::hash_off_thread(plain).await?;
    let normalized_email = valid.email.normalized();
    let role = if state.config.admin_emails.contains(&normalized_email) {
        Role::Admin
    } else {
        Role::User
    };
    let new = NewUser {
        email: valid.email.as_str().to_owned(),
        normalized_email,
        first_name: valid.first_name,
        last_name: valid.last_name,
        password_hash,
        role,
        now: now_local_date_time(),
    };
    let (user, _wallet) = state.store.create_user(new).await.map_err(|e| match e {
        CreateUserError::EmailTaken => {
            ApiError::Conflict("an account with this e-mail already exists".into())
        }
        CreateUserError::Store(e) => e.into(),
    })?;
    let location = format!("/users/{}", user.id);
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, location)],
        Json(UserResponse::from(&user)),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = Credentials)]
pub struct LoginRequest {
    #[schema(max_length = 254, example = "ann@example.com")]
    pub email: String,
    #[schema(max_length = 1024, format = Password, example = "correct horse battery staple")]
    pub password: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Login)]
pub struct LoginResponse {
    /// Access token: send it as `Authorization: Bearer <token>`.
    pub token: String,
    #[schema(value_type = String, example = "Bearer")]
    pub token_type: &'static str,
    /// Seconds until the token expires.
    #[schema(example = 900)]
    pub expires_in: i64,
    /// Single-use token for `POST /auth/refresh` (30 days); keep it secret.
    pub refresh_token: String,
    pub user: UserResponse,
}

/// Logs in with e-mail and password and returns an access token.
#[utoipa::path(
    post,
    path = "/auth/login",
    tag = "auth",
    request_body = LoginRequest,
    responses(
        (status = 200, description = "Logged in", body = LoginResponse),
        (status = 400, response = docs::BadRequest),
        (status = 401, response = docs::Unauthorized),
        (status = 413, response = docs::PayloadTooLarge),
        (status = 429, response = docs::TooManyRequests),
        (status = 415, response = docs::UnsupportedMediaType),
        (status = 500, response = docs::InternalError),
    )
)]
async fn login(
    axum::extract::State(state): axum::extract::State<AppState>,
    Json(body): Json<LoginRequest>,
) -> ApiResult<Json<LoginResponse>> {
    let failed = || ApiError::Unauthorized("invalid e-mail or password".into());
    // Malformed e-mails and over-long passwords fail like wrong ones (same status, and
    // the length bound keeps hashing cost bounded).
    let email = Email::parse(&body.email)
        .ok()
        .filter(|_| body.password.len() <= 1024);
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    if let Some(email) = &email {
        if let Some(retry_after) = state
            .store
            .login_blocked_for(&email.normalized(), now)
            .await?
        {
            return Err(ApiError::TooManyRequests {
                message: "too many failed logins for this e-mail; try again later".into(),
                retry_after,
            });
        }
    }
    let user = match &email {
        Some(email) => state.store.find_user_by_email(&email.normalized()).await?,
        None => None,
    };
    let stored = user.as_ref().map(|u| u.password_hash.clone());
    let plain = body.password;
    let ok = password::verify_off_thread(plain, stored).await?;
    let user = match user {
        Some(u) if ok => u,
        _ => {
            if let Some(email) = &email {
                state
                    .store
                    .record_login_failure(&email.normalized(), now)
                    .await?;
            }
            return Err(failed());
        }
    };
    let family = random_token(16);
    session_response(&state, &user, &family, None).await
}

/// `n` random bytes, URL-safe base64 (32 bytes give 43 characters).
fn random_token(n: usize) -> String {
    let bytes: Vec<u8> = (0..n).map(|_| rand::random::<u8>()).collect();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Issues an access token and a refresh token: a new one in `family`, or the successor
/// of `rotating` (its hash) when refreshing.
async fn session_response(
    state: &AppState,
    user: &UserRecord,
    family: &str,
    rotating: Option<&str>,
) -> ApiResult<Json<LoginResponse>> {
    let secret = random_token(32);
    let hash = sessions::hash_secret(&secret);
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let stored = match rotating {
        None => state.store.add_refresh(user.id, &hash, family, now).await?,
        Some(old) => {
            state.store.rotate_refresh(user.id, old, &hash, now).await? == Rotation::Rotated
        }
    };
    if !stored {
        return Err(refresh_refused());
    }
    let token = state.tokens.issue(user.id, user.role)?;
    Ok(Json(LoginResponse {
        token,
        token_type: "Bearer",
        expires_in: ACCESS_TTL_SECS,
        refresh_token: format!("{}.{secret}", user.id),
        user: UserResponse::from(user),
    }))
}

fn refresh_refused() -> ApiError {
    ApiError::Unauthorized(
        "the refresh token is invalid, expired or already used; log in again".into(),
    )
}

/// A refresh token is `<user id>.<secret>`: the id locates the user's partition. Anything
/// else is simply not a valid token.
fn parse_refresh(token: &str) -> Option<(u64, String)> {
    let (id, secret) = token.split_once('.')?;
    let id: u64 = id.parse().ok()?;
    if secret.len() != 43
        || !secret
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return None;
    }
    Some((id, sessions::hash_secret(secret)))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = RefreshInput)]
pub struct RefreshRequest {
    /// The refresh token from login or the previous refresh.
    #[schema(min_length = 1, max_length = 80)]
    pub refresh_token: String,
}

/// Exchanges a refresh token for a new access token and a new refresh token. Each refresh
/// token works once; presenting a used one revokes every token of that login.
#[utoipa::path(
    post,
    path = "/auth/refresh",
    tag = "auth",
    request_body = RefreshRequest,
    responses(
        (status = 200, description = "New tokens", body = LoginResponse),
        (status = 400, response = docs::BadRequest),
        (status = 401, response = docs::Unauthorized),
        (status = 413, response = docs::PayloadTooLarge),
        (status = 415, response = docs::UnsupportedMediaType),
        (status = 500, response = docs::InternalError),
    )
)]
async fn refresh(
    axum::extract::State(state): axum::extract::State<AppState>,
    Json(body): Json<RefreshRequest>,
) -> ApiResult<Json<LoginResponse>> {
    let (user_id, hash) = parse_refresh(&body.refresh_token).ok_or_else(refresh_refused)?;
    // The current profile: a deleted user cannot refresh, and a changed role applies.
    let user = state
        .store
        .get_user(user_id)
        .await?
        .ok_or_else(refresh_refused)?;
    session_response(&state, &user, "", Some(&hash)).await
}

/// Logs out: revokes the refresh token and every token rotated from the same login.
/// Access tokens already issued stay valid until they expire (at most 15 minutes).
#[utoipa::path(
    post,
    path = "/auth/logout",
    tag = "auth",
    request_body = RefreshRequest,
    responses(
        (status = 204, description = "Logged out (also when the token was unknown)"),
        (status = 400, response = docs::BadRequest),
        (status = 413, response = docs::PayloadTooLarge),
        (status = 415, response = docs::UnsupportedMediaType),
        (status = 500, response = docs::InternalError),
    )
)]
async fn logout(
    axum::extract::State(state): axum::extract::State<AppState>,
    Json(body): Json<RefreshRequest>,
) -> ApiResult<StatusCode> {
    if body.refresh_token.is_empty() || body.refresh_token.chars().count() > 80 {
        return Err(ApiError::validation(vec![FieldError::new(
            "refreshToken",
            "must be 1 to 80 characters",
        )]));
    }
    // Like OAuth token revocation (RFC 7009), an unknown token is not an error.
    if let Some((user_id, hash)) = parse_refresh(&body.refresh_token) {
        state.store.revoke_refresh(user_id, &hash).await?;
    }
    Ok(StatusCode::NO_CONTENT)
}
