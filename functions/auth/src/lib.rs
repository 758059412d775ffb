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
use shared::http::auth::{check_password, AuthUser};
use shared::http::client::ClientAddr;
use shared::http::extract::Json;
use shared::http::users::UserResponse;
use shared::http::{docs, finish, ApiError, ApiResult, AppState, FieldError};
use shared::store::sessions::{self, Rotation};
use shared::store::users::{CreateUserError, NewUser, UserRecord};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(login))
        .routes(routes!(refresh))
        .routes(routes!(logout))
        .routes(routes!(logout_all))
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
    #[schema(value_type = docs::Name)]
    pub firstname: String,
    /// Also accepted as `lastName`.
    #[serde(alias = "lastName")]
    #[schema(value_type = docs::Name)]
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

/// Registers a user and creates their wallet (EUR). Everyone registers as `USER`. Each
/// client address may register a limited number of accounts an hour (`429` beyond).
#[utoipa::path(
    post,
    path = "/auth/register",
    tag = "auth",
    request_body = RegisterRequest,
    responses(
        (status = 201, description = "Registered", body = UserResponse, headers(("Location" = String, description = "URL of the new user"))),
        docs::BodyErrors,
        (status = 409, response = docs::Conflict),
        (status = 429, response = docs::TooManyRequests),
        (status = 503, response = docs::Unavailable),
    )
)]
async fn register(
    axum::extract::State(state): axum::extract::State<AppState>,
    client: ClientAddr,
    Json(body): Json<RegisterRequest>,
) -> ApiResult<impl IntoResponse> {
    let valid = ValidRegistration::try_from(body)?;
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    if let Err(throttled) = state
        .store
        .reserve_registration(client.as_str(), state.config.registrations_per_hour, now)
        .await?
    {
        return Err(ApiError::TooManyRequests {
            message: "too many registrations from this address; try again later".into(),
            retry_after: throttled.retry_after,
        });
    }
    let plain = valid.password.expose().to_owned();
    let password_hash = password::hash_off_thread(plain).await?;
    let new = NewUser {
        email: valid.email.as_str().to_owned(),
        normalized_email: valid.email.normalized(),
        first_name: valid.first_name,
        last_name: valid.last_name,
        password_hash,
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
    /// Single-use token for `POST /auth/refresh`; its session ends 30 days after the login
    /// (refreshing does not extend it). Keep it secret.
    pub refresh_token: String,
    pub user: UserResponse,
}

/// Logs in with e-mail and password and returns an access token (15 minutes) and a
/// refresh token (the session, 30 days from this login). Attempts are throttled per
/// (e-mail, client address) and per e-mail across addresses (`429` with `Retry-After`).
#[utoipa::path(
    post,
    path = "/auth/login",
    tag = "auth",
    request_body = LoginRequest,
    responses(
        (status = 200, description = "Logged in", body = LoginResponse),
        docs::BodyErrors,
        (status = 401, response = docs::Unauthorized),
        (status = 429, response = docs::TooManyRequests),
        (status = 503, response = docs::Unavailable),
    )
)]
async fn login(
    axum::extract::State(state): axum::extract::State<AppState>,
    client: ClientAddr,
    Json(body): Json<LoginRequest>,
) -> ApiResult<Json<LoginResponse>> {
    let failed = || ApiError::Unauthorized("invalid e-mail or password".into());
    // A malformed e-mail or an over-long password cannot match: refused without hashing
    // (same status as a wrong password; the length bound keeps hashing cost bounded).
    let Some(email) = Email::parse(&body.email)
        .ok()
        .filter(|_| body.password.len() <= 1024)
    else {
        return Err(failed());
    };
    let normalized = email.normalized();
    let user = state.store.find_user_by_email(&normalized).await?;
    let stored = user.as_ref().map(|u| u.password_hash.clone());
    let plain = body.password;
    let ok = check_password(&state, &normalized, &client, plain.clone(), stored).await?;
    let user = match user {
        Some(u) if ok => u,
        _ => return Err(failed()),
    };
    if password::needs_rehash(&user.password_hash) {
        // Hashes age: stored with weaker parameters than today's, renewed now that the
        // password is at hand.
        let stronger = password::hash_off_thread(plain).await?;
        state
            .store
            .upgrade_password_hash(user.id, &user.password_hash, &stronger)
            .await?;
    }
    let family = random_token(FAMILY_BYTES);
    session_response(&state, &user, &family, None).await
}

