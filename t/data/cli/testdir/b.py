# Used by t/cli_test.sh: found last.

def test_b():
    assert True
