# Used by t/cli_test.sh: found under a/, after a.py and before b.py.

def test_z():
    assert True
