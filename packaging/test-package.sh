#!/usr/bin/env bash
# The package test (CTest `package_install`, label `package`; scripts/package --test): builds the .deb with
# cpack in BUILD_DIR, checks it with lintian (no errors), unpacks it into a throwaway root with dpkg -x, checks
# the desktop integration files there (desktop-file-validate, appstreamcli, shared-mime-info) and runs both
# programs from the unpacked /usr: --version, an update of a sample from <root>/usr/share/cdcstudio, the man
# pages against --help, and the GUI's --screenshot of a sample and of the project the CLI made (what a
# double-click on a *.cdcstudio file runs). The libraries are Debian's own, so no LD_LIBRARY_PATH.
#
# usage: test-package.sh BUILD_DIR VERSION APPSTREAM_ID
set -euo pipefail
build=$1 version=$2 appstream_id=$3

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "--- $*"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home XDG_RUNTIME_DIR=$work/xdg XDG_CONFIG_HOME=$work/home/.config
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

step "cpack -G DEB"
(cd "$build" && cpack -G DEB >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$build"/cdcstudio_"$version"_*.deb 2>/dev/null | head -1)
[[ -f $deb ]] || fail "no cdcstudio_${version}_*.deb in $build"
echo "$deb"

step "control: version and dependencies from dpkg-shlibdeps"
[[ $(dpkg-deb -f "$deb" Version) == "$version" ]] || fail "package version $(dpkg-deb -f "$deb" Version), CMake $version"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libc6 libsqlite3-0 libqt6core6 libqt6widgets6; do
  [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib (dpkg-shlibdeps did not run?)"
done

step "lintian"
lintian --info --fail-on error "$deb" | tee "$work/lintian.txt" || fail "lintian reports errors"

step "dpkg -x into a throwaway root"
root=$work/root
dpkg -x "$deb" "$root"
usr=$root/usr
for f in bin/cdcstudio bin/cdcstudio-cli share/applications/cdcstudio.desktop \
  share/metainfo/"$appstream_id".metainfo.xml share/mime/packages/cdcstudio.xml \
  share/icons/hicolor/scalable/apps/cdcstudio.svg share/man/man1/cdcstudio.1.gz share/man/man1/cdcstudio-cli.1.gz \
  share/doc/cdcstudio/copyright share/doc/cdcstudio/changelog.gz share/cdcstudio/samples/scd1-users/pipeline.sql; do
  [[ -f $usr/$f ]] || fail "the package lacks /usr/$f"
done
for size in 16 22 24 32 48 64 128 256 512; do
  png=$usr/share/icons/hicolor/${size}x${size}/apps/cdcstudio.png
  [[ -f $png ]] || fail "no ${size}x${size} icon"
  # The PNG header's width and height (IHDR, bytes 16..23, big-endian).
  dims=$(od -An -tu1 -j16 -N8 "$png" | awk '{print $3*256+$4 "x" $7*256+$8}')
  [[ $dims == "${size}x${size}" ]] || fail "$png is $dims"
done

step "desktop entry, metainfo, MIME type"
desktop-file-validate "$usr/share/applications/cdcstudio.desktop" || fail "desktop-file-validate"
grep -q '^Exec=cdcstudio %f$' "$usr/share/applications/cdcstudio.desktop" || fail "Exec= does not pass the file"
grep -q '^MimeType=application/x-cdcstudio-project;$' "$usr/share/applications/cdcstudio.desktop" || fail "MimeType="
appstreamcli validate --no-net "$usr/share/metainfo/$appstream_id.metainfo.xml" || fail "appstreamcli validate"
grep -q "<release version=\"$version\"" "$usr/share/metainfo/$appstream_id.metainfo.xml" ||
  fail "the metainfo has no release $version"
mkdir -p "$work/mime/packages"
cp /usr/share/mime/packages/freedesktop.org.xml "$usr/share/mime/packages/cdcstudio.xml" "$work/mime/packages/"
update-mime-database "$work/mime" 2>/dev/null
grep -q '^50:application/x-cdcstudio-project:\*\.cdcstudio$' "$work/mime/globs2" || fail "*.cdcstudio glob"

step "cdcstudio-cli --version, cdcstudio --version"
out=$("$usr/bin/cdcstudio-cli" --version)
[[ $out == "cdcstudio-cli $version" ]] || fail "cdcstudio-cli --version says '$out'"
out=$(QT_QPA_PLATFORM=offscreen "$usr/bin/cdcstudio" --version)
[[ $out == "CDC Studio $version" ]] || fail "cdcstudio --version says '$out'"

step "an update of the installed SCD type 1 sample"
sample=$usr/share/cdcstudio/samples/scd1-users
db=$work/demo.cdcstudio
cli() { "$usr/bin/cdcstudio-cli" --db "$db" "$@"; }
cli sql "$sample/sources.sql" "$sample/events.sql"
cli update "$sample/pipeline.sql" --now 2026-08-30T10:00:00Z | tee "$work/update.txt"
target=$(grep -oiE 'STREAMING TABLE [A-Za-z_.]+' "$sample/pipeline.sql" | head -1 | awk '{print $3}')
[[ -n $target ]] || fail "no target in the sample's pipeline"
rows=$(cli query "SELECT count(*) AS n FROM $target" --format csv | tail -1)
echo "$target: $rows rows"
[[ $rows =~ ^[0-9]+$ && $rows -gt 0 ]] || fail "the update left $target empty ($rows)"

step "man pages against --help"
man_text() { zcat "$1" | sed 's/\\-/-/g; s/\\f[BIRP]//g'; }
# Every command the installed CLI's help lists (its Commands / Subcommands section), and the contract's four.
commands=$("$usr/bin/cdcstudio-cli" --help |
  awk 'tolower($0) ~ /^(sub)?commands:/ {on=1; next} /^[^ ]/ {on=0} on && /^  [a-z]/ {print $1}' | sort -u)
echo "commands in --help: " $commands
for c in sql update query tombstones; do grep -qx "$c" <<<"$commands" || fail "--help does not list $c"; done
page=$(man_text "$usr/share/man/man1/cdcstudio-cli.1.gz")
for c in $commands; do grep -qw -- "$c" <<<"$page" || fail "man cdcstudio-cli does not mention $c"; done
grep -q "$version" <<<"$page" || fail "man cdcstudio-cli does not name version $version"
grep -q '^\.SH EXAMPLES' <<<"$page" || fail "man cdcstudio-cli lacks the EXAMPLES of app/cli/cdcstudio-cli.h2m"
page=$(man_text "$usr/share/man/man1/cdcstudio.1.gz")
for option in --screenshot --sample --theme; do grep -q -- "$option" <<<"$page" || fail "man cdcstudio lacks $option"; done
MANWIDTH=100 man -l "$usr/share/man/man1/cdcstudio-cli.1.gz" >/dev/null 2>"$work/man.err" || fail "man -l"
[[ ! -s $work/man.err ]] || { cat "$work/man.err"; fail "man reports problems in the page"; }

step "GUI --screenshot from the installed paths"
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}'; }
QT_QPA_PLATFORM=offscreen "$usr/bin/cdcstudio" --sample scd1-users --step 2 --theme light --screenshot "$work/sample.png"
[[ $(png_size "$work/sample.png") == 1440x900 ]] || fail "the sample screenshot is $(png_size "$work/sample.png")"
# What a double-click on the project runs (Exec=cdcstudio %f): the positional argument opens it.
QT_QPA_PLATFORM=offscreen "$usr/bin/cdcstudio" "$db" --theme light --screenshot "$work/project.png"
[[ $(png_size "$work/project.png") == 1440x900 ]] || fail "the project screenshot is $(png_size "$work/project.png")"
if [[ -n ${CDC_SCREENSHOT_DIR:-} ]]; then cp "$work/sample.png" "$work/project.png" "$CDC_SCREENSHOT_DIR/"; fi

echo "package test passed: $(basename "$deb")"
