"""One HTTP body in `deflate` encoding (RFC 9110: a zlib stream) made of parts compressed apart,
so that a part kept compressed in a cache is sent as it is, never inflated again.

Each part is a raw deflate stream ended by a sync flush (byte-aligned, no final block); raw
streams so ended may follow one another, and the last part ends with the final block. The zlib
wrapper's Adler-32 of the whole is combined from the parts' own (zlib's adler32_combine), so the
cached part's bytes need not be read. games.watch keeps a replay so, and games.api puts the
request's own fields around it.
"""

import zlib
from dataclasses import dataclass

ADLER_BASE = 65521
ZLIB_HEADER = b"\x78\x9c"  # deflate, 32 KB window, default level


@dataclass(frozen=True, slots=True)
class Part:
    """Raw deflate bytes of some text, with that text's length and Adler-32."""

    data: bytes
    length: int
    adler: int


def compress_part(text: bytes, final: bool = False, level: int = 6) -> Part:
    packer = zlib.compressobj(level, zlib.DEFLATED, -15)
    data = packer.compress(text) + packer.flush(zlib.Z_FINISH if final else zlib.Z_SYNC_FLUSH)
    return Part(data, len(text), zlib.adler32(text))


def adler_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two texts one after the other, from each one's (zlib's adler32_combine)."""
    remainder = second_length % ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (remainder * sum1) % ADLER_BASE
    sum1 += (second & 0xFFFF) + ADLER_BASE - 1
    sum2 += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + ADLER_BASE - remainder
    sum1 %= ADLER_BASE
    sum2 %= ADLER_BASE
    return (sum2 << 16) | sum1


def zlib_body(parts: list[Part]) -> bytes:
    """The zlib stream of the parts in order; the last must be compressed with `final`."""
    adler = 1  # the Adler-32 of nothing
    for part in parts:
        adler = adler_combine(adler, part.adler, part.length)
    return ZLIB_HEADER + b"".join(part.data for part in parts) + adler.to_bytes(4, "big")


def inflate_part(part: Part) -> bytes:
    """A part's text, for a client that does not take `deflate`."""
    return zlib.decompressobj(-15).decompress(part.data)
