//! Standard input and output as JSON-RPC messages: a reader thread parses what arrives (as
//! `lsp_server` does), and a writer thread writes answers that the main loop already wrote as
//! JSON text. An answer goes from the ide's values to its JSON text directly: a 4,999-item
//! completion list or a 5,000-step outline built as a `serde_json::Value` first took several
//! times the text's size, which the allocator then kept (docs/perf.md, "Language server memory").

use std::io::{self, Write};
use std::thread;

use crossbeam_channel::{bounded, Receiver, Sender};
use lsp_server::{Message, RequestId};
use serde::Serialize;

use super::framing::{self, Incoming};

/// One message to write, already JSON text.
pub struct Outgoing(String);

impl Outgoing {
    /// A message of `lsp_server`'s (notifications, errors, requests to the client).
    pub fn message(message: &Message) -> Outgoing {
        #[derive(Serialize)]
        struct JsonRpc<'a> {
            jsonrpc: &'static str,
            #[serde(flatten)]
            message: &'a Message,
        }
        let text = serde_json::to_string(&JsonRpc {
            jsonrpc: "2.0",
            message,
        });
        Outgoing(text.unwrap_or_default())
    }

    /// The answer to a message that is not JSON-RPC (its id unknown: `null`).
    pub fn invalid(code: i32, reason: &str) -> Outgoing {
        let text = serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {"code": code, "message": reason},
        });
        Outgoing(text.to_string())
    }

    /// A message already written as JSON text.
    pub fn text(text: String) -> Outgoing {
        Outgoing(text)
    }

    /// A notification, its parameters written straight into the message.
    pub fn notification(method: &str, params: &impl Serialize) -> Outgoing {
        #[derive(Serialize)]
        struct Notify<'a, P> {
            jsonrpc: &'static str,
            method: &'a str,
            params: &'a P,
        }
        let text = serde_json::to_string(&Notify {
            jsonrpc: "2.0",
            method,
            params,
        });
        Outgoing(text.unwrap_or_default())
    }

    /// The successful answer to request `id`: `result` written straight into the message.
    pub fn result(id: &RequestId, result: &impl Serialize) -> serde_json::Result<Outgoing> {
        #[derive(Serialize)]
        struct Answer<'a, R> {
            jsonrpc: &'static str,
            id: &'a RequestId,
            result: &'a R,
        }
        serde_json::to_string(&Answer {
            jsonrpc: "2.0",
            id,
            result,
        })
        .map(Outgoing)
    }
}

/// The two ends the main loop uses.
pub struct Transport {
    pub sender: Sender<Outgoing>,
    pub receiver: Receiver<Message>,
}

impl Transport {
    /// Returns once every message sent before has been written and flushed (the channel hands
    /// a message over only when the writer is back for the next one).
    pub fn flushed(&self) {
        let _ = self.sender.send(Outgoing(String::new()));
    }
}

/// The reader and writer threads, to join once the main loop is done.
pub struct Threads {
    reader: thread::JoinHandle<io::Result<()>>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl Threads {
    pub fn join(self) -> io::Result<()> {
        let read = self
            .reader
            .join()
            .map_err(|_| io::Error::other("the reader panicked"))?;
        let written = self
            .writer
            .join()
            .map_err(|_| io::Error::other("the writer panicked"))?;
        read.and(written)
    }
}

/// How many messages the reader may hold for the loop.
const READ_AHEAD: usize = 64;

/// Messages from standard input, answers to standard output.
pub fn stdio() -> (Transport, Threads) {
    let (to_writer, outgoing) = bounded::<Outgoing>(0);
    let writer = thread::spawn(move || {
        let stdout = io::stdout();
        let mut stdout = stdout.lock();
        for Outgoing(text) in outgoing {
            if text.is_empty() {
                // A barrier (`Transport::flushed`): everything before it is written.
                continue;
            }
            write!(stdout, "Content-Length: {}\r\n\r\n", text.len())?;
            stdout.write_all(text.as_bytes())?;
            stdout.flush()?;
        }
        Ok(())
    });
    // Read ahead: the loop sees what has arrived (cancellations above all) before it takes the
    // next request. With no room, at most one message waited, and a request was worked through
    // before its cancellation, written just after it, was read.
    let (from_reader, incoming) = bounded::<Message>(READ_AHEAD);
    let answer_invalid = to_writer.clone();
    let reader = thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        loop {
            let message = match framing::read(&mut stdin) {
                Ok(Some(Incoming::Message(message))) => message,
                Ok(Some(Incoming::Invalid { code, reason })) => {
                    // JSON-RPC answers a message it cannot read with id `null`; the stream is
                    // still in step, so the next message is read.
                    let _ = answer_invalid.send(Outgoing::invalid(code, &reason));
                    continue;
                }
                Ok(None) => return Ok(()),
                Err(error) => {
                    eprintln!(
                        "error: logicmd lsp: the input is not LSP messages any more: {error}"
                    );
                    return Err(error);
                }
            };
            let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
            if from_reader.send(message).is_err() || exit {
                return Ok(());
            }
        }
    });
    let transport = Transport {
        sender: to_writer,
        receiver: incoming,
    };
    (transport, Threads { reader, writer })
}
