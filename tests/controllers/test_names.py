"""Names the controllers give what they create (podgroup_plan/controllers/names.py), checked
against the algorithms upstream uses (Go's hash/fnv, util/rand.SafeEncodeString,
SimpleNameGenerator, the Job controller's computeWorkloadName/computePodGroupName and
podGenerateNameWithIndex) and the properties upstream's own tests assert."""
import pytest

from podgroup_plan.controllers import names


@pytest.mark.parametrize("data, expected", [
    pytest.param(b"", 0x811C9DC5, id="offset-basis"),
    pytest.param(b"a", 0xE40C292C, id="a"),
    pytest.param(b"foobar", 0xBF9CF968, id="foobar"),
])
def test_fnv32a_matches_go(data, expected):
    # published FNV-1a 32-bit test vectors (the ones Go's hash/fnv tests use)
    assert names.fnv32a(data) == expected


def test_safe_encode_maps_digits_into_the_alphabet():
    # '0' is byte 48 -> 48 % 27 = 21 -> '4'; '9' is 57 -> 3 -> 'f'
    assert names.safe_encode("0") == "4"
    assert names.safe_encode("9") == "f"
    assert set(names.safe_encode("0123456789")) <= set(names.ALPHANUMS)


def test_uid_hash_hashes_spews_rendering_of_a_types_uid():
    expected = names.safe_encode(str(names.fnv32a(b'(types.UID)"1234"')))
    assert names.uid_hash("1234") == expected
    assert names.job_workload_name("train", "1234") == f"train-{expected}"


@pytest.mark.parametrize("job_name", ["train", "j" * 63])
def test_workload_name_is_deterministic_and_differs_by_uid(job_name):
    # upstream TestComputeWorkloadName: <= 253, prefix-hash, deterministic, UID-dependent
    a = names.job_workload_name(job_name, "uid-a")
    assert a == names.job_workload_name(job_name, "uid-a")
    assert a != names.job_workload_name(job_name, "different-uid")
    assert a.startswith(job_name + "-") and len(a) <= 253


@pytest.mark.parametrize("workload, template", [
    pytest.param("my-workload", "my-template", id="short"),
    pytest.param("w" * 250, "tpl", id="long-workload"),
    pytest.param("wl", "t" * 250, id="long-template"),
    pytest.param("w" * 200, "t" * 200, id="both-long"),
])
def test_pod_group_name_fits_253_and_keeps_the_short_part(workload, template):
    # upstream TestComputePodGroupName's cases
    name = names.job_pod_group_name(workload, template)
    assert len(name) <= 253
    suffix = names.safe_encode(str(names.fnv32a((workload + template).encode())))
    assert name.endswith("-" + suffix)
    if len(workload) < 100:
        assert name.startswith(workload + "-")
    if len(template) < 100:
        assert f"-{template}-" in name


def test_short_pod_group_name_is_workload_template_hash():
    assert names.job_pod_group_name("wl", "tpl") == \
        "wl-tpl-" + names.safe_encode(str(names.fnv32a(b"wltpl")))


@pytest.mark.parametrize("job_name, index, expected", [
    pytest.param("train", 3, "train-3-", id="short"),
    pytest.param("j" * 60, 12, "j" * 54 + "-12-", id="cut-keeps-index"),
])
def test_indexed_job_prefix(job_name, index, expected):
    assert names.indexed_job_prefix(job_name, index) == expected
    assert len(names.indexed_job_prefix(job_name, index)) <= names.MAX_GENERATED_NAME_LENGTH


def test_generate_name_adds_five_alphabet_characters_and_is_deterministic():
    a = names.generate_name("web-", "seed")
    assert a == names.generate_name("web-", "seed") != names.generate_name("web-", "other")
    assert a.startswith("web-") and len(a) == 9 and set(a[4:]) <= set(names.ALPHANUMS)
    assert len(names.generate_name("x" * 80, "s")) == 63
