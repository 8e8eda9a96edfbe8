#!/bin/sh
# plot_test.sh: `kgen plot` on the fixtures in tests/plot/ (rows of kgen
# run's --tsv and --json, kgen tune's records, a size plan), each picture
# read back with python3's XML parser (xml.etree, the standard library)
# and compared with its input:
# - line (run.tsv): every timed, verified row is a point of its spec's
#   series at its n with its GB/s; each peer point is the mean of CUB's
#   GB/s over the rows at that n; the rows without a time or that failed
#   are not drawn; x and y are log scales (place linear in log10 of the
#   value, increasing x, decreasing y); the --json rows (run.jsonl) give the
#   same bytes; the same input twice, the same bytes.
# - ladder (ladder.tsv: matmul at one shape): a bar per row in the order of
#   the rows, its TFLOPS; heights proportional to the values; the peer lines
#   at cuBLAS's mean TFLOPS per dtype (the rate scaled by the times); a spec
#   path with < & " ' and a tab comes back as its text (the tab as U+FFFD).
# - space (records.jsonl, plan.yaml): every verified record is a point of
#   its hash, size, method and time, the failed one is not; the plan's
#   choice is marked at each size (the hashes the plan's entries hash to:
#   the points its comments name), without the plan the fastest under the
#   first method; cub::DeviceReduce's records are the peer lines.
# - errors: the file, line and column of a bad row, an empty file, mixed
#   units, the kinds refused, and the exit statuses.
# Skips (77) without python3.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
kgen=$top_builddir/kgen
fx=$top_srcdir/tests/plot
if ! command -v python3 > /dev/null 2>&1; then
	echo "SKIP: no python3"
	exit 77
fi
if [ ! -x "$kgen" ] || [ ! -f "$fx/run.tsv" ]; then
	echo "ERROR: need $kgen and $fx" >&2
	exit 99
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgen-plot.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 99' HUP INT TERM
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# ---- the pictures ----
"$kgen" plot "$fx/run.tsv" -o "$tmp/line.svg" 2> "$tmp/line.err" || bad "line: exit $?"
grep -q 'left out 1 row without a time (kgen run without --bench) and 1 row that did not verify' "$tmp/line.err" ||
	bad "line: the note on the rows left out: $(cat "$tmp/line.err")"
"$kgen" plot "$fx/run.jsonl" > "$tmp/line-json.svg" 2> /dev/null || bad "line from --json: exit $?"
cmp -s "$tmp/line.svg" "$tmp/line-json.svg" || bad "the --json rows do not draw what the --tsv table draws"
"$kgen" plot "$fx/run.tsv" -o "$tmp/line2.svg" 2> /dev/null && cmp -s "$tmp/line.svg" "$tmp/line2.svg" ||
	bad "the same table twice, two pictures"
"$kgen" plot "$fx/ladder.tsv" --title 'steps <1> & "2"' > "$tmp/ladder.svg" || bad "ladder: exit $?"
"$kgen" plot --kind ladder --at 1048576 "$fx/run.tsv" > "$tmp/ladder-at.svg" 2> /dev/null || bad "ladder --at: exit $?"
"$kgen" plot "$fx/records.jsonl" "$fx/plan.yaml" > "$tmp/space.svg" 2> /dev/null || bad "space: exit $?"
"$kgen" plot --kind space - < "$fx/records.jsonl" > "$tmp/space-fastest.svg" 2> /dev/null ||
	bad "space from standard input: exit $?"

python3 - "$fx" "$tmp" <<'EOF' || fail=1
import json, math, sys
import xml.etree.ElementTree as ET

fx, tmp = sys.argv[1], sys.argv[2]
NS = '{http://www.w3.org/2000/svg}'
failed = []

def bad(msg):
    failed.append(msg)
    print('FAIL: ' + msg, file=sys.stderr)

def svg(name):
    root = ET.parse('%s/%s' % (tmp, name)).getroot()
    if root.tag != NS + 'svg' or not root.get('viewBox'):
        bad('%s: not an svg with a viewBox' % name)
    return root

def close(a, b):
    return abs(a - b) <= 1e-5 * max(abs(a), abs(b))

def table(name):
    lines = open('%s/%s' % (fx, name), encoding='utf-8').read().splitlines()
    head = lines[0].split('\t')
    rows = []
    for l in lines[1:]:
        r = dict(zip(head, l.split('\t')))
        r['spec'] = r['spec'].replace('\\t', '\t')
        rows.append(r)
    return rows

def linear(pairs, what):
    """pairs of (value, pixel): the pixel an affine function of the value."""
    pairs = sorted(set(pairs))
    if len(pairs) < 3:
        return
    (v0, p0), (v1, p1) = pairs[0], pairs[-1]
    for v, p in pairs:
        if abs(p0 + (p1 - p0) * (v - v0) / (v1 - v0) - p) > 0.02:
            bad('%s: pixel %.2f for %g is off the scale' % (what, p, v))

