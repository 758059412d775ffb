//! API Gateway HTTP API events (payload format 2.0), as the `$default` stage of
//! `template.yaml`'s HttpApi hands them to a function: the route's key and path
//! parameters, lower-case headers with the ones API Gateway adds, and the request context.

use serde_json::{json, Map, Value};

const API_ID: &str = "a1b2c3d4e5";
const DOMAIN: &str = "a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com";
/// A documentation address (TEST-NET-3): only ever a string in the event.
const SOURCE_IP: &str = "203.0.113.7";
const USER_AGENT: &str = "lambda-bench/1";

/// What a function is invoked with: an HTTP request through API Gateway, or another
/// event (the import job's own, EventBridge's schedule) with the answer it must give.
pub enum Request {
    Api(ApiRequest),
    Event {
        label: &'static str,
        payload: Value,
        /// Whether the function's answer is the one expected.
        expect: fn(&Value) -> bool,
    },
}

impl From<ApiRequest> for Request {
    fn from(request: ApiRequest) -> Self {
        Self::Api(request)
    }
}

impl Request {
    /// `METHOD /route`, or the event's label, for tables.
    pub fn label(&self) -> String {
        match self {
            Self::Api(request) => request.label(),
            Self::Event { label, .. } => (*label).to_owned(),
        }
    }
}

