//! The harness of the browser tests: the server as a child process on a free port, and headless
//! Chromium driven through chromedriver (WebDriver), with waits on conditions and deadlines,
//! never fixed sleeps.
//!
//! Chromium and chromedriver are Debian's (`apt-get install chromium chromium-driver`; `.ci/run`
//! installs them). With `PUZZLES_WEB_SHOTS=DIR`, the tests save screenshots there, at desktop
//! and phone widths, to be looked at.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::Value;

/// One browser test at a time: each runs a server, a chromedriver and a Chromium, which share two
/// cores with everything else.
pub static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A child process killed when dropped.
pub struct Child_(Child);

impl Drop for Child_ {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The server, on a free port of 127.0.0.1.
pub struct Server {
    _child: Child_,
    /// `http://127.0.0.1:PORT/`
    pub url: String,
}

impl Server {
    /// Starts `puzzles-web --addr 127.0.0.1:0` and reads the address it prints.
    pub fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_puzzles-web"))
            .args(["--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let stdout = child.stdout.take().expect("a piped stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server prints its address");
        let url = line
            .trim()
            .strip_prefix("puzzles-web: open ")
            .unwrap_or_else(|| panic!("expected the address, found {line:?}"))
            .to_string();
        Server {
            _child: Child_(child),
            url,
        }
    }
}

/// The browser: chromedriver, the WebDriver session, and Chromium's profile directory.
pub struct Browser {
    pub client: Client,
    _driver: Child_,
    _profile: tempfile::TempDir,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// The program, from the `PATH` or `/usr/bin`.
fn program(name: &str) -> PathBuf {
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(name))
        .find(|p| p.is_file());
    found.unwrap_or_else(|| {
        panic!("{name} is not installed: apt-get install -y chromium chromium-driver")
    })
}

impl Browser {
    /// Headless Chromium at 1280 x 900, through a chromedriver of its own.
    pub async fn start() -> Browser {
        let chromium = program("chromium");
        let driver = program("chromedriver");
        let port = free_port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = Child_(child);
        let profile = tempfile::tempdir().expect("a profile directory");
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,900",
        ]
        .map(String::from)
        .into_iter()
        .chain([format!("--user-data-dir={}", profile.path().display())])
        .collect::<Vec<_>>();
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({ "binary": chromium, "args": args }),
        );
        let webdriver = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(30);
        let client = loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match ClientBuilder::new(connector)
                .capabilities(caps.clone())
                .connect(&webdriver)
                .await
            {
                Ok(client) => break client,
                Err(e) if Instant::now() < deadline => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("no WebDriver session within 30 s: {e}"),
            }
        };
        Browser {
            client,
            _driver: driver,
            _profile: profile,
        }
    }

    /// Runs `script` (a function body that returns a value) in the page.
    pub async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("the script failed: {e}\n{script}"))
    }

    /// Waits until `condition` (a JavaScript expression) is truthy, polling, for at most
    /// `within`; panics naming `what` at the deadline.
    pub async fn wait(&self, condition: &str, within: Duration, what: &str) {
        let deadline = Instant::now() + within;
        let script =
            format!("try {{ return Boolean({condition}); }} catch (e) {{ return false; }}");
        loop {
            if self.js(&script).await == Value::Bool(true) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: not within {within:?} ({condition})"
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// Clicks the element `css` matches (a real WebDriver click).
    pub async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
    }

    /// Chooses `value` in the `select` with id `id`, as a person would (a change event follows).
    pub async fn select(&self, id: &str, value: &str) {
        self.client
            .find(Locator::Css(&format!("#{id}")))
            .await
            .unwrap_or_else(|e| panic!("no select #{id}: {e}"))
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("cannot select {value} in #{id}: {e}"));
    }

    /// The text of the element `css` matches.
    pub async fn text(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
            .text()
            .await
            .unwrap_or_else(|e| panic!("no text in {css}: {e}"))
    }

    /// With `PUZZLES_WEB_SHOTS=DIR`, saves the page as `DIR/NAME-desktop.png` and, at a phone's
    /// width (390 x 844), `DIR/NAME-phone.png`.
    pub async fn shots(&self, name: &str) {
        let Some(dir) = std::env::var_os("PUZZLES_WEB_SHOTS") else {
            return;
        };
        let dir = Path::new(&dir);
        std::fs::create_dir_all(dir).expect("the screenshots' directory");
        for (size, (w, h)) in [("desktop", (1280, 900)), ("phone", (390, 844))] {
            self.client
                .set_window_size(w, h)
                .await
                .expect("a window size");
            // A resize is drawn at the next frame.
            self.js("return await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));")
                .await;
            let png = self.client.screenshot().await.expect("a screenshot");
            std::fs::write(dir.join(format!("{name}-{size}.png")), png).expect("a screenshot file");
        }
        self.client
            .set_window_size(1280, 900)
            .await
            .expect("a window size");
    }

    /// Ends the WebDriver session (Chromium quits).
    pub async fn close(self) {
        let Browser {
            client,
            _driver,
            _profile,
        } = self;
        let _ = client.close().await;
    }
}
