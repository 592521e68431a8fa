//! `logicmd mcp --http [ADDR]`: Streamable HTTP at `/mcp`, on the loopback interface unless told
//! otherwise. DNS rebinding is refused twice over, as the MCP specification requires: a `Host`
//! that is not a loopback name, and any browser `Origin` but the server's own and those allowed
//! with `--allow-origin`, get 403. With a token every request must carry `Authorization: Bearer TOKEN` (401 otherwise); a
//! non-loopback address is served only with one.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Request, Response, StatusCode};
use axum::middleware::{self, Next};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::roots::Roots;
use super::server::Server;

/// Where `--http` listens when no address is given.
pub const DEFAULT_ADDRESS: &str = "127.0.0.1:8931";

pub struct Http {
    pub address: SocketAddr,
    pub token: Option<String>,
    pub allowed_origins: Vec<String>,
}

impl Http {
    /// Refuses what would expose the server: another interface without a token.
    pub fn check(&self) -> Result<(), String> {
        if !self.address.ip().is_loopback() && self.token.is_none() {
            return Err(format!(
                "{} is not a loopback address: anyone who reaches it could use the server; give \
                 --token (or LOGICMD_MCP_TOKEN) too",
                self.address
            ));
        }
        Ok(())
    }
}

pub async fn serve(
    http: Http,
    roots: Roots,
    openai: Option<crate::providers::Settings>,
) -> Result<(), String> {
    http.check()?;
    let listener = tokio::net::TcpListener::bind(http.address)
        .await
        .map_err(|error| format!("cannot listen on {}: {error}", http.address))?;
    let bound = listener
        .local_addr()
        .map_err(|error| format!("cannot listen on {}: {error}", http.address))?;
    // The server's own loopback origins are its own pages' (it serves none, and no one else
    // can listen on its port): a rebinding attack comes from another origin.
    let own =
        ["127.0.0.1", "localhost", "[::1]"].map(|host| format!("http://{host}:{}", bound.port()));
    let mut config = StreamableHttpServerConfig::default()
        .with_allowed_origins(http.allowed_origins.iter().cloned().chain(own))
        .enforce_origin_validation();
    if !http.address.ip().is_loopback() {
        // Reached by other names than the loopback ones; the token guards it.
        config = config.disable_allowed_hosts();
    }
    let service = StreamableHttpService::new(
        move || Ok(Server::new(roots.clone(), openai.clone())),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let mut router = axum::Router::new().nest_service("/mcp", service);
    if let Some(token) = http.token {
        let expected: Arc<str> = format!("Bearer {token}").into();
        router = router.layer(middleware::from_fn(move |request, next| {
            authorised(Arc::clone(&expected), request, next)
        }));
    }
    eprintln!("logicmd mcp: listening on http://{bound}/mcp");
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|error| format!("the HTTP server stopped: {error}"))
}

/// Lets a request through only with the bearer token (compared in constant time).
async fn authorised(expected: Arc<str>, request: Request<Body>, next: Next) -> Response<Body> {
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .map(|value| value.as_bytes())
        .unwrap_or_default();
    if same_bytes(given, expected.as_bytes()) {
        return next.run(request).await;
    }
    let mut refused = Response::new(Body::from("a bearer token is required"));
    *refused.status_mut() = StatusCode::UNAUTHORIZED;
    refused.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        header::HeaderValue::from_static("Bearer"),
    );
    refused
}

/// `a == b` in time that depends on their lengths only.
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_interface_needs_a_token() {
        let open = Http {
            address: "0.0.0.0:1".parse().unwrap(),
            token: None,
            allowed_origins: vec![],
        };
        assert!(open.check().is_err());
        let guarded = Http {
            token: Some("t".into()),
            ..open
        };
        assert!(guarded.check().is_ok());
        assert!(same_bytes(b"abc", b"abc"));
        assert!(!same_bytes(b"abc", b"abd"));
        assert!(!same_bytes(b"abc", b"ab"));
    }
}
