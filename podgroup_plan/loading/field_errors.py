"""The API server's validation messages, to the character: `field.Error.ErrorBody()` and the
content checks behind them.

Mirrors `k8s.io/apimachinery/pkg/util/validation/field/errors.go` (ErrorBody: `Invalid value:
"x": detail`, `Unsupported value: "x": supported values: "a", "b"`, `Required value: detail`,
`Duplicate value: ...`, `Forbidden: detail`) and `k8s.io/apimachinery/pkg/api/validate/content`
(`kube.go` IsLabelKey / IsLabelValue, `dns.go` IsDNS1123Subdomain, `errors.go`), as vendored
by Kubernetes v1.37.0 (staging/src/k8s.io/apimachinery). The field's path is not part of the
message: ours is the problem's `JSON.PATH:` prefix.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, Iterable

from podgroup_plan.errors import MAX_VALUE, shorten

STRUCT_LIMIT = 600  # characters of a struct or list shown in a message


_GO_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
               "\v": "\\v", '"': '\\"', "\\": "\\\\"}


def go_quote(value: str) -> str:
    """strconv.Quote (what `%q` gives in field.Error's ErrorBody): printable characters as they
    are (unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space,
    which is what str.isprintable keeps too), `\\` and `"` escaped, the C escapes for \\a\\b\\f\\n\\r\\t\\v,
    and the rest as \\xXX, \\uXXXX or \\UXXXXXXXX. Long values are cut in the middle first."""
    out = ['"']
    for ch in shorten(value):
        if ch in _GO_ESCAPES:
            out.append(_GO_ESCAPES[ch])
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) < 0x80:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


class GoStruct(dict):
    """A bad value that upstream renders from a Go struct: json.Marshal keeps the fields in
    declaration order (a map's keys, the plain dict's, are sorted)."""


def _go_order(value: Any) -> Any:
    """json.Marshal's order: a struct's fields as declared (GoStruct), a map's keys sorted."""
    if isinstance(value, GoStruct):
        return {k: _go_order(v) for k, v in value.items()}
    if isinstance(value, dict):
        return {k: _go_order(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list):
        return [_go_order(v) for v in value]
    return value


def _show(value: Any) -> str:
    # ErrorBody: %v for numbers and booleans, %q for strings, JSON for the rest
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return go_quote(value)
    text = json.dumps(_go_order(value), separators=(",", ":"))
    # a struct the server renders whole (a duplicate template) is worth more room than a value
    # quoted from the input; both stay bounded
    return shorten(text, STRUCT_LIMIT if isinstance(value, (GoStruct, list)) else MAX_VALUE)


def _body(kind: str, detail: str) -> str:
    return f"{kind}: {detail}" if detail else kind


def invalid(value: Any, detail: str) -> str:
    """field.Invalid(path, value, detail).ErrorBody()"""
    return _body(f"Invalid value: {_show(value)}", detail)


def not_supported(value: Any, supported: Iterable[str]) -> str:
    """field.NotSupported(path, value, validValues).ErrorBody()"""
    values = ", ".join(json.dumps(v) for v in supported)
    return _body(f"Unsupported value: {_show(value)}", f"supported values: {values}" if values else "")


def required(detail: str = "") -> str:
    """field.Required(path, detail).ErrorBody()"""
    return _body("Required value", detail)


def duplicate(value: Any, detail: str = "") -> str:
    """field.Duplicate(path, value).ErrorBody(), with the Detail some callers set."""
    return _body(f"Duplicate value: {_show(value)}", detail)


def too_many(actual: int, most: int) -> str:
    """field.TooMany(path, actual, max).ErrorBody() (the declarative `+k8s:maxItems`)"""
    return f"Too many: {actual}: must have at most {most} item{'' if most == 1 else 's'}"


def too_long(most: int) -> str:
    """field.TooLong(path, value, maxLength).ErrorBody()"""
    return f"Too long: may not be more than {most} byte{'' if most == 1 else 's'}"


def forbidden(detail: str) -> str:
    """field.Forbidden(path, detail).ErrorBody()"""
    return _body("Forbidden", detail)


# --- content (k8s.io/apimachinery/pkg/api/validate/content) --------------------------------------


def regex_error(msg: str, fmt: str, *examples: str) -> str:
    """content.RegexError"""
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {shown}regex used for validation is '{fmt}')"


def max_len_error(length: int) -> str:
    """content.MaxLenError"""
    return f"must be no more than {length} bytes"


EMPTY_ERROR = "must be non-empty"  # content.EmptyError

_LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_KEY_MSG = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and "
                  "end with an alphanumeric character")
_LABEL_KEY = re.compile(_LABEL_KEY_FMT)
_LABEL_VALUE_FMT = f"({_LABEL_KEY_FMT})?"
_LABEL_VALUE_MSG = ("a valid label must be an empty string or consist of alphanumeric characters, "
                    "'-', '_' or '.', and must start and end with an alphanumeric character")
_DNS_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS_SUBDOMAIN_FMT = _DNS_LABEL_FMT + "(\\." + _DNS_LABEL_FMT + ")*"
_DNS_SUBDOMAIN = re.compile(_DNS_SUBDOMAIN_FMT)
_DNS_SUBDOMAIN_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                      "characters, '-' or '.', and must start and end with an alphanumeric character")


_DNS_LABEL = re.compile(_DNS_LABEL_FMT)
_DNS_LABEL_MSG = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                  "and must start and end with an alphanumeric character")


