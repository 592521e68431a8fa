//! A scripted OpenAI-compatible server on 127.0.0.1 for the provider's tests: a real HTTP/1.1
//! server (std `TcpListener`, a thread per connection, keep-alive) that answers each request
//! with the next reply of its script — JSON, a chunked SSE stream, an error status with its
//! headers, a slow answer, a stream cut midway, a closed socket — and records every request
//! (method, path, headers, body) so tests can assert what was sent. It stops when dropped, and
//! by itself after a minute without a request, so a failing test never leaves it running.

#![allow(dead_code)] // each test uses a different part

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long the server waits for a request before it stops by itself.
const IDLE_LIMIT: Duration = Duration::from_secs(60);
/// How long a connection waits for its next request.
const READ_LIMIT: Duration = Duration::from_secs(10);

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A status, extra headers and a body (sent with `Content-Length`).
    Body {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// `text/event-stream`, chunked: each piece written and flushed on its own, `pause` apart.
    /// `cut`: the socket closes after the pieces, without the chunked terminator.
    Stream {
        pieces: Vec<String>,
        pause: Duration,
        cut: bool,
    },
    /// 401 whose message echoes the bearer token the request carried.
    EchoKey,
    /// Waits, then answers.
    Slow(Duration, Box<Reply>),
    /// Reads the request and closes the socket without a word.
    Close,
}

/// A request as the server received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// Lower-cased names.
    pub headers: Vec<(String, String)>,
    pub body: Value,
    /// When it arrived.
    pub at: Instant,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Makes the reply to a request from the request itself.
pub type Responder = dyn Fn(&Recorded) -> Reply + Send + Sync;

struct Shared {
    script: Mutex<VecDeque<Reply>>,
    /// When set, answers every request instead of the script.
    responder: Option<Box<Responder>>,
    /// Requests being answered right now, and the most there ever were at once.
    active: std::sync::atomic::AtomicUsize,
    most_active: std::sync::atomic::AtomicUsize,
    requests: Mutex<Vec<Recorded>>,
    stop: AtomicBool,
    connections: std::sync::atomic::AtomicUsize,
    last_activity: Mutex<Instant>,
}

pub struct Loopback {
    address: SocketAddr,
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

impl Loopback {
    pub fn start(script: Vec<Reply>) -> Loopback {
        Loopback::serve(script, None)
    }

    /// A server that answers each request with what `responder` makes of it.
    pub fn answering(responder: impl Fn(&Recorded) -> Reply + Send + Sync + 'static) -> Loopback {
        Loopback::serve(Vec::new(), Some(Box::new(responder)))
    }

    fn serve(script: Vec<Reply>, responder: Option<Box<Responder>>) -> Loopback {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port is free");
        let address = listener.local_addr().expect("the listener has an address");
        let shared = Arc::new(Shared {
            script: Mutex::new(script.into()),
            responder,
            active: std::sync::atomic::AtomicUsize::new(0),
            most_active: std::sync::atomic::AtomicUsize::new(0),
            requests: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
            connections: std::sync::atomic::AtomicUsize::new(0),
            last_activity: Mutex::new(Instant::now()),
        });
        let for_acceptor = Arc::clone(&shared);
        let acceptor = thread::spawn(move || accept(listener, for_acceptor));
        let for_watcher = Arc::clone(&shared);
        let watcher = thread::spawn(move || watch(address, for_watcher));
        Loopback {
            address,
            shared,
            threads: vec![acceptor, watcher],
        }
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.address)
    }

    /// Every request so far, in the order they were answered.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared
            .requests
            .lock()
            .map(|r| r.clone())
            .unwrap_or_default()
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> usize {
        self.shared.connections.load(Ordering::SeqCst)
    }

    /// The most requests that were being answered at the same moment.
    pub fn most_at_once(&self) -> usize {
        self.shared.most_active.load(Ordering::SeqCst)
    }

    /// Replies not yet used.
    pub fn unused(&self) -> usize {
        self.shared.script.lock().map(|s| s.len()).unwrap_or(0)
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        stop(self.address, &self.shared);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Accepts connections until told to stop (a connection to itself wakes it).
fn accept(listener: TcpListener, shared: Arc<Shared>) {
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            return;
        }
        if let Ok(stream) = stream {
            shared.connections.fetch_add(1, Ordering::SeqCst);
            let shared = Arc::clone(&shared);
            thread::spawn(move || serve(stream, shared));
        }
    }
}

/// Stops the server after [`IDLE_LIMIT`] without a request, whatever the test does.
fn watch(address: SocketAddr, shared: Arc<Shared>) {
    while !shared.stop.load(Ordering::SeqCst) {
        thread::sleep(Duration::from_millis(50));
        let idle = shared
            .last_activity
            .lock()
            .map(|t| t.elapsed())
            .unwrap_or_default();
        if idle > IDLE_LIMIT {
            stop(address, &shared);
        }
    }
}

fn stop(address: SocketAddr, shared: &Shared) {
    if !shared.stop.swap(true, Ordering::SeqCst) {
        let _ = TcpStream::connect_timeout(&address, Duration::from_secs(1));
    }
}

