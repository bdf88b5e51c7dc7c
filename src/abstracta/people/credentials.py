"""Secrets of people: password hashes, session secrets, API tokens and recovery codes.

* Passwords are hashed with Argon2id through ``pwdlib`` (argon2-cffi underneath), with its
  defaults (RFC 9106's second recommended option: 64 MiB, 3 passes, 4 lanes); the database
  holds only the PHC string (``$argon2id$v=19$m=…``). A sign-in for a name nobody has is checked
  against a dummy hash made with the same parameters, so that it takes as long as a wrong
  password (the answer does not tell which names exist).
* Session secrets (the cookie's value), API tokens and recovery codes are random with at least
  80 bits (``secrets``), shown once and stored as their SHA-256: a stolen database holds nothing
  that signs anyone in, and a secret that random needs no slow hash (GitHub stores its tokens so).
* API tokens read ``abst_`` + 40 characters (45 in all: under the 64 the server reads as a
  token), a prefix that tells them from the 22-character seat tokens.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from dataclasses import dataclass, field

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

#: the prefix of personal API tokens (``Authorization: Bearer abst_…``)
TOKEN_PREFIX = "abst_"
#: characters of a recovery code: no 0/o, 1/l/i to misread
CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
#: recovery codes made at sign-up (and when made anew)
RECOVERY_CODES = 8
#: longest password read: Argon2 takes any length, but a megabyte of one is a denial of service
MAX_PASSWORD = 1024
MIN_PASSWORD = 8


def digest(secret: str) -> str:
    """SHA-256 hex of a high-entropy secret (session secret, API token, recovery code)."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def session_secret() -> str:
    """A new session cookie value: 256 random bits, 43 URL-safe characters."""
    return secrets.token_urlsafe(32)


def api_token() -> str:
    """A new personal API token: ``abst_`` and 40 URL-safe characters (240 bits)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(30)


def is_api_token(text: str) -> bool:
    return text.startswith(TOKEN_PREFIX) and 20 <= len(text) <= 64


def public_id() -> str:
    """An id that may be shown (a session's or token's in lists): 12 URL-safe characters."""
    return secrets.token_urlsafe(9)


def recovery_code() -> str:
    """``xxxx-xxxx-xxxx-xxxx`` from :data:`CODE_ALPHABET` (31 letters: 79 bits)."""
    chars = "".join(secrets.choice(CODE_ALPHABET) for _ in range(16))
    return "-".join(chars[i:i + 4] for i in range(0, 16, 4))


def normal_code(text: str) -> str:
    """A recovery code as typed (any case, spaces or no dashes) in its stored form."""
    chars = "".join(c for c in text.lower() if c.isalnum())
    return "-".join(chars[i:i + 4] for i in range(0, len(chars), 4))


#: Argon2id computations at once (each takes 64 MiB with the defaults): more sign-ins wait their
#: turn rather than take a server's memory
CONCURRENT_HASHES = 4


@dataclass
class Passwords:
    """Hashes and checks passwords with Argon2id. ``hasher``: pwdlib's, with parameters
    (tests use light ones; the server the defaults). At most :data:`CONCURRENT_HASHES` run at
    once."""

    hasher: PasswordHash = field(default_factory=lambda: PasswordHash((Argon2Hasher(),)))

    def __post_init__(self) -> None:
        self._slots = threading.BoundedSemaphore(CONCURRENT_HASHES)
        self._dummy: str | None = None

    def dummy(self) -> str:
        """A hash of a password nobody has, checked for a name nobody has (same parameters,
        same time); made on first need."""
        if self._dummy is None:
            self._dummy = self.hash(secrets.token_urlsafe(16))
        return self._dummy

    @classmethod
    def light(cls) -> "Passwords":
        """Argon2id with small parameters (1 pass, 8 MiB): for tests, never a server."""
        return cls(PasswordHash((Argon2Hasher(time_cost=1, memory_cost=8192, parallelism=1),)))

    def hash(self, password: str) -> str:
        with self._slots:
            return self.hasher.hash(password)

    def verify(self, password: str, stored: str | None) -> bool:
        """Whether ``password`` is the one ``stored`` was made from; with ``stored`` None (no
        such account) the dummy hash is checked all the same, and the answer is False."""
        if stored is None:
            dummy = self.dummy()
            with self._slots:
                self.hasher.verify(password, dummy)
            return False
        try:
            with self._slots:
                return self.hasher.verify(password, stored)
        except Exception:  # noqa: BLE001 - a damaged stored hash signs nobody in
            return False

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with other parameters than today's (rehashed at the
        next sign-in)."""
        try:
            return self.hasher.current_hasher.check_needs_rehash(stored)
        except Exception:  # noqa: BLE001
            return True


__all__ = ["MAX_PASSWORD", "MIN_PASSWORD", "Passwords", "RECOVERY_CODES", "TOKEN_PREFIX", "api_token", "digest",
           "is_api_token", "normal_code", "public_id", "recovery_code", "same", "session_secret"]
