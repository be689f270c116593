//! The API over HTTP, without a browser: what the page may see, and the limits.

use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::Value;

use crate::browser::Server;

/// One request on its own connection: the status and the body.
fn request(server: &Server, method: &str, path: &str, body: &str) -> (u16, String) {
    let address = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/');
    let mut stream = TcpStream::connect(address).expect("the server accepts");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("a request");
    stream.write_all(body.as_bytes()).expect("a body");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    let status = answer[9..12].parse().expect("a status");
    let body = answer
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn json(server: &Server, method: &str, path: &str, body: &str) -> (u16, Value) {
    let (status, body) = request(server, method, path, body);
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

#[test]
fn the_mines_stay_on_the_server_until_the_game_ends() {
    let server = Server::start();
    let (status, game) = json(
        &server,
        "POST",
        "/api/mines/new",
        r#"{"width": 8, "height": 8, "mines": 60, "rule": "safe", "seed": 3}"#,
    );
    assert_eq!(status, 200, "{game}");
    let id = game["id"].as_str().expect("an id").to_string();
    let (_, game) = json(
        &server,
        "POST",
        &format!("/api/mines/{id}/move"),
        r#"{"action": "reveal", "x": 0, "y": 0}"#,
    );
    let cells = game["cells"].as_str().expect("cells");
    assert_eq!(game["status"], "playing", "{game}");
    assert!(!cells.contains('*') && !cells.contains('X'), "{cells}");
    assert!(
        game["three_bv"].is_null(),
        "3BV tells of the layout: {game}"
    );
    let (status, _) = request(&server, "GET", &format!("/api/mines/{id}/replay"), "");
    assert_eq!(status, 409, "the replay holds the layout");
    // Clicking every cell ends the game: then the mines are shown, and the replay given.
    for y in 0..8 {
        for x in 0..8 {
            let body = format!(r#"{{"action": "reveal", "x": {x}, "y": {y}}}"#);
            let (_, g) = json(&server, "POST", &format!("/api/mines/{id}/move"), &body);
            if g["status"] != "playing" {
                let cells = g["cells"].as_str().expect("cells");
                assert_eq!(g["status"], "lost");
                assert_eq!(cells.matches(['*', 'X']).count(), 60, "{cells}");
                let (status, text) =
                    request(&server, "GET", &format!("/api/mines/{id}/replay"), "");
                assert_eq!(status, 200);
                assert!(
                    text.starts_with("minesweeper-play replay 1\nboard 8x8/60\n"),
                    "{text}"
                );
                return;
            }
        }
    }
    panic!("60 mines in 64 cells and no loss");
}

#[test]
fn bad_requests_get_one_line_errors() {
    let server = Server::start();
    let cases = [
        (
            "POST",
            "/api/mines/new",
            r#"{"width": 1000, "height": 5, "mines": 3}"#,
            400,
            "from 1 to 100",
        ),
        (
            "POST",
            "/api/mines/new",
            r#"{"level": "master"}"#,
            400,
            "beginner",
        ),
        (
            "POST",
            "/api/mines/new",
            r#"{"width": 3, "height": 3, "mines": 9}"#,
            400,
            "mines",
        ),
        (
            "GET",
            "/api/mines/0123456789abcdef0123456789abcdef",
            "",
            404,
            "no such game",
        ),
        (
            "GET",
            "/api/mines/nonsense/analysis",
            "",
            404,
            "no such game",
        ),
        (
            "POST",
            "/api/quarto/new",
            r#"{"you": 3, "level": "perfect"}"#,
            400,
            "player 1 or 2",
        ),
        (
            "POST",
            "/api/quarto/new",
            r#"{"you": 1, "level": "human"}"#,
            400,
            "computer's level",
        ),
        ("POST", "/api/solve/maxblack", "16 3", 400, "at most 10"),
        ("POST", "/api/solve/maxblack", "9", 400, "line 1"),
        (
            "POST",
            "/api/solve/quarto",
            "0000 0000 . .\n. . . .\n. . . .\n. . . .\n0001\n",
            400,
            "line 1",
        ),
        (
            "POST",
            "/api/solve/minesweeper",
            "2x2x1\nHH\nH9\n",
            400,
            "line 3",
        ),
        (
            "POST",
            "/api/mines/replay",
            "minesweeper-play replay 2\n",
            400,
            "line 1",
        ),
    ];
    for (method, path, body, status, words) in cases {
        let (got, answer) = json(&server, method, path, body);
        let message = answer["error"].as_str().unwrap_or_default();
        assert_eq!(got, status, "{method} {path} {body}: {answer}");
        assert!(message.contains(words), "{method} {path}: {message}");
        assert!(!message.contains('\n'), "{message}");
    }
    // A body over the limit is refused before it is read.
    let big = "x".repeat(2 << 20);
    let (status, _) = request(&server, "POST", "/api/solve/minesweeper", &big);
    assert_eq!(status, 413);
}

#[test]
fn the_page_is_small_and_loads_nothing_from_elsewhere() {
    let server = Server::start();
    let (status, html) = request(&server, "GET", "/", "");
    assert_eq!(status, 200);
    let mut total = html.len();
    for name in puzzles_web::assets::FILES.iter().map(|f| f.0) {
        let (status, body) = request(&server, "GET", &format!("/static/{name}"), "");
        assert_eq!(status, 200, "{name}");
        assert!(
            !body.contains("http://") && !body.contains("https://") || name == "board.js",
            "{name} names another site"
        );
        total += body.len();
    }
    assert!(total < 200_000, "the page takes {total} bytes");
    assert!(!html.contains("//"), "the page names another site");
}