# line: the rows' points, the peers' means, the log scales
root = svg('line.svg')
rows = [r for r in table('run.tsv') if float(r['gbs']) > 0 and r['verify'] in ('ok', '-')]
label = lambda spec: spec[len('specs/reduce/'):-len('.yaml')]
pts = [e for e in root.iter(NS + 'circle') if e.get('data-kind') == 'kgen']
got = {(e.get('data-series'), e.get('data-x')): float(e.get('data-y')) for e in pts}
want = {(label(r['spec']), r['n']): float(r['gbs']) for r in rows}
if len(pts) != len(want) or got.keys() != want.keys():
    bad('line: points %s, rows %s' % (sorted(got), sorted(want)))
for k, v in want.items():
    if k in got and not close(got[k], v):
        bad('line: %s drawn at %g, the row says %g' % (k, got[k], v))
peers = {}
for r in rows:
    if float(r['cub_gbs']) > 0:
        peers.setdefault(('CUB ' + r['dtype'], r['n']), []).append(float(r['cub_gbs']))
ppts = [e for e in root.iter(NS + 'rect') if e.get('data-kind') == 'peer']
pgot = {(e.get('data-series'), e.get('data-x')): float(e.get('data-y')) for e in ppts}
if pgot.keys() != peers.keys():
    bad('line: peer points %s, expected %s' % (sorted(pgot), sorted(peers)))
for k, v in peers.items():
    if k in pgot and not close(pgot[k], sum(v) / len(v)):
        bad('line: peer %s at %g, the mean of %s' % (k, pgot[k], v))
xs = [(math.log10(float(e.get('data-x'))), float(e.get('cx'))) for e in pts]
ys = [(math.log10(float(e.get('data-y'))), float(e.get('cy'))) for e in pts]
ys += [(math.log10(float(e.get('data-y'))), float(e.get('y')) + 3.5) for e in ppts]
linear(xs, 'line x')
linear(ys, 'line y')
if sorted(xs) != sorted(xs, key=lambda p: p[1]) or sorted(ys) != sorted(ys, key=lambda p: -p[1]):
    bad('line: the places do not follow the values (x right, y up)')
for e in root.iter(NS + 'polyline'):
    xy = [tuple(map(float, p.split(','))) for p in e.get('points').split()]
    if [x for x, _ in xy] != sorted(x for x, _ in xy):
        bad('line: series %s is not drawn left to right' % e.get('data-series'))

# ladder: the bars in order, heights in proportion; the peers; the text escaped
root = svg('ladder.svg')
if root.find(NS + 'title').text != 'steps <1> & "2"':
    bad('ladder: the title came back as %r' % root.find(NS + 'title').text)
rows = table('ladder.tsv')
bars = sorted((e for e in root.iter(NS + 'rect') if e.get('class') == 'bar' and e.get('data-label')),
              key=lambda e: int(e.get('data-index')))
names = [r['spec'][len('specs/matmul/'):-len('.yaml')].replace('\t', '\ufffd') for r in rows]
if [e.get('data-label') for e in bars] != names:
    bad('ladder: bars %s, rows %s' % ([e.get('data-label') for e in bars], names))
for e, r in zip(bars, rows):
    if not close(float(e.get('data-y')), float(r['gbs'])) or e.get('data-x') != r['n']:
        bad('ladder: bar %s at %s %s, the row says %s %s' % (e.get('data-label'), e.get('data-x'), e.get('data-y'),
                                                            r['n'], r['gbs']))
if [float(e.get('x')) for e in bars] != sorted(float(e.get('x')) for e in bars):
    bad('ladder: the bars are not in the order run')
base = {round(float(e.get('y')) + float(e.get('height')), 2) for e in bars}
ratio = [float(e.get('height')) / float(e.get('data-y')) for e in bars]
if len(base) != 1 or max(ratio) - min(ratio) > 0.02 * max(ratio):
    bad('ladder: bars not from one baseline in proportion (%s, %s)' % (base, ratio))
peers = {}
for r in rows:
    peers.setdefault('cuBLAS ' + r['dtype'], []).append(float(r['gbs']) * float(r['time_us']) / float(r['cub_us']))
lines = {e.get('data-label'): float(e.get('data-y')) for e in root.iter(NS + 'line') if e.get('class') == 'peer' and e.get('data-y')}
if lines.keys() != peers.keys():
    bad('ladder: peer lines %s, expected %s' % (sorted(lines), sorted(peers)))
for k, v in peers.items():
    if k in lines and not close(lines[k], sum(v) / len(v)):
        bad('ladder: %s at %g, the mean of %s' % (k, lines[k], v))