/// `n` random bytes, URL-safe base64 (32 bytes give 43 characters).
fn random_token(n: usize) -> String {
    let bytes: Vec<u8> = (0..n).map(|_| rand::random::<u8>()).collect();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Issues an access token and a refresh token `<user id>.<session>.<secret>`: the first
/// of a new session at login, or the successor of `rotating` (the presented token's hash).
async fn session_response(
    state: &AppState,
    user: &UserRecord,
    family: &str,
    rotating: Option<&str>,
) -> ApiResult<Json<LoginResponse>> {
    let secret = random_token(SECRET_BYTES);
    let hash = sessions::hash_secret(&secret);
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let stored = match rotating {
        None => {
            state
                .store
                .start_session(user.id, family, &hash, user.session_epoch, now)
                .await?
        }
        Some(old) => {
            state
                .store
                .rotate_session(user.id, family, old, &hash, now)
                .await?
                == Rotation::Rotated
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
        refresh_token: format!("{}.{family}.{secret}", user.id),
        user: UserResponse::from(user),
    }))
}

/// Random bytes of a session id (22 characters) and of a refresh secret (32 characters).
const FAMILY_BYTES: usize = 16;
const SECRET_BYTES: usize = 24;

fn refresh_refused() -> ApiError {
    ApiError::Unauthorized(
        "the refresh token is invalid, expired, revoked or already used; log in again".into(),
    )
}

fn is_token_part(part: &str, bytes: usize) -> bool {
    part.len() == (bytes * 4).div_ceil(3)
        && part
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A refresh token is `<user id>.<session>.<secret>`: the id locates the user's
/// partition, the session its item. Anything else is simply not a valid token.
struct RefreshToken {
    user_id: u64,
    family: String,
    hash: String,
}

fn parse_refresh(token: &str) -> Option<RefreshToken> {
    let mut parts = token.split('.');
    let (id, family, secret) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some()
        || !is_token_part(family, FAMILY_BYTES)
        || !is_token_part(secret, SECRET_BYTES)
    {
        return None;
    }
    Some(RefreshToken {
        user_id: id.parse().ok()?,
        family: family.to_owned(),
        hash: sessions::hash_secret(secret),
    })
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
/// token works once; presenting a used one ends the session. The session ends 30 days
/// after the login however often it is refreshed, and at once when the password, e-mail
/// or role changes, on `/auth/logout-all`, or when the account is deleted.
#[utoipa::path(
    post,
    path = "/auth/refresh",
    tag = "auth",
    request_body = RefreshRequest,
    responses(
        (status = 200, description = "New tokens", body = LoginResponse),
        docs::BodyErrors,
        (status = 401, response = docs::Unauthorized),
    )
)]
async fn refresh(
    axum::extract::State(state): axum::extract::State<AppState>,
    Json(body): Json<RefreshRequest>,
) -> ApiResult<Json<LoginResponse>> {
    let token = parse_refresh(&body.refresh_token).ok_or_else(refresh_refused)?;
    // The current profile: a deleted user cannot refresh, and a changed role applies.
    let user = state
        .store
        .get_user(token.user_id)
        .await?
        .ok_or_else(refresh_refused)?;
    session_response(&state, &user, &token.family, Some(&token.hash)).await
}

/// Logs out: ends the session of the refresh token (every token rotated from that login).
/// Access tokens already issued stay valid until they expire (at most 15 minutes).
#[utoipa::path(
    post,
    path = "/auth/logout",
    tag = "auth",
    request_body = RefreshRequest,
    responses(
        (status = 204, description = "Logged out (also when the token was unknown)"),
        docs::BodyErrors,
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
    if let Some(token) = parse_refresh(&body.refresh_token) {
        state
            .store
            .end_session(token.user_id, &token.family)
            .await?;
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Logs the caller out everywhere: every session (refresh token) of the account ends at
/// once. Access tokens already issued stay valid until they expire (at most 15 minutes).
#[utoipa::path(
    post,
    path = "/auth/logout-all",
    tag = "auth",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Every session of the caller ended"),
        docs::ProtectedErrors,
        (status = 503, response = docs::Unavailable),
    )
)]
async fn logout_all(
    axum::extract::State(state): axum::extract::State<AppState>,
    user: AuthUser,
) -> ApiResult<StatusCode> {
    state.store.end_all_sessions(user.id).await?;
    Ok(StatusCode::NO_CONTENT)
}
