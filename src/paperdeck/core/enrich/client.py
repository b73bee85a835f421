"""The one HTTP client the online sources share: timeouts, pacing, retries, Retry-After."""

from __future__ import annotations

import email.utils
import sys
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from urllib.parse import urlsplit

# httpx imports its own command-line tool (Rich, click, pygments: ~0.2 s, and Rich in the
# headless core) whenever click is installed; paperdeck never runs that tool, and httpx falls
# back to a stub when the import fails.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

import httpx  # noqa: E402

from paperdeck import __version__  # noqa: E402

TRIES = 4
"""Attempts per request: a 5xx, a timeout or a 429 is tried again, up to this many times."""
BACKOFF_SECONDS = 0.5
"""The first wait after a failed attempt; it doubles with each further attempt."""
MAX_WAIT_SECONDS = 120.0
"""A source asking for a longer wait (Retry-After) is given up on for this request."""
TIMEOUT = httpx.Timeout(15.0, connect=5.0)

Notice = Callable[[str], None]


class Unreachable(Exception):
    """The source's host could not be reached at all (no network, no DNS, refused)."""

    def __init__(self, host: str, reason: str) -> None:
        super().__init__(f"cannot reach {host} ({reason})")
        self.host = host
        self.reason = reason


class GaveUp(Exception):
    """The source answered, but not usefully, after every attempt (5xx, timeouts, 4xx)."""


class PoliteClient:
    """GETs to the scholarly APIs, each source paced, failures retried with backoff.

    Retries are a small loop rather than tenacity: the wait must come from a response's
    Retry-After header, the user must be told about each rate-limit wait, and a source's
    pacing clock must see retried requests too — three hooks that cost more than the loop.
    """

    def __init__(
        self,
        *,
        email: str | None = None,
        pacing: bool = True,
        notice: Notice = lambda message: None,
        timeout: httpx.Timeout | float = TIMEOUT,
        tries: int = TRIES,
        backoff: float = BACKOFF_SECONDS,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        contact = f" (mailto:{email})" if email else ""
        self._http = httpx.Client(
            timeout=timeout,
            headers={"User-Agent": f"paperdeck/{__version__}{contact}"},
            follow_redirects=True,
        )
        self.pacing = pacing
        self.notice = notice
        self.tries = max(1, tries)
        self.backoff = backoff
        self.sleep = sleep
        self.requests = 0
        """Requests sent (each retry counts)."""
        self._last_sent: dict[str, float] = {}

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> PoliteClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(
        self,
        label: str,
        url: str,
        params: Mapping[str, str | int],
        *,
        headers: Mapping[str, str] | None = None,
        interval: float = 0.0,
    ) -> httpx.Response:
        """A 2xx response from `url`; `interval` is the least time between two requests to
        the source called `label`. Raises Unreachable or GaveUp."""
        try:
            host = urlsplit(url).netloc or url
        except ValueError as error:  # a URL set in the environment: "http://[::1"
            raise Unreachable(url, f"not a URL: {error}") from None
        problem = "no answer"
        for attempt in range(self.tries):
            self._pace(label, interval)
            try:
                self.requests += 1
                response = self._http.get(url, params=dict(params), headers=headers)
            except (
                httpx.ConnectError,
                httpx.ConnectTimeout,
                httpx.UnsupportedProtocol,
                httpx.InvalidURL,
            ) as error:
                # No network or no such host: retrying only makes the user wait.
                raise Unreachable(host, _reason(error)) from None
            except UnicodeError:
                # The resolver's IDNA step refuses a name with a label over 63 characters.
                raise Unreachable(host, "not a valid host name") from None
            except httpx.TransportError as error:
                timed_out = isinstance(error, httpx.TimeoutException)
                problem = "timed out" if timed_out else _reason(error)
                self._back_off(attempt)
                continue
            status = response.status_code
            if status == 429 or (status == 503 and "retry-after" in response.headers):
                wait = retry_after(response.headers.get("retry-after"))
                wait = self._backoff_seconds(attempt) if wait is None else wait
                problem = "rate-limited"
                if wait > MAX_WAIT_SECONDS:
                    raise GaveUp(f"{label} rate-limited for {wait:.0f} s")
                if attempt + 1 < self.tries:
                    self.notice(f"{label} rate-limited; waiting {wait:g} s as it asks")
                    self.sleep(wait)
                continue
            if status >= 500:
                problem = f"HTTP {status}"
                self._back_off(attempt)
                continue
            if status >= 400:
                raise GaveUp(f"{label} answered HTTP {status}")
            return response
        raise GaveUp(f"{label}: {problem} after {self.tries} tries")

    def _pace(self, label: str, interval: float) -> None:
        if self.pacing and interval > 0:
            last = self._last_sent.get(label)
            if last is not None:
                wait = last + interval - time.monotonic()
                if wait > 0:
                    self.sleep(wait)
        self._last_sent[label] = time.monotonic()

    def _backoff_seconds(self, attempt: int) -> float:
        return float(self.backoff * 2**attempt)

    def _back_off(self, attempt: int) -> None:
        if attempt + 1 < self.tries:
            self.sleep(self._backoff_seconds(attempt))


def retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header: a number of seconds or an HTTP date."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _reason(error: Exception) -> str:
    text = " ".join(str(error).split())
    return text[:120] if text else type(error).__name__
