# Used by t/cli_test.sh: a hidden directory is not searched.

def test_hidden():
    assert False
