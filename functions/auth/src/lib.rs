//! Account endpoints: registration, login, sessions; `recovery`: forgot-password and
//! e-mail verification; `mail`: in Lambda, the mails go out after the answer.

/// One auth operation, a `POST`: its first response, then the errors every operation of
/// its kind has, then the `errors` it adds (`status => ` shared response, as in `docs`' error sets). With
/// `|state, body, extractors...|` it is public and reads a JSON body; with `|me|` it acts
/// for the caller, without a body. `$action` is the response.
macro_rules! auth_post {
    ($(#[$doc:meta])* $name:ident $path:literal, $input:ident, $first:tt $(, errors: [$($status:literal => $error:ident),*])?;
     |$state:ident, $body:ident $(, $arg:ident: $arg_ty:ty)*| $action:expr) => {
        $(#[$doc])*
        #[utoipa::path(
            post,
            path = $path,
            request_body = $input,
            responses($first, docs::BodyErrors, $($((status = $status, response = docs::$error),)*)?)
        )]
        async fn $name(
            axum::extract::State($state): axum::extract::State<AppState>,
            $($arg: $arg_ty,)*
            Json($body): Json<$input>,
        ) -> ApiResult<axum::response::Response> {
            Ok(axum::response::IntoResponse::into_response($action))
        }
    };
    ($(#[$doc:meta])* $name:ident $path:literal, $first:tt $(, errors: [$($status:literal => $error:ident),*])?;
     |$me:ident| $action:expr) => {
        $(#[$doc])*
        #[utoipa::path(
            post,
            path = $path,
            responses($first, docs::ProtectedErrors, $($((status = $status, response = docs::$error),)*)?)
        )]
        async fn $name($me: Caller) -> ApiResult<axum::response::Response> {
            Ok(axum::response::IntoResponse::into_response($action))
        }
    };
}

pub mod mail;
pub mod pages;
mod recovery;

use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use pf_app as app;
use pf_app::accounts::{Registration, Session};
use pf_app::token::ACCESS_TTL_SECS;
use pf_domain::text::{parse_name, NAME_MAX_LEN};
use pf_domain::{Email, Password};
use pf_http::auth::Caller;
use pf_http::client::ClientAddr;
use pf_http::extract::Json;
use pf_http::respond::Created;
use pf_http::users::UserResponse;
use pf_http::{docs, ApiError, ApiResult, AppState, FieldError};

/// The routes with their documentation: a route cannot exist without it.
pub fn api() -> OpenApiRouter<AppState> {
    let open = OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(login))
        .routes(routes!(refresh))
        .routes(routes!(logout));
    let open = recovery::public(open);
    let signed_in = recovery::protected(OpenApiRouter::new().routes(routes!(logout_all)));
    let api = docs::public("auth", open).merge(docs::protected("auth", signed_in));
    pages::mount(api)
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

struct ValidRegistration(Registration);

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
                Ok(Self(Registration {
                    first_name,
                    last_name,
                    email,
                    password,
                }))
            }
            _ => Err(ApiError::validation(errors)),
        }
    }
}

auth_post!(
    /// Registers a user and creates their wallet (EUR). Everyone registers as `USER`. Each
    /// client address may register a limited number of accounts an hour, and get at most 10
    /// answers `409` (e-mail taken) an hour (`429` with `Retry-After` beyond either).
    register "/auth/register", RegisterRequest,
    (status = 201, description = "Registered", body = UserResponse, headers(("Location" = String, description = "URL of the new user"))),
    errors: [409 => Conflict, 429 => TooManyRequests];
    |state, body, client: ClientAddr| {
        let ValidRegistration(registration) = ValidRegistration::try_from(body)?;
        let per_hour = state.config.registrations_per_hour;
        let links = state.links();
        let (user, _wallet) =
            app::accounts::register(&state.store, links, client.as_str(), per_hour, registration)
                .await?;
        Created::at(format!("/users/{}", user.id), UserResponse::from(&user))
    }
);

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = Credentials)]
pub struct LoginRequest {
    #[schema(max_length = 254, example = "ann@example.com")]
    pub email: String,
    #[schema(max_length = 1024, format = Password, example = "correct horse battery staple")]
    pub password: String,
    /// A `deviceToken` from an earlier login or refresh of this account: the attempt is
    /// then throttled on this device's own allowance, never by strangers' guesses.
    #[serde(default, rename = "deviceToken")]
    #[schema(max_length = 64)]
    pub device_token: Option<String>,
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
    /// Recognises this device at later logins (send it with `POST /auth/login`): valid a
    /// year, until the sessions are revoked; earlier ones keep working. Keep it secret.
    #[schema(min_length = 32, max_length = 32)]
    pub device_token: String,
    pub user: UserResponse,
}

