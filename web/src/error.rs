//! The error every route answers a fault with: an HTTP status and `{"error": "one line"}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// A fault, told to the client as `{"error": message}` with `status`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    /// One lowercase line saying what was expected.
    pub message: String,
}

impl ApiError {
    /// The request is wrong: 400.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// No game with that id: never made, finished long ago, or dropped.
    #[must_use]
    pub fn no_game() -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: "no such game: it was never started here, or it was dropped after an hour \
                      untouched; start a new one"
                .into(),
        }
    }

    /// The request is right but not now: 409.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: message.into(),
        }
    }

    /// Every worker stayed busy for the whole wait: 503.
    #[must_use]
    pub fn busy() -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: "the server is busy: try again in a moment".into(),
        }
    }

    /// A fault of the server's own (a worker panicked): 500.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}
