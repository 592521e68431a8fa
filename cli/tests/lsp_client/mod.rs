//! A plain JSON-RPC client of `logicmd lsp` over the real binary's standard input and output:
//! what an editor does, message by message.

#![allow(dead_code)] // each test file uses a different part

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

/// How long any one message may take before the test fails (the machine may be loaded).
const PATIENCE: Duration = Duration::from_secs(60);

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    pub notifications: Vec<Value>,
}

impl Client {
    /// Starts `logicmd lsp` and initializes it for the project at `root`.
    pub fn start(root: &Path, options: Value) -> (Client, Value) {
        Client::start_program(Path::new(env!("CARGO_BIN_EXE_logicmd")), root, options)
    }

    /// [`Client::start`] with another build of `logicmd` (a bench's before and after).
    #[allow(dead_code, reason = "used by the memory bench, not by every test")]
    pub fn start_program(program: &Path, root: &Path, options: Value) -> (Client, Value) {
        let mut client = Client::spawn(program, root);
        let root_uri = uri(root);
        let initialized = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": root_uri,
                "workspaceFolders": [{"uri": root_uri, "name": "project"}],
                "initializationOptions": options,
                "capabilities": {
                    "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}},
                    "textDocument": {"publishDiagnostics": {"relatedInformation": true}}
                }
            }),
        );
        client.notify("initialized", json!({}));
        (client, initialized)
    }

    /// `logicmd lsp` started in `directory`, not yet initialized.
    pub fn spawn(program: &Path, directory: &Path) -> Client {
        let mut child = Command::new(program)
            .arg("lsp")
            .current_dir(directory)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 0,
            notifications: Vec::new(),
        }
    }

    /// Bytes written as they are (a message an editor got wrong).
    #[allow(dead_code, reason = "used by the robustness tests, not by every test")]
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("the server reads");
        self.stdin.flush().expect("the server reads");
    }

    /// The next message the server sends.
    #[allow(dead_code, reason = "used by the robustness tests, not by every test")]
    pub fn next_message(&mut self) -> Value {
        self.next()
    }

    /// The server's exit status once it has ended by itself (`None` if it is still running
    /// after the patience: then it is killed).
    #[allow(dead_code, reason = "used by the robustness tests, not by every test")]
    pub fn exit_status(mut self) -> Option<i32> {
        let until = std::time::Instant::now() + Duration::from_secs(10);
        while std::time::Instant::now() < until {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        None
    }

    pub fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len())
            .expect("the server reads");
        self.stdin.flush().expect("the server reads");
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request with the next id; returns the id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The response to request `id` (answering the server's own requests meanwhile).
    pub fn response(&mut self, id: i64) -> Value {
        loop {
            let message = self.next();
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                return message;
            }
            self.keep(message);
        }
    }

    /// Sends a request and waits for its whole response.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.response(id)
    }

    fn next(&mut self) -> Value {
        self.messages
            .recv_timeout(PATIENCE)
            .expect("the server answers in time")
    }

    fn keep(&mut self, message: Value) {
        if message.get("method").is_some() && message.get("id").is_some() {
            // A request from the server (registering file watchers): accept it.
            let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": null});
            self.send(&reply);
        }
        self.notifications.push(message);
    }

    /// The next diagnostics published for `uri` (taken from those already received first).
    pub fn diagnostics(&mut self, uri: &str) -> Value {
        let is_for = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        };
        if let Some(at) = self.notifications.iter().position(is_for) {
            return self.notifications.remove(at)["params"].clone();
        }
        loop {
            let message = self.next();
            if is_for(&message) {
                return message["params"].clone();
            }
            self.keep(message);
        }
    }

    /// Drops the diagnostics received so far.
    pub fn forget_diagnostics(&mut self) {
        self.notifications
            .retain(|m| m["method"] != "textDocument/publishDiagnostics");
    }

    /// `shutdown`, `exit`, and the server's exit status.
    pub fn shut_down(mut self) -> (Value, Option<i32>) {
        let response = self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().expect("the server exits");
        (response, status.code())
    }

    /// The server's resident memory (Linux: `VmRSS`, in bytes).
    pub fn resident_bytes(&self) -> Option<u64> {
        self.status_bytes("VmRSS:")
    }

    /// One `/proc/PID/status` figure in bytes (`VmRSS:`, `RssAnon:`, `RssFile:`).
    pub fn status_bytes(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with(field))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// The `file://` URI of a path.
pub fn uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for byte in path.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The LSP position (line, UTF-16 column) of byte `offset` of `text`.
pub fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = text[line_start..offset].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": character})
}