auth_post!(
    /// Logs in with e-mail and password and returns an access token (15 minutes), a refresh
    /// token (the session, 30 days from this login) and a device token. Attempts are
    /// throttled (`429` with `Retry-After`): with a valid `deviceToken`, per device only;
    /// without, per (e-mail, client address), per e-mail across addresses, and failures per
    /// client address across e-mails (`LOGIN_FAILURES_PER_ADDRESS`).
    login "/auth/login", LoginRequest,
    (status = 200, description = "Logged in", body = LoginResponse, headers(("Cache-Control" = String, description = "no-store"))),
    errors: [401 => Unauthorized, 429 => TooManyRequests];
    |state, body, client: ClientAddr| {
        if body
            .device_token
            .as_ref()
            .is_some_and(|t| t.chars().count() > 64)
        {
            let e = FieldError::new("deviceToken", "must be at most 64 characters");
            return Err(ApiError::validation(vec![e]));
        }
        let (store, tokens) = (&state.store, &state.tokens);
        let device = body.device_token.as_deref();
        let origin = state.origin(&client);
        let session = app::accounts::login(store, tokens, origin, &body.email, body.password, device);
        NoStore(Json(LoginResponse::from(session.await?)))
    }
);

/// A response that carries a secret: never stored by caches (`Cache-Control: no-store`).
pub struct NoStore<T>(pub T);

impl<T: axum::response::IntoResponse> axum::response::IntoResponse for NoStore<T> {
    fn into_response(self) -> axum::response::Response {
        let mut r = self.0.into_response();
        r.headers_mut().insert(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("no-store"),
        );
        r
    }
}

impl From<Session> for LoginResponse {
    fn from(s: Session) -> Self {
        Self {
            token: s.access_token,
            token_type: "Bearer",
            expires_in: ACCESS_TTL_SECS,
            refresh_token: s.refresh_token,
            device_token: s.device_token,
            user: UserResponse::from(&s.user),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = RefreshInput)]
pub struct RefreshRequest {
    /// The refresh token from login or the previous refresh.
    #[schema(min_length = 1, max_length = 80)]
    pub refresh_token: String,
}

auth_post!(
    /// Exchanges a refresh token for a new access token and a new refresh token. Each refresh
    /// token works once; presenting a used one ends the session. The session ends 30 days
    /// after the login however often it is refreshed, and at once when the password, e-mail
    /// or role changes, on `/auth/logout-all`, or when the account is deleted.
    refresh "/auth/refresh", RefreshRequest,
    (status = 200, description = "New tokens", body = LoginResponse, headers(("Cache-Control" = String, description = "no-store"))),
    errors: [401 => Unauthorized];
    |state, body| {
        let session = app::accounts::refresh(&state.store, &state.tokens, &body.refresh_token).await?;
        NoStore(Json(LoginResponse::from(session)))
    }
);

auth_post!(
    /// Logs out: ends the session of the refresh token (every token rotated from that login)
    /// when it is the session's current token; an older (rotated) or altered token of a live
    /// session ends nothing and is refused (`401`). Access tokens already issued stay valid
    /// until they expire (at most 15 minutes).
    logout "/auth/logout", RefreshRequest,
    (status = 204, description = "Logged out (also when the token was unknown)"),
    errors: [401 => Unauthorized];
    |state, body| {
        if body.refresh_token.is_empty() || body.refresh_token.chars().count() > 80 {
            let e = FieldError::new("refreshToken", "must be 1 to 80 characters");
            return Err(ApiError::validation(vec![e]));
        }
        // Like OAuth token revocation (RFC 7009), an unknown token is not an error.
        app::accounts::logout(&state.store, &body.refresh_token).await?;
        StatusCode::NO_CONTENT
    }
);

auth_post!(
    /// Logs the caller out everywhere: every session (refresh token) of the account ends at
    /// once. Access tokens already issued stay valid until they expire (at most 15 minutes).
    logout_all "/auth/logout-all",
    (status = 204, description = "Every session of the caller ended");
    |me| {
        app::accounts::logout_all(me.store(), me.id).await?;
        StatusCode::NO_CONTENT
    }
);
