#!/usr/bin/env python3
"""import-corpus.py SHARED_CORPUS GO123_LISTINGS OUT: makes the repository's compact test
corpus (tests/corpus) from the full one.

Traces are stored zstd-compressed (scripts/corpus.sh unpacks them beside themselves);
the 94 MB trace stays outside. A reference listing is kept as a .zst where that is at
most 300 KB, and otherwise as the sha256 of its canonical form (tools/canon-dump's rule)
with its line count and Go's exit status: `SHA lines=N exit=RC`.

GO123_LISTINGS holds Go 1.23's `go tool trace -d=1 NAME.trace` output for each trace of
go/ (stdout and stderr together, then a line `exit=RC`), made with the Go of
../shared/tools/install-go-oracle.sh; they become NAME.trace.go123dump.*. Traces Go 1.23
does not read (Go 1.5-1.10) get none."""
import hashlib, os, shutil, subprocess, sys

KEEP_LISTING = 300 * 1024
src, listings, out = sys.argv[1:4]
here = os.path.dirname(os.path.abspath(__file__))
canon = os.path.join(here, 'canon_dump.py')


def zstd(data):
    return subprocess.run(['zstd', '-19', '-q', '-c'], input=data, check=True, capture_output=True).stdout


def unzstd(path):
    return subprocess.run(['zstd', '-dc', path], check=True, capture_output=True).stdout


def canonical_hash(listing):
    c = subprocess.run([sys.executable, canon], input=listing, check=True, capture_output=True).stdout
    return hashlib.sha256(c).hexdigest()


def keep_listing(listing, exit_code, dest):
    """dest.zst if small, else dest.canon.sha256."""
    quick = subprocess.run(['zstd', '-3', '-q', '-c'], input=listing, check=True, capture_output=True).stdout
    packed = zstd(listing) if len(quick) <= 2 * KEEP_LISTING else quick
    if len(packed) <= KEEP_LISTING:
        open(dest + '.zst', 'wb').write(packed)
    else:
        lines = listing.count(b'\n')
        open(dest + '.canon.sha256', 'w').write(f'{canonical_hash(listing)} lines={lines} exit={exit_code}\n')


def copy(rel):
    os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
    shutil.copyfile(os.path.join(src, rel), os.path.join(out, rel))


for sub in ('golden', 'fuzz'):
    for n in sorted(os.listdir(os.path.join(src, sub))):
        copy(os.path.join(sub, n))

for sub in ('go', 'newest'):
    os.makedirs(os.path.join(out, sub), exist_ok=True)
    for n in sorted(os.listdir(os.path.join(src, sub))):
        rel = os.path.join(sub, n)
        if 'large' in n:
            continue  # the 94 MB trace and its references: benchmarks only
        path = os.path.join(src, rel)
        if n.endswith('.trace'):
            open(os.path.join(out, rel + '.zst'), 'wb').write(zstd(open(path, 'rb').read()))
        elif n.endswith('.trace.zst') or n.endswith('.sha256') and '.canon.' in n or n.endswith('.err') \
                or n.endswith('.folded.zst') or n.endswith('.analysis.json.zst'):
            copy(rel)
        elif n.endswith('.v1dump.zst'):  # Go 1.21's listing: whole, or its hash
            listing = unzstd(path)
            keep_listing(listing, 1 if b'\nerror: ' in listing else 0, os.path.join(out, rel[:-len('.zst')]))
        elif n.endswith('dump.zst'):  # a listing with its hash beside it: kept where small
            if os.path.getsize(path) <= KEEP_LISTING:
                copy(rel)

for n in sorted(os.listdir(listings)):
    if not n.endswith('.go123dump'):
        continue
    text = open(os.path.join(listings, n), 'rb').read()
    body, _, last = text.rstrip(b'\n').rpartition(b'\n')
    exit_code = int(last.split(b'=')[1])
    body += b'\n'
    if exit_code != 0 and body.startswith(b'unknown or unsupported trace version'):
        continue  # Go 1.23 reads Go 1.11 and later only
    keep_listing(body, exit_code, os.path.join(out, 'go', n))
