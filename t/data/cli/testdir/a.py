# Used by t/cli_test.sh: found first, sorted by path.

def test_a():
    assert True