root = svg('ladder-at.svg')
got = sorted((e.get('data-label'), e.get('data-y')) for e in root.iter(NS + 'rect') if e.get('class') == 'bar' and e.get('data-label'))
if got != [('best/sum-f32', '460.7'), ('best/sum-i32', '451.9'), ('ops/argmax-f32', '537.8')]:
    bad('ladder --at 1048576: %s' % got)

# space: every verified record, the chosen points, the peer
recs = [json.loads(l) for l in open(fx + '/records.jsonl', encoding='utf-8')]
def space(name, chosen):
    root = svg(name)
    pts = [e for e in root.iter(NS + 'circle') if e.get('data-hash')]
    got = {(e.get('data-hash'), e.get('data-x'), e.get('data-method')): float(e.get('data-y')) for e in pts}
    want = {(r['spec_hash'], str(r['n']), r['method']): r['median_us'] for r in recs
            if 'spec_hash' in r and r['verify'] == 'ok'}
    if len(pts) != len(want) or got.keys() != want.keys():
        bad('%s: points %d, verified records %d' % (name, len(pts), len(want)))
    for k, v in want.items():
        if k in got and not close(got[k], v):
            bad('%s: %s at %g, its record says %g' % (name, k, got[k], v))
    labels = {e.get('data-hash'): e.get('data-label') for e in pts}
    for r in recs:
        if r['spec_hash' if 'spec_hash' in r else 'key'] in labels and labels[r['spec_hash']] != r['label']:
            bad('%s: label %r, the record says %r' % (name, labels[r['spec_hash']], r['label']))
    marked = {(e.get('data-x'), e.get('data-hash')) for e in pts if e.get('data-chosen')}
    if marked != chosen:
        bad('%s: chosen %s, expected %s' % (name, sorted(marked), sorted(chosen)))
    rings = [e for e in root.iter(NS + 'circle') if e.get('class') == 'chosen']
    if len(rings) != len(chosen) + 1:  # one a size, one in the legend
        bad('%s: %d rings' % (name, len(rings)))
    peer = {(e.get('data-x'), e.get('data-method')): float(e.get('data-y')) for e in root.iter(NS + 'line')
            if e.get('class') == 'peer' and e.get('data-y')}
    want = {(str(r['n']), r['method']): r['median_us'] for r in recs if 'peer' in r}
    if peer != want:
        bad('%s: peer lines %s, records %s' % (name, peer, want))
    for size in {k[1] for k in got}:
        band = [e for e in pts if e.get('data-x') == size]
        linear([(math.log10(float(e.get('data-y'))), float(e.get('cy'))) for e in band], name + ' y')
        order = sorted(band, key=lambda e: int(e.get('data-index')))
        if [float(e.get('cx')) for e in order] != sorted(float(e.get('cx')) for e in order):
            bad('%s: the points at %s are not in the order tuned' % (name, size))
# The plan's entries at 2^18 and 2^22 (its comments name their labels).
space('space.svg', {('262144', '0820e652d8bf4f5e'), ('4194304', 'a36548f9cfd16f8a')})
fastest = {}
first = recs[0]['method']
for r in recs:
    if 'spec_hash' in r and r['verify'] == 'ok' and r['method'] == first:
        k = str(r['n'])
        if k not in fastest or r['median_us'] < fastest[k][0]:
            fastest[k] = (r['median_us'], r['spec_hash'])
space('space-fastest.svg', {(k, v[1]) for k, v in fastest.items()})
sys.exit(1 if failed else 0)
EOF

# A plan whose point is not among the records: said, and nothing marked.
printf 'plan:\n  - spec:\n      kernel: reduce\n      op: sum\n      dtype: f32\n' > "$tmp/other-plan.yaml"
"$kgen" plot "$fx/records.jsonl" "$tmp/other-plan.yaml" > "$tmp/other.svg" 2> "$tmp/other.err" || bad "another plan: exit $?"
[ "$(grep -c 'other-plan.yaml takes at n=[0-9]* (spec_hash [0-9a-f]*) is not among the records' "$tmp/other.err")" = 2 ] ||
	bad "another plan: expected a note for each size, got: $(cat "$tmp/other.err")"
grep -q 'data-chosen' "$tmp/other.svg" && bad "another plan: a point marked as its choice"

