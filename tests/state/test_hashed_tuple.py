"""HashedTuple: a key that hashes its contents once, and is otherwise the plain tuple."""
import pickle

from podgroup_plan.state.derived import HashedTuple


class Counted:
    """Hashes like its value, counting how often it is hashed."""

    calls = 0

    def __init__(self, value):
        self.value = value

    def __hash__(self):
        Counted.calls += 1
        return hash(self.value)

    def __eq__(self, other):
        return isinstance(other, Counted) and other.value == self.value


def test_hashes_its_contents_once():
    Counted.calls = 0
    key = HashedTuple((Counted(1), (Counted(2), "x")))
    assert Counted.calls == 2
    table = {key: "found"}
    for _ in range(5):
        assert table[key] == "found"
        hash(key)
    assert Counted.calls == 2


def test_equal_to_and_interchangeable_with_the_plain_tuple():
    plain = (("a", 1), None, ("b",))
    hashed = HashedTuple(plain)
    assert hashed == plain and plain == hashed
    assert hash(hashed) == hash(plain)
    assert {plain: 1}[hashed] == 1 and {hashed: 2}[plain] == 2
    assert hashed[0] == ("a", 1) and len(hashed) == 3


def test_pickles_with_its_hash():
    hashed = HashedTuple((1, ("two", 3)))
    back = pickle.loads(pickle.dumps(hashed))
    assert type(back) is HashedTuple and back == hashed and hash(back) == hash(hashed)
