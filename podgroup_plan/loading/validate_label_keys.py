"""`matchLabelKeys` and `mismatchLabelKeys` of pod affinity terms and spread constraints, as the
API server merges and validates them on create.

Mirrors Kubernetes v1.37.0:

* `pkg/registry/core/pod/strategy.go` PrepareForCreate (a Pod only, not a controller's
  template): mutatePodAffinity and mutateTopologySpreadConstraints, through
  applyLabelKeysToLabelSelector, append `key In (the pod's value)` for each matchLabelKey (and
  `key NotIn (value)` for each mismatchLabelKey of an affinity term) the pod has a label for,
  to a selector that is set (MatchLabelKeysInPodAffinity is GA; MatchLabelKeysInPodTopologySpread
  and ...SelectorMerge are on by default);
* `pkg/apis/core/validation/validation.go` ValidateMatchLabelKeysAndMismatchLabelKeys, which
  validatePodAffinityTerm and (with the merge on, for a new pod) validateTopologySpreadConstraints
  call on the merged selector: no keys without a selector (Forbidden), each key a label name,
  a matchLabelKey whose merged requirement repeats a key the selector already has ("exists in
  both matchLabelKeys and labelSelector", reported at `<term>[i]`: upstream indexes the term's
  own path), and a key in both lists.
"""
from __future__ import annotations

from typing import Any, Iterator

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import forbidden, invalid, label_name_errors
from podgroup_plan.loading.field_lines import format_path

Path = tuple


def _keys(value: Any) -> list:
    return value if isinstance(value, list) else []


def merged_selector(selector: Any, match_keys: Any, mismatch_keys: Any, labels: dict | None) -> Any:
    """The selector after PrepareForCreate's merge: unchanged without keys, without a selector
    or for a template (`labels` None)."""
    if labels is None or not isinstance(selector, dict) or not (_keys(match_keys) or _keys(mismatch_keys)):
        return selector
    expressions = list(selector.get("matchExpressions") or ())
    for keys, operator in ((_keys(match_keys), "In"), (_keys(mismatch_keys), "NotIn")):
        for key in keys:
            if isinstance(key, str) and isinstance(labels.get(key), str):
                expressions.append({"key": key, "operator": operator, "values": [labels[key]]})
    return dict(selector, matchExpressions=expressions)


def label_keys_issues(doc: Document, at: Path, match_keys: Any, mismatch_keys: Any,
                      selector: Any) -> Iterator[Issue]:
    """ValidateMatchLabelKeysAndMismatchLabelKeys(at, matchLabelKeys, mismatchLabelKeys,
    selector), `selector` as merged (merged_selector)."""
    match, mismatch = _keys(match_keys), _keys(mismatch_keys)
    for field, keys in (("matchLabelKeys", match), ("mismatchLabelKeys", mismatch)):  # validateLabelKeys
        if not keys:
            continue
        if not isinstance(selector, dict):
            yield Issue(doc, at + (field,), forbidden("must not be specified when labelSelector is not set"))
            continue
        for i, key in enumerate(keys):
            if isinstance(key, str):
                for m in label_name_errors(key):
                    yield Issue(doc, at + (field, i), m)
    if isinstance(selector, dict):
        index = {key: i for i, key in enumerate(match) if isinstance(key, str)}
        seen = {key for key in (selector.get("matchLabels") or {}) if isinstance(key, str)}
        for rq in selector.get("matchExpressions") or ():
            key = rq.get("key") if isinstance(rq, dict) else None
            if not isinstance(key, str):
                continue
            if key in index and key in seen:
                # shown at upstream's path, the term's own indexed (fldPath.Index(i)); located at
                # the key in matchLabelKeys, for its line
                yield Issue(doc, at + ("matchLabelKeys", index[key]),
                            invalid(key, "exists in both matchLabelKeys and labelSelector"),
                            shown=format_path(at + (index[key],)))
            seen.add(key)
    mismatched = {key for key in mismatch if isinstance(key, str)}
    for i, key in enumerate(match):
        if key in mismatched:
            yield Issue(doc, at + ("matchLabelKeys", i), invalid(key, "exists in both matchLabelKeys and mismatchLabelKeys"))
