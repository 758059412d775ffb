//! Account endpoints: registration and login.

use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::post;
use axum::Router;
use serde::{Deserialize, Serialize};

use shared::auth::{password, token::ACCESS_TTL_SECS};
use shared::domain::text::{parse_name, NAME_MAX_LEN};
use shared::domain::time::now_local_date_time;
use shared::domain::{Email, Password};
use shared::http::extract::Json;
use shared::http::users::UserResponse;
use shared::http::{finish, ApiError, ApiResult, AppState, FieldError};
use shared::store::users::{CreateUserError, NewUser, Role};

/// Every (method, path) this function serves, in API Gateway syntax; template.yaml and
/// the OpenAPI document are checked against it.
pub const ROUTES: &[(&str, &str)] = &[("POST", "/auth/register"), ("POST", "/auth/login")];

pub fn router(state: AppState) -> Router {
    let routes = Router::new()
        .route("/auth/register", post(register))
        .route("/auth/login", post(login));
    finish(routes, state)
}

/// Registration body. The spec spells the names `firstname`/`lastname`; the camelCase
/// spellings used everywhere else are accepted too.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RegisterRequest {
    #[serde(alias = "firstName")]
    pub firstname: String,
    #[serde(alias = "lastName")]
    pub lastname: String,
    pub email: String,
    pub password: String,
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

/// Argon2 takes tens of milliseconds of CPU: keep it off the async workers.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> ApiResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::Internal(e.into()))
}

async fn register(
    axum::extract::State(state): axum::extract::State<AppState>,
    Json(body): Json<RegisterRequest>,
) -> ApiResult<impl IntoResponse> {
    let valid = ValidRegistration::try_from(body)?;
    let plain = valid.password.expose().to_owned();
    let password_hash = blocking(move || password::hash(&plain)).await??;
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoginRequest {
    pub email: String,
    pub password: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoginResponse {
    pub token: String,
    pub token_type: &'static str,
    pub expires_in: i64,
    pub user: UserResponse,
}

async fn login(
    axum::extract::State(state): axum::extract::State<AppState>,
    Json(body): Json<LoginRequest>,
) -> ApiResult<Json<LoginResponse>> {
    let failed = || ApiError::Unauthorized("invalid e-mail or password".into());
    // Malformed e-mails and over-long passwords fail like wrong ones (same status, and
    // the length bound keeps hashing cost bounded).
    let user = match Email::parse(&body.email) {
        Ok(email) if body.password.len() <= 1024 => {
            state.store.find_user_by_email(&email.normalized()).await?
        }
        _ => None,
    };
    let stored = user.as_ref().map(|u| u.password_hash.clone());
    let plain = body.password;
    let ok = blocking(move || password::verify(&plain, stored.as_deref())).await?;
    let user = match user {
        Some(u) if ok => u,
        _ => return Err(failed()),
    };
    let token = state.tokens.issue(user.id, user.role)?;
    Ok(Json(LoginResponse {
        token,
        token_type: "Bearer",
        expires_in: ACCESS_TTL_SECS,
        user: UserResponse::from(&user),
    }))
}
