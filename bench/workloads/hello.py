# Startup: a one-line main.
def main():
    print("hello")
