"""loading/bounded.py: input looked at before it is read, and read within a limit (issue 25)."""
from __future__ import annotations

import io
import os

import pytest

from podgroup_plan.loading.bounded import DEFAULT_MAX_INPUT, max_input, read_input, read_stream, size_text


def test_the_limit_is_2_gib_unless_the_variable_says(monkeypatch):
    monkeypatch.delenv("PODGROUP_PLAN_MAX_INPUT", raising=False)
    assert max_input() == DEFAULT_MAX_INPUT == 2 << 30 and size_text(DEFAULT_MAX_INPUT) == "2 GiB"
    for text, value in (("1000", 1000), ("500Mi", 500 << 20), ("4Gi", 4 << 30), ("3GiB", 3 << 30),
                        ("100M", 10**8), (" 2k ", 2000)):
        monkeypatch.setenv("PODGROUP_PLAN_MAX_INPUT", text)
        assert max_input() == value
    for bad in ("lots", "-5", "0", "1.5Gi"):
        monkeypatch.setenv("PODGROUP_PLAN_MAX_INPUT", bad)
        with pytest.raises(ValueError, match="is not an amount of bytes"):
            max_input()


def test_a_regular_file_over_the_limit_is_refused_by_its_size(tmp_path, monkeypatch):
    big = tmp_path / "zeros.yaml"
    with open(big, "wb") as fh:  # sparse: nothing is written, nothing needs to be read
        fh.truncate(10 << 30)
    problems = []
    assert read_input(str(big), problems) is None
    assert [str(p) for p in problems] == [
        f"{big}: larger than the input limit of 2 GiB per file; not read (set "
        "PODGROUP_PLAN_MAX_INPUT to raise it)"]
    monkeypatch.setenv("PODGROUP_PLAN_MAX_INPUT", "20")
    (tmp_path / "small.yaml").write_bytes(b"kind: Node\n")
    assert read_input(str(tmp_path / "small.yaml"), problems) == b"kind: Node\n"


def test_nul_bytes_first_are_refused_from_the_first_bytes(tmp_path):
    sparse = tmp_path / "sparse.yaml"
    with open(sparse, "wb") as fh:
        fh.truncate(1 << 30)
    problems = []
    assert read_input(str(sparse), problems) is None
    assert problems[0].message.startswith("starts with a NUL byte: not YAML or JSON text")
    # text with a UTF-32 mark starts with NUL bytes too: that one is read
    (tmp_path / "u32.yaml").write_bytes("kind: Node\n".encode("utf-32-be").join([b"\x00\x00\xfe\xff", b""]))
    assert read_input(str(tmp_path / "u32.yaml"), problems := []) is not None and not problems


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_devices_are_refused_unread():
    problems = []
    assert read_input("/dev/zero", problems) is None
    assert str(problems[0]) == "/dev/zero: a character device, not a file of manifests; not read"
    with open("/dev/zero", "rb") as zero:
        assert read_stream(zero, "<stdin>", problems) is None
    assert str(problems[1]) == "<stdin>: a character device, not a stream of manifests; not read"


def test_a_stream_is_read_in_chunks_and_stopped_past_the_limit(monkeypatch):
    class Endless(io.RawIOBase):
        read_bytes = 0

        def readable(self):
            return True

        def readinto(self, buffer):
            buffer[:] = b"y\n" * (len(buffer) // 2) + b"y" * (len(buffer) % 2)
            Endless.read_bytes += len(buffer)
            return len(buffer)

    monkeypatch.setenv("PODGROUP_PLAN_MAX_INPUT", "3Mi")
    problems = []
    assert read_stream(io.BufferedReader(Endless()), "<stdin>", problems) is None
    assert str(problems[0]) == ("<stdin>: larger than the input limit of 3 MiB per file; the rest "
                                "was not read (set PODGROUP_PLAN_MAX_INPUT to raise it)")
    assert Endless.read_bytes < (3 << 20) + (2 << 20)  # stopped at the limit, not at the end
    assert read_stream(io.BytesIO(b"\x00" + b"kind: x\n"), "<stdin>", problems := []) is None
    assert problems[0].message.startswith("starts with a NUL byte")
    assert read_stream(io.BytesIO(b"kind: x\n"), "<stdin>", problems := []) == b"kind: x\n"
