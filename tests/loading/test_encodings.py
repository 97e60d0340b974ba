"""loading/encodings.py: the byte-order marks and JSON streams kubectl reads (issue 25)."""
from __future__ import annotations

import orjson
import pytest

from podgroup_plan.loading.encodings import NotText, as_utf8, binary_start, decode, json_values

TEXT = "apiVersion: v1\nkind: Node\nmetadata: {name: \"é-中\"}\n"


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
                                   "utf-32-le", "utf-32-be"])
def test_a_byte_order_mark_picks_the_encoding_and_is_dropped(codec):
    data = TEXT.encode(codec)
    if codec in ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"):
        data = "\ufeff".encode(codec) + data  # these codecs write no mark themselves
    assert decode(data) == TEXT
    assert as_utf8(data)[0] == TEXT.encode("utf-8")


def test_without_a_mark_the_text_is_utf8_and_bad_bytes_are_named():
    assert decode(TEXT.encode()) == TEXT
    data = TEXT.encode()
    assert as_utf8(data) == (data, 0)  # the same bytes: no copy
    with pytest.raises(NotText) as err:
        decode(b"kind: x\nname: \xff\n")
    assert (str(err.value), err.value.line) == ("not UTF-8 text (byte 14)", 2)
    # UTF-16 without a mark is not guessed (kubectl does not either): its NULs are refused
    assert binary_start("kind".encode("utf-16-be"))


def test_bad_utf16_is_named_with_its_byte_in_the_file():
    data = "\ufeffa\nb".encode("utf-16-le") + b"\x00\xd8"  # a lone surrogate
    with pytest.raises(NotText) as err:
        decode(data)
    assert str(err.value) == "not UTF-16 text (byte 8)" and err.value.line == 2


def test_nul_at_the_start_is_binary_unless_a_mark_explains_it():
    assert binary_start(b"\x00" * 4096)
    assert not binary_start("\ufeffk".encode("utf-32-be"))  # 00 00 FE FF
    assert not binary_start(b"kind: x\x00")  # a NUL later is the parser's to report
    assert not binary_start(b"")


def test_a_stream_of_json_objects_is_read_value_by_value():
    one = orjson.dumps({"kind": "Node", "metadata": {"name": "n1"}}, option=orjson.OPT_INDENT_2)
    two = orjson.dumps({"kind": "Pod", "metadata": {"name": "é"}})
    data = one + b"\n" + two + b"  \n\n" + one
    got = list(json_values(data))
    assert [v["kind"] for v, _, _ in got] == ["Node", "Pod", "Node"]
    assert [data[a:b].strip() for _, a, b in got] == [one, two, one]
    assert [(v, a, b) for v, a, b in json_values(b"  [1]\n")] == [([1], 2, 6)]


def test_broken_json_in_a_stream_is_told_against_the_whole_file():
    data = b'{"a": 1}\n{"b":\n  2,}\n'
    with pytest.raises(orjson.JSONDecodeError) as err:
        list(json_values(data))
    assert (err.value.lineno, err.value.msg) == (3, "trailing comma is not allowed")
