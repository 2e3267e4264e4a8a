"""Compile locale/*/LC_MESSAGES/*.po into .mo files, with no need for GNU gettext."""

from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    for po_path in sorted(ROOT.glob("locale/*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if not mo_path.exists() or mo_path.stat().st_mtime < po_path.stat().st_mtime:
            polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
            print(f"compiled {mo_path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
