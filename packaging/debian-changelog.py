#!/usr/bin/env python3
"""Writes /usr/share/doc/cdcstudio/changelog.gz, the Debian changelog lintian expects of a native package,
from CHANGELOG.md: one entry per version section, its list items as the entry's lines. gzip without a time
stamp or name (-n), so the package is reproducible.

usage: debian-changelog.py CHANGELOG VERSION MAINTAINER OUTPUT
"""
import datetime
import gzip
import re
import sys
import textwrap


def main():
    changelog_path, version, maintainer, output = sys.argv[1:5]
    with open(changelog_path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    heading = re.compile(r"^## (\S+) - (\d{4})-(\d{2})-(\d{2})\s*$")
    entries = []
    for line in lines:
        m = heading.match(line)
        if m:
            entries.append((m.group(1), datetime.date(*map(int, m.group(2, 3, 4))), []))
        elif line.startswith("## "):
            entries.append(None)
        elif entries and entries[-1] is not None and line.startswith("- "):
            entries[-1][2].append(line[2:].strip().replace("`", ""))
    entries = [e for e in entries if e is not None]
    if not any(v == version for v, _, _ in entries):
        sys.exit(f"debian-changelog.py: CHANGELOG.md has no section for {version}")
    out = []
    for v, date, items in entries:
        out.append(f"cdcstudio ({v}) unstable; urgency=medium")
        out.append("")
        for item in items:
            out.extend(textwrap.wrap(item, width=78, initial_indent="  * ", subsequent_indent="    "))
        out.append("")
        stamp = datetime.datetime(date.year, date.month, date.day, 12, 0, tzinfo=datetime.timezone.utc)
        out.append(f" -- {maintainer}  {stamp.strftime('%a, %d %b %Y %H:%M:%S +0000')}")
        out.append("")
    with open(output, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as f:
            f.write("\n".join(out).encode("utf-8"))


if __name__ == "__main__":
    main()
