"""Node selectors over all nodes of a ClusterState, shared by NodeAffinity and PodTopologySpread
(nodeAffinityPolicy) and the explanations.

Mirrors `pkg/scheduler/framework/plugins/helper/node_affinity.go` and the matching rules of
`k8s.io/component-helpers/scheduling/corev1/nodeaffinity` (see NodeAffinity's docstring for the
rules): each requirement is `np.isin` over a label column's codes (`ClusterState.label_column`),
so a selector is evaluated for every node in a few array operations.
"""
from __future__ import annotations

import re

import numpy as np

from podgroup_plan.config.values import is_qualified_name, is_valid_label_value, quote
from podgroup_plan.model.objects import Pod, PreferredSchedulingTerm
from podgroup_plan.model.selectors import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm
from podgroup_plan.plugins.helper.taint import parse_go_int

OBJECT_NAME_FIELD = "metadata.name"


# ----- vectorized matching over all nodes of a state --------------------------------------

def _int_values(values: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Parsed int64 value and validity for every distinct value of a label column."""
    parsed = [parse_go_int(v) for v in values]
    ok = np.fromiter((p is not None for p in parsed), dtype=bool, count=len(parsed))
    ints = np.fromiter((p if p is not None else 0 for p in parsed), dtype=np.int64, count=len(parsed))
    return ints, ok


_QUALIFIED_NAME = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\Z")
_DNS1123_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\Z")


def valid_label_key(key: str) -> bool:
    """validation.IsQualifiedName: [prefix/]name, prefix a DNS-1123 subdomain (<= 253),
    name <= 63 alphanumerics with '-', '_', '.' inside."""
    prefix, slash, name = key.rpartition("/")
    if slash and (not prefix or len(prefix) > 253 or not _DNS1123_SUBDOMAIN.match(prefix)):
        return False
    return 0 < len(name) <= 63 and bool(_QUALIFIED_NAME.match(name))


def valid_label_value(value: str) -> bool:
    """validation.IsValidLabelValue: empty, or <= 63 characters of the qualified-name form."""
    return value == "" or (len(value) <= 63 and bool(_QUALIFIED_NAME.match(value)))


def label_requirement_mask(state, req: NodeSelectorRequirement) -> np.ndarray | None:
    """Nodes whose labels satisfy `req`, or None when the requirement is invalid
    (labels.NewRequirement refuses it: bad key or value, wrong number of values)."""
    if not valid_label_key(req.key) or not all(valid_label_value(v) for v in req.values):
        return None
    codes, values = state.label_column(req.key)
    op = req.operator
    if op in ("In", "NotIn"):
        if not req.values:
            return None
        wanted = set(req.values)
        hit_codes = [i for i, v in enumerate(values) if v in wanted]
        hit = np.isin(codes, hit_codes) if hit_codes else np.zeros(state.n, dtype=bool)
        return hit if op == "In" else ~hit
    if op == "Exists":
        return codes >= 0 if not req.values else None
    if op == "DoesNotExist":
        return codes < 0 if not req.values else None
    if op in ("Gt", "Lt"):
        if len(req.values) != 1:
            return None
        want = parse_go_int(req.values[0])
        if want is None:
            return None
        ints, ok = _int_values(values)
        present = codes >= 0
        safe = np.where(present, codes, 0)
        if not len(values):
            return np.zeros(state.n, dtype=bool)
        cmp = ints[safe] > want if op == "Gt" else ints[safe] < want
        return present & ok[safe] & cmp
    return None


def field_requirement_mask(state, req: NodeSelectorRequirement) -> np.ndarray | None:
    """matchFields: only `metadata.name` with In/NotIn and exactly one value is valid."""
    if req.key != OBJECT_NAME_FIELD or req.operator not in ("In", "NotIn") or len(req.values) != 1:
        return None
    hit = state.all_nodes == state.node_index.get(req.values[0], -1)
    return hit if req.operator == "In" else ~hit


def term_mask(state, term: NodeSelectorTerm) -> np.ndarray:
    """A NodeSelectorTerm over all nodes; empty or invalid terms match nothing."""
    out = np.zeros(state.n, dtype=bool)
    if not term.match_expressions and not term.match_fields:
        return out
    out[:] = True
    for req in term.match_expressions:
        m = label_requirement_mask(state, req)
        if m is None:
            return np.zeros(state.n, dtype=bool)
        out &= m
    for req in term.match_fields:
        m = field_requirement_mask(state, req)
        if m is None:
            return np.zeros(state.n, dtype=bool)
        out &= m
    return out


def node_selector_mask(state, selector: NodeSelector) -> np.ndarray:
    """Required node affinity: the terms ORed; no terms matches no node."""
    out = np.zeros(state.n, dtype=bool)
    for term in selector.terms:
        out |= term_mask(state, term)
    return out


def label_set_mask(state, labels: tuple[tuple[str, str], ...]) -> np.ndarray:
    """spec.nodeSelector (labels.SelectorFromSet): every key present with exactly that value."""
    out = np.ones(state.n, dtype=bool)
    for key, value in labels:
        codes, values = state.label_column(key)
        try:
            code = values.index(value)
        except ValueError:
            return np.zeros(state.n, dtype=bool)
        out &= codes == code
    return out


def preferred_score(state, terms: tuple) -> np.ndarray:
    """PreferredSchedulingTerms.Score over all nodes: Σ weight of matching terms."""
    out = np.zeros(state.n, dtype=np.int64)
    for term in terms:
        pref = term.preference
        if term.weight == 0 or (not pref.match_expressions and not pref.match_fields):
            continue
        out += np.int64(term.weight) * term_mask(state, pref)
    return out


def required_node_affinity_mask(state, pod: Pod) -> np.ndarray | None:
    """nodeaffinity.GetRequiredNodeAffinity(pod).Match over all nodes (nodeSelector AND required
    node affinity), or None when the pod has neither (every node matches). The same column-wise
    matching NodeAffinity filters with."""
    selector = pod.node_selector
    required = pod.affinity.node_required if pod.affinity is not None else None
    if not selector and required is None:
        return None
    out = label_set_mask(state, tuple(sorted(selector.items())))
    if required is not None:
        out &= node_selector_mask(state, required)
    return out


# ----- parse errors (what the API server lets through and kube-scheduler refuses) ----------

_LABEL_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")


def _invalid(path: str, value: str | tuple[str, ...], detail: str) -> str:
    """field.Invalid(path, value, detail).Error(): a string quoted, a []string as json.Marshal
    writes it (`["a","b"]`; none: `null`, the API having dropped the empty list)."""
    if isinstance(value, str):
        shown = quote(value)
    else:
        shown = "[" + ",".join(quote(v) for v in value) + "]" if value else "null"
    return f"{path}: Invalid value: {shown}: {detail}"


def _requirement_errors(req: NodeSelectorRequirement, path: str) -> list[str]:
    """labels.NewRequirement's errors for one matchExpressions entry (nodeaffinity's
    nodeSelectorRequirementsAsSelector), in its order. The API server has already checked the
    key, the operator and the number of values (ValidateNodeSelectorRequirement): what reaches
    the scheduler is a Gt/Lt value that is not an integer and, in a preferred term, a value
    that is not a label value."""
    if req.operator not in _LABEL_OPERATORS:
        return [f"{path}.operator: Unsupported value: {quote(req.operator)}: supported values: "
                + ", ".join(quote(o) for o in _LABEL_OPERATORS)]
    errs = []
    key_errs = is_qualified_name(req.key)
    if key_errs:
        errs.append(_invalid(f"{path}.key", req.key, "; ".join(key_errs)))
    values = req.values
    if req.operator in ("In", "NotIn") and not values:
        errs.append(_invalid(f"{path}.values", values, "for 'in', 'notin' operators, values set can't be empty"))
    elif req.operator in ("Exists", "DoesNotExist") and values:
        errs.append(_invalid(f"{path}.values", values, "values set must be empty for exists and does not exist"))
    elif req.operator in ("Gt", "Lt"):
        if len(values) != 1:
            errs.append(_invalid(f"{path}.values", values, "for 'Gt', 'Lt' operators, exactly one value is required"))
        errs += [_invalid(f"{path}.values[{i}]", v, "for 'Gt', 'Lt' operators, the value must be an integer")
                 for i, v in enumerate(values) if parse_go_int(v) is None]
    for i, v in enumerate(values):
        value_errs = is_valid_label_value(v)
        if value_errs:  # validateLabelValue: the path keyed by the label key (path.Key(k))
            errs.append(_invalid(f"{path}.values[{i}][{req.key}]", v, "; ".join(value_errs)))
    return errs


def _field_errors(req: NodeSelectorRequirement, path: str) -> list[str]:
    """nodeSelectorRequirementsAsFieldSelector's errors for one matchFields entry."""
    if req.operator not in ("In", "NotIn"):
        return [f"{path}.operator: Unsupported value: {quote(req.operator)}: supported values: \"In\", \"NotIn\""]
    if len(req.values) != 1:
        return [_invalid(f"{path}.values", req.values, "must have one element")]
    return []


def preferred_terms_error(terms: tuple[PreferredSchedulingTerm, ...]) -> str | None:
    """The error of nodeaffinity.NewPreferredSchedulingTerms (component-helpers
    scheduling/corev1/nodeaffinity), None when every term parses: terms of weight 0 or with
    no requirement are skipped; each other term's matchExpressions (labels.NewRequirement)
    and matchFields errors, with paths from the term's index (`[0].matchExpressions[1]...`),
    flattened into one aggregate (utilerrors: one message as it is, several in brackets,
    repeats once). NodeAffinity's PreScore answers it as an Error, which fails the pod's
    scheduling cycle when more than one node is feasible (schedulePod scores only then)."""
    errs: list[str] = []
    for i, term in enumerate(terms):
        pref = term.preference
        if term.weight == 0 or (not pref.match_expressions and not pref.match_fields):
            continue
        for j, req in enumerate(pref.match_expressions):
            errs += _requirement_errors(req, f"[{i}].matchExpressions[{j}]")
        for j, req in enumerate(pref.match_fields):
            errs += _field_errors(req, f"[{i}].matchFields[{j}]")
    if not errs:
        return None
    unique = list(dict.fromkeys(errs))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"
