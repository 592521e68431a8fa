"""The built-in OpenAI-compatible provider against a real HTTP server on 127.0.0.1: the core's
protocol decides what is sent and what the answers mean; the key goes nowhere but the header."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Iterator, List, Tuple

import pytest

import logicmd

KEY = "sk-test-0123456789abcdefghijklmnop"
DOC = """---
spec_version: "1.0"
name: one-step
steps:
  answer:
    description: Answer the question
    output_schema:
      type: object
      required: [answer]
      properties:
        answer: { type: string }
    retry:
      max_attempts: 2
      initial_interval: 10ms
---
"""


class Server:
    def __init__(self, replies: List[Tuple[int, Dict[str, str], bytes]]) -> None:
        self.replies = replies
        self.requests: List[Tuple[Dict[str, str], Any]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length", "0"))
                owner.requests.append((dict(self.headers), json.loads(self.rfile.read(length))))
                status, headers, body = owner.replies.pop(0)
                self.send_response(status)
                for name, value in {"content-type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


@pytest.fixture
def server() -> Iterator[Server]:
    made: List[Server] = []

    def make(replies: List[Tuple[int, Dict[str, str], bytes]]) -> Server:
        made.append(Server(replies))
        return made[-1]

    yield make  # type: ignore[misc]
    for s in made:
        s.httpd.shutdown()


def completion(text: str) -> bytes:
    return json.dumps(
        {"choices": [{"message": {"role": "assistant", "content": text}}], "usage": {"prompt_tokens": 7, "completion_tokens": 3}}
    ).encode()


def test_a_run_through_the_openai_provider(server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    s = server([(200, {}, completion('{"answer": "42"}'))])
    provider = logicmd.OpenAIProvider(base_url=s.url, model="local-model")
    result = logicmd.run(DOC, {}, provider=provider)
    assert result.status == "completed" and result.output == {"answer": "42"}
    [(headers, body)] = s.requests
    assert headers["Authorization"] == f"Bearer {KEY}"
    assert body["model"] == "local-model"
    assert body["messages"][0]["role"] == "system"
    assert KEY not in result.trace_jsonl() and KEY not in repr(provider)


def test_a_rate_limit_is_waited_out_and_retried(server: Any) -> None:
    s = server(
        [
            (429, {"retry-after-ms": "20"}, b'{"error": {"message": "slow down", "type": "rate_limit"}}'),
            (200, {}, completion('{"answer": "ok"}')),
        ]
    )
    result = logicmd.run(DOC, {}, provider=logicmd.OpenAIProvider(base_url=s.url, model="m", api_key=""))
    assert result.status == "completed"
    kinds = [e["error"]["kind"] for e in result.trace if e["event"] == "model_responded" and "error" in e]
    assert kinds == ["RateLimitError"]
    assert "Authorization" not in s.requests[0][0], "an empty key sends no header"


def test_the_key_a_server_echoes_is_redacted_from_failures(server: Any) -> None:
    s = server([(401, {}, json.dumps({"error": {"message": f"bad key {KEY}"}}).encode())] * 2)
    result = logicmd.run(DOC, {}, provider=logicmd.OpenAIProvider(base_url=s.url, model="m", api_key=KEY))
    assert result.status == "failed"
    assert KEY not in result.trace_jsonl() and KEY not in (result.error or "")
    assert "[redacted]" in result.trace_jsonl()


def test_an_answer_holding_the_key_is_never_recorded(server: Any) -> None:
    s = server([(200, {}, completion(json.dumps({"answer": KEY})))] * 2)
    result = logicmd.run(DOC, {}, provider=logicmd.OpenAIProvider(base_url=s.url, model="m", api_key=KEY))
    assert result.status == "failed"
    assert KEY not in result.trace_jsonl()


def test_no_server_is_a_connection_failure_naming_it() -> None:
    provider = logicmd.OpenAIProvider(base_url="http://127.0.0.1:9/v1", model="m", api_key=KEY)
    result = logicmd.run(DOC, {}, provider=provider, no_wait=True)
    assert result.status == "failed"
    assert "127.0.0.1:9" in (result.error or "") and KEY not in (result.error or "")


def test_the_provider_is_a_plain_callable_too(server: Any) -> None:
    s = server([(200, {}, completion("hello"))])
    provider = logicmd.OpenAIProvider(base_url=s.url, model="m")
    assert provider({"system": "s", "messages": [{"role": "user", "content": "hi"}]}) == "hello"


def test_a_bad_base_url_is_refused_without_showing_a_password() -> None:
    with pytest.raises(ValueError, match="http") as raised:
        logicmd.OpenAIProvider(base_url="ftp://user:secret@host/v1")
    assert "secret" not in str(raised.value)
