#!/usr/bin/env python3
"""Writes the AppStream metainfo of CDC Studio: the fixed part from metainfo.xml.in, the <releases> from
CHANGELOG.md (so the release notes cannot disagree with it) and, when a public https base URL is given,
the screenshots of docs/screenshots/ under that URL.

usage: metainfo.py TEMPLATE CHANGELOG VERSION OUTPUT [SCREENSHOT_BASE_URL]

Fails (exit 1, a message naming the line) when CHANGELOG.md has no section for VERSION: a version bump in
CMake without its release notes is an error, not an empty <release>.
"""
import re
import sys
from xml.sax.saxutils import escape

# The screenshots a software centre shows, the first is the default one. Files of docs/screenshots/.
SCREENSHOTS = [
    ("workbench.png", "The workbench: pipeline SQL, event queue and the SCD type 1 target after an update"),
    ("timeline.png", "The SCD type 2 history of each key as a timeline"),
    ("designer-scd2.png", "The Designer draws the pipeline as a graph beside its SQL"),
    ("provenance.png", "Why This Row? tells the fate of every event of a key"),
    ("tombstones.png", "Delete tombstones and their garbage collection on the simulated clock"),
]


def inline(text):
    """Markdown inline code becomes AppStream <code>; everything else is plain text."""
    parts = re.split(r"`([^`]*)`", text)
    out = []
    for i, part in enumerate(parts):
        out.append(f"<code>{escape(part)}</code>" if i % 2 else escape(part))
    return "".join(out)


def releases(changelog, version):
    heading = re.compile(r"^## (\S+) - (\d{4}-\d{2}-\d{2})\s*$")
    found = []  # (version, date, paragraph lines, items)
    current = None
    for line in changelog.splitlines():
        m = heading.match(line)
        if m:
            current = (m.group(1), m.group(2), [], [])
            found.append(current)
        elif current is not None and line.startswith("## "):
            current = None
        elif current is not None and line.startswith("- "):
            current[3].append(line[2:].strip())
        elif current is not None and line.strip() and not current[3]:
            current[2].append(line.strip())
    if not any(v == version for v, *_ in found):
        sys.exit(f"metainfo.py: CHANGELOG.md has no section '## {version} - YYYY-MM-DD' for the version CMake builds")
    xml = ["  <releases>"]
    for v, date, paragraph, items in found:
        xml.append(f'    <release version="{escape(v)}" date="{date}">')
        xml.append("      <description>")
        if paragraph:
            xml.append(f"        <p>{inline(' '.join(paragraph))}</p>")
        if items:
            xml.append("        <ul>")
            xml.extend(f"          <li>{inline(item)}</li>" for item in items)
            xml.append("        </ul>")
        xml.append("      </description>")
        xml.append("    </release>")
    xml.append("  </releases>")
    return "\n".join(xml)


def screenshots(base):
    if not base:
        return ""
    if not base.startswith("https://"):
        sys.exit("metainfo.py: the screenshot base URL must be https:// (AppStream)")
    base = base.rstrip("/") + "/"
    xml = ["  <screenshots>"]
    for i, (name, caption) in enumerate(SCREENSHOTS):
        kind = ' type="default"' if i == 0 else ""
        xml.append(f"    <screenshot{kind}>")
        xml.append(f"      <caption>{escape(caption)}</caption>")
        xml.append(f'      <image type="source" width="1440" height="900">{escape(base + name)}</image>')
        xml.append("    </screenshot>")
    xml.append("  </screenshots>")
    return "\n".join(xml)


def main():
    template_path, changelog_path, version, output = sys.argv[1:5]
    base = sys.argv[5] if len(sys.argv) > 5 else ""
    with open(template_path, encoding="utf-8") as f:
        template = f.read()
    with open(changelog_path, encoding="utf-8") as f:
        changelog = f.read()
    text = template.replace("@RELEASES@", releases(changelog, version))
    text = text.replace("@SCREENSHOTS@\n", screenshots(base) + "\n" if base else "")
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
