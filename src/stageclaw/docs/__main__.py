"""`python -m stageclaw.docs [--check] [DOCS]`: write the generated reference pages (default: ./docs)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from stageclaw.docs import stale, write


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m stageclaw.docs", description=__doc__)
    parser.add_argument("docs", nargs="?", type=Path, default=Path("docs"), help="the docs folder (default: docs)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page is out of date")
    args = parser.parse_args()
    if not args.docs.is_dir():
        problem = f"error: {args.docs} is not a folder: run this from the checkout's root or name the docs folder"
        print(problem, file=sys.stderr)
        return 2
    if args.check:
        names = stale(args.docs)
        for name in names:
            print(f"out of date: {args.docs / name} (run: python -m stageclaw.docs)")
        return 1 if names else 0
    for name in write(args.docs):
        print(f"wrote {args.docs / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
