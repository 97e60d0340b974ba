"""How much address space is left under a limit (`ulimit -v`, RLIMIT_AS), so that a parser
that cannot fail cleanly is not handed more than it has room for.

orjson (3.8) parses a whole document into a buffer of about 16-20 times the input's size at its
peak (24 MiB of indented JSON: 400 MiB) and, when an allocation fails part-way, may crash the
process (a segmentation fault, seen at 200-210 MiB with 24 MiB on standard input). Under an
address-space limit a large document is refused as a MemoryError before it is handed over, which
the command line answers as `not enough memory to plan this input` (exit 2). Without a limit
nothing is checked: the machine's memory is what the kernel says it is.
"""
from __future__ import annotations

# orjson's peak over the input's size, measured (VmPeak before and after orjson.loads: 16.5
# for indented JSON, 20 for compact), with a margin
JSON_PEAK_FACTOR = 24
CHECKED_FROM = 1 << 20  # smaller documents are not worth a look at /proc
# Room kept free while documents are decoded: orjson.dumps (decode_pods.Memo) crashed when an
# allocation failed at the limit; a MemoryError raised at a checkpoint comes first instead
HEADROOM = 32 << 20


def address_space_limit() -> int | None:
    """RLIMIT_AS in bytes, or None when there is none (or the platform has no such limit)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


def status_kib(field: str) -> int | None:
    """A `Vm...:` line of /proc/self/status in KiB (Linux only), or None."""
    try:
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(field.encode() + b":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def room_left() -> int | None:
    """Bytes of address space left under the limit, or None when there is no limit to tell."""
    limit = address_space_limit()
    if limit is None:
        return None
    size = status_kib("VmSize")
    return None if size is None else limit - size * 1024


def ensure_room_to_parse_json(size: int) -> None:
    """Raise MemoryError when orjson would not have room to parse `size` bytes."""
    if size < CHECKED_FROM:
        return
    left = room_left()
    if left is not None and left < JSON_PEAK_FACTOR * size:
        raise MemoryError(f"no room to parse {size:,} bytes of JSON under the address-space limit")


def ensure_headroom() -> None:
    """A checkpoint in a long loop: raise MemoryError when less than HEADROOM is left under the
    limit, before a C extension's allocation fails somewhere it cannot report it."""
    left = room_left()
    if left is not None and left < HEADROOM:
        raise MemoryError("less than 32 MiB left under the address-space limit")