/// Answers requests on one connection until it closes (or a reply closes it).
fn serve(stream: TcpStream, shared: Arc<Shared>) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(READ_LIMIT));
    let _ = stream.set_nodelay(true);
    let Ok(write_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    let mut writer = write_half;
    while let Some(request) = read_request(&mut reader) {
        if let Ok(mut last) = shared.last_activity.lock() {
            *last = Instant::now();
        }
        let now = shared.active.fetch_add(1, Ordering::SeqCst) + 1;
        shared.most_active.fetch_max(now, Ordering::SeqCst);
        // Taking the reply and recording the request under one lock keeps them in step.
        let reply = {
            let Ok(mut script) = shared.script.lock() else {
                return;
            };
            if let Ok(mut requests) = shared.requests.lock() {
                requests.push(request.clone());
            }
            match &shared.responder {
                Some(responder) => Some(responder(&request)),
                None => script.pop_front(),
            }
        };
        let reply = reply.unwrap_or_else(|| Reply::Body {
            status: 500,
            headers: Vec::new(),
            body: json!({"error": {"message": "the loopback script has no reply left"}})
                .to_string(),
        });
        let open = answer(&mut writer, &request, reply, &shared.stop);
        shared.active.fetch_sub(1, Ordering::SeqCst);
        if !open {
            return;
        }
    }
}

/// One request, or `None` at the end of the connection.
fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Recorded> {
    let mut line = String::new();
    reader.read_line(&mut line).ok().filter(|n| *n > 0)?;
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next()?.to_owned(), parts.next()?.to_owned());
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok().filter(|n| *n > 0)?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Recorded {
        method,
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        at: Instant::now(),
    })
}

/// Writes `reply`; `false` when the connection is to close.
fn answer(writer: &mut TcpStream, request: &Recorded, reply: Reply, stop: &AtomicBool) -> bool {
    match reply {
        Reply::Body {
            status,
            headers,
            body,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
                reason(status),
                body.len()
            );
            for (name, value) in headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            writer.write_all(head.as_bytes()).is_ok()
                && writer.write_all(body.as_bytes()).is_ok()
                && writer.flush().is_ok()
        }
        Reply::EchoKey => {
            let token = request
                .header("authorization")
                .and_then(|v| v.strip_prefix("Bearer "))
                .unwrap_or("(none)");
            let body = json!({"error": {
                "message": format!("Incorrect API key provided: {token}. You can find your API key at your account page."),
                "type": "invalid_request_error",
                "code": "invalid_api_key"
            }})
            .to_string();
            answer(
                writer,
                request,
                Reply::Body {
                    status: 401,
                    headers: Vec::new(),
                    body,
                },
                stop,
            )
        }
        Reply::Stream { pieces, pause, cut } => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n";
            if writer.write_all(head.as_bytes()).is_err() {
                return false;
            }
            for piece in pieces {
                if stop.load(Ordering::SeqCst) {
                    return false;
                }
                let chunk = format!("{:x}\r\n{piece}\r\n", piece.len());
                if writer.write_all(chunk.as_bytes()).is_err() || writer.flush().is_err() {
                    return false;
                }
                thread::sleep(pause);
            }
            if cut {
                let _ = writer.shutdown(std::net::Shutdown::Both);
                return false;
            }
            writer.write_all(b"0\r\n\r\n").is_ok() && writer.flush().is_ok()
        }
        Reply::Slow(delay, then) => {
            let until = Instant::now() + delay;
            while Instant::now() < until && !stop.load(Ordering::SeqCst) {
                thread::sleep(Duration::from_millis(5));
            }
            answer(writer, request, *then, stop)
        }
        Reply::Close => {
            let _ = writer.shutdown(std::net::Shutdown::Both);
            false
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

// Replies as compatible servers write them.

/// A whole chat completion whose content is `content`.
pub fn completion(content: &str) -> Reply {
    Reply::Body {
        status: 200,
        headers: Vec::new(),
        body: json!({
            "id": "chatcmpl-loopback",
            "object": "chat.completion",
            "model": "loopback",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
        })
        .to_string(),
    }
}

/// The SSE events of a streamed answer made of `parts`, with a final usage chunk and
/// `[DONE]`, one event a piece.
pub fn stream_events(parts: &[&str]) -> Vec<String> {
    let chunk = |delta: Value, finish: Value| {
        format!(
            "data: {}\n\n",
            json!({"id": "chatcmpl-loopback", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        )
    };
    let mut events = vec![chunk(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
    )];
    for part in parts {
        events.push(chunk(json!({"content": part}), Value::Null));
    }
    events.push(chunk(json!({}), json!("stop")));
    events.push(format!(
        "data: {}\n\n",
        json!({"id": "chatcmpl-loopback", "object": "chat.completion.chunk", "choices": [], "usage": {"prompt_tokens": 11, "completion_tokens": parts.len()}})
    ));
    events.push("data: [DONE]\n\n".to_owned());
    events
}

/// A streamed answer made of `parts`.
pub fn streamed(parts: &[&str]) -> Reply {
    Reply::Stream {
        pieces: stream_events(parts),
        pause: Duration::ZERO,
        cut: false,
    }
}

/// `content` streamed in pieces of at most `size` characters.
pub fn streamed_text(content: &str, size: usize) -> Reply {
    let chars: Vec<char> = content.chars().collect();
    let parts: Vec<String> = chars
        .chunks(size.max(1))
        .map(|c| c.iter().collect())
        .collect();
    streamed(&parts.iter().map(String::as_str).collect::<Vec<_>>())
}

/// An error status with an OpenAI-style body and extra headers.
pub fn error(status: u16, message: &str, headers: &[(&str, &str)]) -> Reply {
    Reply::Body {
        status,
        headers: headers
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect(),
        body: json!({"error": {"message": message, "type": "server_error"}}).to_string(),
    }
}