/// One HTTP request as a client sends it to API Gateway.
#[derive(Debug, Clone)]
pub struct ApiRequest {
    pub method: &'static str,
    /// The route as the template declares it, e.g. `/api/transactions/{id}`.
    pub route: &'static str,
    /// Path parameters, in the route's order.
    pub params: Vec<(&'static str, String)>,
    pub query: Vec<(&'static str, String)>,
    pub bearer: Option<String>,
    pub json: Option<Value>,
}

impl ApiRequest {
    pub fn new(method: &'static str, route: &'static str) -> Self {
        Self {
            method,
            route,
            params: vec![],
            query: vec![],
            bearer: None,
            json: None,
        }
    }

    pub fn param(mut self, name: &'static str, value: impl ToString) -> Self {
        self.params.push((name, value.to_string()));
        self
    }

    pub fn query(mut self, name: &'static str, value: impl ToString) -> Self {
        self.query.push((name, value.to_string()));
        self
    }

    pub fn bearer(mut self, token: &str) -> Self {
        self.bearer = Some(token.to_owned());
        self
    }

    pub fn json(mut self, body: Value) -> Self {
        self.json = Some(body);
        self
    }

    /// The path the client asked for: the route with its parameters filled in.
    pub fn path(&self) -> String {
        self.params
            .iter()
            .fold(self.route.to_owned(), |path, (name, value)| {
                path.replace(&format!("{{{name}}}"), &encode(value))
            })
    }

    /// `METHOD /path` with the parameters filled in, for tables.
    pub fn label(&self) -> String {
        format!("{} {}", self.method, self.route)
    }

    /// The event API Gateway sends for this request. `request_number` varies the ids.
    pub fn event(&self, request_number: u64, epoch_ms: i64) -> Value {
        let path = self.path();
        let raw_query = self
            .query
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let trace = format!("Root=1-{:08x}-{:024x}", epoch_ms / 1000, request_number);
        let mut headers = Map::new();
        let mut header = |name: &str, value: String| {
            headers.insert(name.to_owned(), Value::String(value));
        };
        header("accept", "application/json".into());
        header("host", DOMAIN.into());
        header("user-agent", USER_AGENT.into());
        header("x-amzn-trace-id", trace);
        header("x-forwarded-for", SOURCE_IP.into());
        header("x-forwarded-port", "443".into());
        header("x-forwarded-proto", "https".into());
        if let Some(token) = &self.bearer {
            header("authorization", format!("Bearer {token}"));
        }
        let body = self.json.as_ref().map(Value::to_string);
        let length = body.as_ref().map_or(0, String::len);
        header("content-length", length.to_string());
        if body.is_some() {
            header("content-type", "application/json".into());
        }
        let route_key = format!("{} {}", self.method, self.route);
        let request_id = format!("bench{request_number:011}=");
        let mut event = json!({
            "version": "2.0",
            "routeKey": route_key,
            "rawPath": path,
            "rawQueryString": raw_query,
            "headers": headers,
            "requestContext": {
                "accountId": "123456789012",
                "apiId": API_ID,
                "domainName": DOMAIN,
                "domainPrefix": API_ID,
                "http": {
                    "method": self.method,
                    "path": path,
                    "protocol": "HTTP/1.1",
                    "sourceIp": SOURCE_IP,
                    "userAgent": USER_AGENT,
                },
                "requestId": request_id,
                "routeKey": route_key,
                "stage": "$default",
                "time": clf_time(epoch_ms),
                "timeEpoch": epoch_ms,
            },
            "isBase64Encoded": false,
        });
        if !self.query.is_empty() {
            // Repeated names are joined with commas, as API Gateway does.
            let mut params = Map::new();
            for (k, v) in &self.query {
                match params.get_mut(*k) {
                    Some(Value::String(s)) => {
                        s.push(',');
                        s.push_str(v);
                    }
                    _ => {
                        params.insert((*k).to_owned(), Value::String(v.clone()));
                    }
                }
            }
            event["queryStringParameters"] = Value::Object(params);
        }
        if !self.params.is_empty() {
            let params: Map<String, Value> = self
                .params
                .iter()
                .map(|(k, v)| ((*k).to_owned(), Value::String(v.clone())))
                .collect();
            event["pathParameters"] = Value::Object(params);
        }
        if let Some(body) = body {
            event["body"] = Value::String(body);
        }
        event
    }
}

/// Percent-encodes what may not stand in a path segment or query value.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// `21/Apr/2020:15:08:21 +0000`, API Gateway's `requestContext.time`.
fn clf_time(epoch_ms: i64) -> String {
    let at = time::OffsetDateTime::from_unix_timestamp(epoch_ms / 1000)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    let format = time::macros::format_description!(
        "[day]/[month repr:short]/[year]:[hour]:[minute]:[second] +0000"
    );
    at.format(&format).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lambda_http::request::{LambdaRequest, RequestContext};
    use lambda_http::RequestExt;

    fn as_lambda_http_sees_it(event: Value) -> lambda_http::Request {
        let parsed: LambdaRequest = serde_json::from_value(event).expect("a Lambda event");
        assert!(
            matches!(parsed, LambdaRequest::ApiGatewayV2(_)),
            "read as an HTTP API (v2) event"
        );
        parsed.into()
    }

    #[test]
    fn lambda_http_reads_the_event_as_the_request_that_was_built() {
        let request = ApiRequest::new("PUT", "/api/transactions/{id}")
            .param("id", 42)
            .query("tag", "a b")
            .query("tag", "c")
            .bearer("tok")
            .json(json!({"amount": "1.50"}));
        let event = request.event(7, 1_587_481_701_067);
        assert_eq!(
            event["requestContext"]["time"],
            "21/Apr/2020:15:08:21 +0000"
        );
        assert_eq!(event["queryStringParameters"]["tag"], "a b,c");

        let http = as_lambda_http_sees_it(event);
        assert_eq!(http.method(), "PUT");
        assert_eq!(http.uri().path(), "/api/transactions/42");
        assert_eq!(http.uri().query(), Some("tag=a%20b&tag=c"));
        assert_eq!(http.headers()["authorization"], "Bearer tok");
        assert_eq!(http.headers()["content-type"], "application/json");
        assert_eq!(
            http.path_parameters().first("id"),
            Some("42"),
            "path parameters"
        );
        let body = std::str::from_utf8(http.body().as_ref())
            .unwrap()
            .to_owned();
        assert_eq!(body, r#"{"amount":"1.50"}"#);
        match http.request_context() {
            RequestContext::ApiGatewayV2(c) => {
                assert_eq!(c.http.source_ip.as_deref(), Some(SOURCE_IP));
                assert_eq!(c.stage.as_deref(), Some("$default"));
            }
            other => panic!("not an HTTP API context: {other:?}"),
        }
    }

    #[test]
    fn a_get_without_body_or_query_has_neither() {
        let event = ApiRequest::new("GET", "/api/wallet").event(1, 0);
        assert!(event.get("body").is_none());
        assert!(event.get("queryStringParameters").is_none());
        assert!(event.get("pathParameters").is_none());
        assert_eq!(event["headers"]["content-length"], "0");
        let http = as_lambda_http_sees_it(event);
        assert_eq!(http.uri().path(), "/api/wallet");
        assert!(http.headers().get("authorization").is_none());
        assert!(http.body().is_empty());
    }
}
