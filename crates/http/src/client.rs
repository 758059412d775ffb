//! The client's network address, for throttling: the source IP that API Gateway saw (from
//! the Lambda event's request context), or the peer address of the local server's socket.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use lambda_http::request::RequestContext;

/// A client address as throttles key it: IPv4 as is, IPv6 by its /64 (one subscriber's
/// prefix, which a client can cycle through freely).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientAddr(pub String);

impl ClientAddr {
    pub fn from_ip(ip: IpAddr) -> Self {
        match ip {
            IpAddr::V4(v4) => Self(v4.to_string()),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Self(v4.to_string()),
                None => {
                    let s = v6.segments();
                    Self(format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3]))
                }
            },
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn source_ip(context: &RequestContext) -> Option<&str> {
    match context {
        RequestContext::ApiGatewayV2(c) => c.http.source_ip.as_deref(),
        RequestContext::ApiGatewayV1(c) => c.identity.source_ip.as_deref(),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        if let Some(ip) = parts
            .extensions
            .get::<RequestContext>()
            .and_then(source_ip)
            .and_then(|ip| ip.parse::<IpAddr>().ok())
        {
            return Ok(Self::from_ip(ip));
        }
        if let Some(ConnectInfo(addr)) = parts.extensions.get::<ConnectInfo<SocketAddr>>() {
            return Ok(Self::from_ip(addr.ip()));
        }
        // Neither (an in-process call): one shared bucket, never an unthrottled one.
        Ok(Self("unknown".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_are_keyed_by_their_64_prefix() {
        let a = ClientAddr::from_ip("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = ClientAddr::from_ip("2001:db8:1:2:bbbb::9".parse().unwrap());
        assert_eq!(a, b);
        assert_eq!(a.as_str(), "2001:db8:1:2::/64");
        assert_eq!(
            ClientAddr::from_ip("::ffff:192.0.2.7".parse().unwrap()).as_str(),
            "192.0.2.7"
        );
        assert_eq!(
            ClientAddr::from_ip("192.0.2.7".parse().unwrap()).as_str(),
            "192.0.2.7"
        );
    }
}