# ---- errors: exit status and message ----
# expect STATUS TEXT FILE... : kgen plot FILE... exits STATUS and says TEXT, writing nothing
expect() {
	want=$1 text=$2
	shift 2
	"$kgen" plot "$@" > "$tmp/out" 2> "$tmp/err"
	got=$?
	[ "$got" = "$want" ] || bad "kgen plot $*: exit $got, expected $want ($(cat "$tmp/err"))"
	grep -qF -- "$text" "$tmp/err" || bad "kgen plot $*: expected '$text' in: $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && bad "kgen plot $*: wrote to standard output on an error"
}
head=$(head -1 "$fx/run.tsv")
: > "$tmp/empty.tsv"
expect 2 "empty.tsv:1:1: error: an empty file" "$tmp/empty.tsv"
printf '%s\n' "$head" > "$tmp/header.tsv"
expect 2 "header.tsv:1:1: error: no rows: a header alone" "$tmp/header.tsv"
{ printf '%s\n' "$head"; sed -n 2p "$fx/run.tsv"; printf 'a.yaml\tf32\tsum\t1024\tok\n'; } > "$tmp/cells.tsv"
expect 2 "cells.tsv:3:1: error: 5 cells, where the header has 15" "$tmp/cells.tsv"
# kgen run before 2026-12-05 wrote transpose, reduce_axis and rows rows
# without the last two cells (method, spread): read as absent, and only those two.
{ printf '%s\n' "$head"; sed -n 2p "$fx/run.tsv" | cut -f1-13; sed -n 3p "$fx/run.tsv"; } > "$tmp/short.tsv"
"$kgen" plot "$tmp/short.tsv" > /dev/null 2> "$tmp/short.err" || bad "13 cells of 15 (method, spread absent): exit $?, $(cat "$tmp/short.err")"
{ printf '%s\n' "$head"; sed -n 2p "$fx/run.tsv" | cut -f1-14; } > "$tmp/short14.tsv"
expect 2 "short14.tsv:2:1: error: 14 cells, where the header has 15" "$tmp/short14.tsv"
{ printf '%s\n' "$head"; sed -n 2p "$fx/run.tsv" | sed 's/\t9.176\t/\tabc\t/'; } > "$tmp/number.tsv"
expect 2 "number.tsv:2:49: error: time_us 'abc' is no number" "$tmp/number.tsv"
{ sed -n 1,2p "$fx/run.tsv"; sed -n 2p "$fx/ladder.tsv"; } > "$tmp/mixed.tsv"
expect 2 "mixed.tsv:3:1: error: a row in TFLOPS (op matmul) among rows in GB/s" "$tmp/mixed.tsv"
{ sed -n 1,2p "$fx/run.tsv"; sed -n 2p "$fx/run.tsv"; } > "$tmp/twice.tsv"
expect 2 "twice.tsv:3:1: error: specs/reduce/best/sum-f32.yaml at 65536 a second time (line 2 too)" "$tmp/twice.tsv"
printf '{"spec": "a.yaml", "n": 4}\n{"x": [1]}\n' > "$tmp/other.jsonl"
expect 2 "other.jsonl:1:1: error: neither a row of kgen run --json" "$tmp/other.jsonl"
printf '{"spec": "a.yaml", "n": 4, "gbs": [1]}\n' > "$tmp/nested.jsonl"
expect 2 "nested.jsonl:1:35: error: expected a string, a number or null" "$tmp/nested.jsonl"
printf 'kernel: reduce\n' > "$tmp/spec.yaml"
expect 2 "spec.yaml:1:1: error: not kgen run's --tsv table" "$tmp/spec.yaml"
expect 3 "nowhere.tsv" "$tmp/nowhere.tsv"
expect 2 "--kind pie: expected line, ladder or space" --kind pie "$fx/run.tsv"
expect 2 "no FILE given"
expect 2 "a ladder is at one size, and the rows have 3 (65536, 1048576, 16777216)" --kind ladder "$fx/run.tsv"
expect 2 "--at 99: no row at that size" --at 99 "$fx/run.tsv"
expect 2 "--at picks a ladder's size: --kind line draws every size" --kind line --at 1048576 "$fx/run.tsv"
expect 2 "--kind line needs rows at two sizes or more" --kind line "$fx/ladder.tsv"
expect 2 "--kind space draws kgen tune's records, and the files hold kgen run's rows" --kind space "$fx/run.tsv"
expect 2 "rows and kgen tune's records together" "$fx/run.tsv" "$fx/records.jsonl"
expect 2 "plan.yaml is a size plan: it marks the points of kgen tune's records" "$fx/plan.yaml" "$fx/run.tsv"
expect 2 "nothing to plot: a plan marks the chosen points" "$fx/plan.yaml"
{ printf '%s\n' "$head"; tail -2 "$fx/run.tsv"; } > "$tmp/untimed.tsv"
expect 2 "nothing to plot: no timed and verified row" "$tmp/untimed.tsv"
cp "$fx/run.tsv" "$tmp/in.tsv"
expect 2 "-o $tmp/in.tsv is the input" "$tmp/in.tsv" -o "$tmp/in.tsv"
cmp -s "$fx/run.tsv" "$tmp/in.tsv" || bad "-o the input: the input was written"

[ $fail = 0 ] && echo "PASS: kgen plot's three pictures match their inputs; errors at their lines"
exit $fail
