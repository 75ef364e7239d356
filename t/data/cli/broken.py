# Used by t/cli.sh: a compile error.
def main():
    return undefined_name
