"""The built-in OpenAI-compatible provider (OpenAI, Ollama, llama.cpp server, vLLM, LM Studio):
the core's sans-IO protocol (``logicmd::run::openai::Client``: the request body, headers, what
an answer or an error status means, the key's guard) over the standard library's HTTP client.

Why ``urllib``: it is in every Python, so ``pip install logicmd`` pulls in nothing else and the
provider works in any environment a framework runs in; each call runs in a worker thread, so
the run's model calls still go concurrently (up to its parallelism). The protocol, not the
transport, decides everything a server's answer means, as in the CLI.

The API key is read from the environment (``OPENAI_API_KEY``, or the variable ``api_key_env``
names) unless given, is kept only inside the native protocol object, and goes nowhere but the
``Authorization`` header: not into a repr, an error, an observation or the trace."""

from __future__ import annotations

import os
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Optional, Tuple, Union

from . import _args, _logicmd
from ._types import Action, ModelRequest, Observation

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
BASE_URL_ENV = "OPENAI_BASE_URL"
DEFAULT_TIMEOUT_S = 120.0
"""A model call's time limit when its step sets none (local models on a CPU are slow)."""

_ANSWER_LIMIT = 16 * 1024 * 1024
_ERROR_BODY_LIMIT = 64 * 1024


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A POST is not re-sent elsewhere: a redirect is an error status the protocol reads."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class ProviderError(RuntimeError):
    """A model call through the provider failed (when it is called directly, not by a run)."""


class OpenAIProvider:
    """Answers a run's model calls from an OpenAI-compatible chat completions server.

    ``base_url``: the part before ``/chat/completions`` (else ``$OPENAI_BASE_URL``, then
    OpenAI's). ``model``: the model to ask, over any ``model`` the document names (like
    ``logicmd run --model``). ``api_key``: else the environment variable ``api_key_env``
    (default ``OPENAI_API_KEY``); none set sends no key (local servers need none).
    ``timeout``: seconds per call when the step sets no ``timeout``."""

    def __init__(
        self,
        *,
        base_url: Optional[str] = None,
        model: Optional[str] = None,
        api_key: Optional[str] = None,
        api_key_env: str = DEFAULT_API_KEY_ENV,
        timeout: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        base = _args.optional_text(base_url, "base_url") or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL
        parts = urllib.parse.urlsplit(base.rstrip("/"))
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"base_url must be an http(s) URL, got {_shown(base)!r}")
        key = api_key if api_key is not None else os.environ.get(_args.text(api_key_env, "api_key_env"))
        if not (isinstance(timeout, (int, float)) and timeout > 0):
            raise ValueError(f"timeout must be a number of seconds > 0, got {timeout!r}")
        self.base_url = _shown(base.rstrip("/"))
        self.model = _args.optional_text(model, "model")
        self.timeout = float(timeout)
        self._endpoint = base.rstrip("/") + "/chat/completions"
        self._protocol = _logicmd.OpenAIProtocol(self.model, self.model is not None, key or None)
        self._opener = urllib.request.build_opener(_NoRedirects())

    def observe(self, action: Action) -> Observation:
        """Carries out a ``call_model`` action: the model's answer or the failure the step's
        policy reacts to, with the key in no failure and an answer holding the key refused."""
        timeout_ms = action.get("timeout_ms") or int(self.timeout * 1000)
        payload = _args.to_json(action, "action")
        started = time.monotonic()
        for _ in range(2):  # the second only after the server refused `response_format`
            call, failure = self._protocol.prepare(payload)
            if call is None:
                return _observation(failure)
            left = timeout_ms / 1000 - (time.monotonic() - started)
            if left <= 0:
                return _observation(self._protocol.no_answer("timeout", "", timeout_ms))
            exchanged = self._exchange(call, left, timeout_ms)
            latency_ms = int((time.monotonic() - started) * 1000)
            if isinstance(exchanged, str):
                return _observation(exchanged)
            status, body, retry_after, retry_after_ms = exchanged
            if 200 <= status < 300:
                return _observation(self._protocol.completion(body, latency_ms))
            failed = self._protocol.http_error(
                call, status, body, retry_after, retry_after_ms, int(time.time() * 1000)
            )
            if failed is not None:
                return _observation(failed)
        return _observation(
            self._protocol.no_answer(
                "invalid", "the server refused the request with and without `response_format`"
            )
        )

    def __call__(self, request: ModelRequest) -> str:
        """The answer's text to one model request (for :func:`logicmd.next_action` and other
        direct uses); raises :class:`ProviderError` when the call fails."""
        action = {"id": "a1", "action": "call_model", "node": "request", "attempt": 1, "request": request}
        observation = self.observe(action)  # type: ignore[arg-type]
        if observation.get("observation") == "model_response":
            return str(observation.get("text", ""))
        raise ProviderError(f"{observation.get('kind')}: {observation.get('message')}")

    def _exchange(
        self, call: Any, left_s: float, timeout_ms: int
    ) -> Union[str, Tuple[int, bytes, Optional[str], Optional[str]]]:
        """One request: ``(status, body, Retry-After, Retry-After-Ms)``, or the failure
        observation (JSON) when no answer came."""
        request = urllib.request.Request(self._endpoint, data=call.body.encode("utf-8"), method="POST")
        for name, value in self._protocol.headers(call):
            request.add_header(name, value)
        try:
            with self._opener.open(request, timeout=left_s) as response:
                body = response.read(_ANSWER_LIMIT + 1)
                if len(body) > _ANSWER_LIMIT:
                    return self._protocol.no_answer("invalid", f"the answer is larger than {_ANSWER_LIMIT} bytes")
                return response.status, body, None, None
        except urllib.error.HTTPError as error:
            body = error.read(_ERROR_BODY_LIMIT) if error.fp is not None else b""
            headers = error.headers
            return (
                error.code,
                body,
                headers.get("retry-after") if headers else None,
                headers.get("retry-after-ms") if headers else None,
            )
        except TimeoutError:
            return self._protocol.no_answer("timeout", "", timeout_ms)
        except urllib.error.URLError as error:
            if isinstance(error.reason, TimeoutError):
                return self._protocol.no_answer("timeout", "", timeout_ms)
            return self._failure(f"could not reach {self.base_url}: {error.reason}")
        except (ConnectionError, OSError) as error:
            return self._failure(f"{self.base_url} closed the connection before answering ({error})")

    def _failure(self, detail: str) -> str:
        return str(self._protocol.no_answer("connection", self._protocol.redact(detail)))

    def __repr__(self) -> str:
        return f"OpenAIProvider(base_url={self.base_url!r}, model={self.model!r}, api_key=<hidden>)"


def _observation(text: Optional[str]) -> Observation:
    observation: Observation = _args.from_json(text or "null")
    return observation


def _shown(url: str) -> str:
    """``url`` without a user or password."""
    parts = urllib.parse.urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))


__all__ = ["OpenAIProvider", "ProviderError", "DEFAULT_BASE_URL"]