@lru_cache(maxsize=4096)
def _is_dns1123_label(value: str) -> tuple[str, ...]:
    """content.IsDNS1123Label (dns.go)"""
    errs = []
    if len(value.encode()) > 63:
        errs.append(max_len_error(63))
    if not _DNS_LABEL.fullmatch(value):
        if _DNS_SUBDOMAIN.fullmatch(value):
            errs.append("must not contain dots")  # a valid subdomain, and the length is checked
        else:
            errs.append(regex_error(_DNS_LABEL_MSG, _DNS_LABEL_FMT, "my-name", "123-abc"))
    return tuple(errs)


# util/validation (the package NameIsDNSLabel and NameIsDNSSubdomain call: metadata.name and
# .namespace, node and namespace names in a pod spec, ...) checks the same lengths as content
# but words them in characters (validation.MaxLenError), where content says bytes.
_BYTES = " bytes"
_CHARACTERS = " characters"


@lru_cache(maxsize=4096)
def _name_is_dns_label(value: str) -> tuple[str, ...]:
    """apimachinery NameIsDNSLabel (api/validation/generic.go): util/validation.IsDNS1123Label."""
    return tuple(m.replace(_BYTES, _CHARACTERS) if m == max_len_error(63) else m for m in is_dns1123_label(value))


@lru_cache(maxsize=4096)
def _name_is_dns_subdomain(value: str) -> tuple[str, ...]:
    """apimachinery NameIsDNSSubdomain: util/validation.IsDNS1123Subdomain."""
    return tuple(m.replace(_BYTES, _CHARACTERS) if m == max_len_error(253) else m for m in is_dns1123_subdomain(value))


@lru_cache(maxsize=4096)
def _is_dns1123_subdomain(value: str) -> tuple[str, ...]:
    """content.IsDNS1123Subdomain (dns.go)"""
    errs = []
    if len(value.encode()) > 253:
        errs.append(max_len_error(253))
    if not _DNS_SUBDOMAIN.fullmatch(value):
        errs.append(regex_error(_DNS_SUBDOMAIN_MSG, _DNS_SUBDOMAIN_FMT, "example.com"))
    return tuple(errs)


@lru_cache(maxsize=4096)
def _is_label_key(value: str) -> tuple[str, ...]:
    """content.IsLabelKey (= IsQualifiedName), kube.go"""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part " + EMPTY_ERROR)
        else:
            errs += ["prefix part " + m for m in is_dns1123_subdomain(prefix)]
    else:
        return ("a valid label key " + regex_error(_LABEL_KEY_MSG, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",)
    if not name:
        errs.append("name part " + EMPTY_ERROR)
    elif len(name.encode()) > 63:
        errs.append("name part " + max_len_error(63))
    if not _LABEL_KEY.fullmatch(name):
        errs.append("name part " + regex_error(_LABEL_KEY_MSG, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc"))
    return tuple(errs)


@lru_cache(maxsize=4096)
def _is_label_value(value: str) -> tuple[str, ...]:
    """content.IsLabelValue (kube.go)"""
    errs = []
    if len(value.encode()) > 63:
        errs.append(max_len_error(63))
    if value and not _LABEL_KEY.fullmatch(value):
        errs.append(regex_error(_LABEL_VALUE_MSG, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return tuple(errs)


def label_name_errors(key: str) -> list[str]:
    """unversionedvalidation.ValidateLabelName: one Invalid per message of IsQualifiedName."""
    return [invalid(key, m) for m in is_label_key(key)]


# --- the common case first ----------------------------------------------------------------------
#
# Nearly every name, label and value is valid, and most are seen once (150,000 pod names): a
# cache does not help them, and building the messages' tuple is the cost. A valid value answers
# () after one regular expression; anything else goes to the functions above, which say why.
# (The patterns match ASCII only, so a length in characters is one in bytes.)


def _label_key_valid(value: str) -> bool:
    prefix, slash, name = value.rpartition("/")
    if slash and (not prefix or "/" in prefix or len(prefix) > 253 or _DNS_SUBDOMAIN.fullmatch(prefix) is None):
        return False
    return 0 < len(name) <= 63 and _LABEL_KEY.fullmatch(name) is not None


def is_dns1123_label(value: str) -> tuple[str, ...]:
    """content.IsDNS1123Label (dns.go)"""
    return () if len(value) <= 63 and _DNS_LABEL.fullmatch(value) else _is_dns1123_label(value)


def name_is_dns_label(value: str) -> tuple[str, ...]:
    """apimachinery NameIsDNSLabel"""
    return () if len(value) <= 63 and _DNS_LABEL.fullmatch(value) else _name_is_dns_label(value)


def name_is_dns_subdomain(value: str) -> tuple[str, ...]:
    """apimachinery NameIsDNSSubdomain"""
    return () if len(value) <= 253 and _DNS_SUBDOMAIN.fullmatch(value) else _name_is_dns_subdomain(value)


def is_dns1123_subdomain(value: str) -> tuple[str, ...]:
    """content.IsDNS1123Subdomain (dns.go)"""
    return () if len(value) <= 253 and _DNS_SUBDOMAIN.fullmatch(value) else _is_dns1123_subdomain(value)


def is_label_key(value: str) -> tuple[str, ...]:
    """content.IsLabelKey (= IsQualifiedName), kube.go"""
    return () if _label_key_valid(value) else _is_label_key(value)


def is_label_value(value: str) -> tuple[str, ...]:
    """content.IsLabelValue (kube.go)"""
    return () if not value or (len(value) <= 63 and _LABEL_KEY.fullmatch(value)) else _is_label_value(value)
