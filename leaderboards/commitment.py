"""The commitment to a daily deal: a SHA-256 published before the date, opened once it is over.

commitment = SHA-256 hex of "<date>:<seed>:<nonce>" (date YYYY-MM-DD, seed in decimal, nonce
32 random hex digits = 128 bits). The nonce makes the commitment hiding: without it, anyone
could try seeds until one hashes to the commitment; SHA-256 makes it binding: no other seed
and nonce give the same hash. docs/LEADERBOARDS.md explains the scheme.
"""

import datetime
import hashlib
import hmac
import secrets

NONCE_BYTES = 16  # 128 bits, the least the scheme asks for


def new_nonce() -> str:
    return secrets.token_hex(NONCE_BYTES)


def committed_text(date: datetime.date, seed: int, nonce: str) -> str:
    """What is hashed: the text a checker types in to hash it themselves."""
    return f"{date.isoformat()}:{int(seed)}:{nonce}"


def commitment_of(date: datetime.date, seed: int, nonce: str) -> str:
    return hashlib.sha256(committed_text(date, seed, nonce).encode("ascii")).hexdigest()


def opens(commitment: str, date: datetime.date, seed: int, nonce: str) -> bool:
    """Whether `seed` and `nonce` are what `commitment` was made of."""
    return hmac.compare_digest(commitment, commitment_of(date, seed, nonce))
