#!/usr/bin/env python3
"""fuzz-seeds.py CORPUS_DIR OUT_DIR GOTRACE: seeds for the fuzzers from the test corpus.

OUT/text/   the traces of Go's golden tests, in Go's raw text format
OUT/binary/ the same traces converted to binary (with GOTRACE convert), and Go's fuzz
            seeds decoded from Go's fuzz-corpus encoding"""
import ast, os, subprocess, sys

corpus, out, gotrace = sys.argv[1:4]
os.makedirs(os.path.join(out, "text"), exist_ok=True)
os.makedirs(os.path.join(out, "binary"), exist_ok=True)

golden = os.path.join(corpus, "golden")
for name in sorted(os.listdir(golden)):
    text = open(os.path.join(golden, name)).read()
    trace = text.split("-- trace --\n", 1)[1]
    base = os.path.splitext(name)[0]
    path = os.path.join(out, "text", base + ".txt")
    open(path, "w").write(trace)
    if os.access(gotrace, os.X_OK):
        subprocess.run([gotrace, "convert", "--to=binary", path, os.path.join(out, "binary", base + ".bin")],
                       check=False, stderr=subprocess.DEVNULL)

def go_unquote_bytes(lit):
    """Decodes a Go double-quoted string literal to bytes (escapes as Go defines them)."""
    body, out_bytes, i = lit[1:-1], bytearray(), 0
    simple = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, '"': 34, "'": 39}
    while i < len(body):
        c = body[i]
        if c != "\\":
            out_bytes += c.encode("utf-8")
            i += 1
            continue
        e = body[i + 1]
        if e in simple:
            out_bytes.append(simple[e]); i += 2
        elif e == "x":
            out_bytes.append(int(body[i + 2:i + 4], 16)); i += 4
        elif e in "01234567":
            out_bytes.append(int(body[i + 1:i + 4], 8)); i += 4
        elif e in "uU":
            n = 4 if e == "u" else 8
            out_bytes += chr(int(body[i + 2:i + 2 + n], 16)).encode("utf-8"); i += 2 + n
        else:
            raise ValueError("bad escape " + e)
    return bytes(out_bytes)

fuzz = os.path.join(corpus, "fuzz")
for name in sorted(os.listdir(fuzz)):
    text = open(os.path.join(fuzz, name), encoding="utf-8").read()
    lit = text[text.index("[]byte(") + 7:text.rindex(")")]
    open(os.path.join(out, "binary", "fuzz-" + name), "wb").write(go_unquote_bytes(lit))
