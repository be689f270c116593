//! The page: plain HTML, CSS and JavaScript modules from `web/static/`, built into the binary.

use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// The files served under `/static/`, with their content types.
pub const FILES: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../static/style.css"),
    ),
    ("main.js", JS, include_str!("../static/main.js")),
    ("api.js", JS, include_str!("../static/api.js")),
    ("board.js", JS, include_str!("../static/board.js")),
    ("mines.js", JS, include_str!("../static/mines.js")),
    ("quarto.js", JS, include_str!("../static/quarto.js")),
    ("solvers.js", JS, include_str!("../static/solvers.js")),
    ("stats.js", JS, include_str!("../static/stats.js")),
];

const JS: &str = "text/javascript; charset=utf-8";

/// The page's HTML.
pub const INDEX: &str = include_str!("../static/index.html");

/// Nothing is loaded from elsewhere: scripts, styles and requests stay on this server.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; \
                      script-src 'self'; object-src 'none'; base-uri 'none'";

fn page(content_type: &'static str, body: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(POLICY),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// `GET /`: the page.
pub async fn index() -> Response {
    page("text/html; charset=utf-8", INDEX)
}

/// `GET /static/{name}`: one of [`FILES`].
pub async fn file(Path(name): Path<String>) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some(&(_, content_type, body)) => page(content_type, body),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}
