#!/usr/bin/env python3
"""What each crate costs in a binary built WITHOUT strip (like `cargo bloat --crates`, from nm).

Usage: CARGO_PROFILE_DIST_STRIP=false cargo build --profile dist --locked
       python3 scripts/size-by-crate.py target/dist/mentorpay [ROWS]

Each sized symbol goes to a crate:
- Rust: the first crate of its demangled path; a generic of core/alloc/std instantiated for
  another crate's type (`Vec<sea_orm::Value>`, `drop_in_place<actix_web::..>`) goes to that
  crate, since it exists because of it (cargo bloat leaves those under std).
- C: mimalloc and ring's C and assembly by their prefixes; the rest with SQLite.
Inlined code counts where it was inlined, so the figures are approximate; what no symbol covers
(anonymous constants such as the embedded UI and fonts, padding) is printed per section.
"""
import collections
import re
import subprocess
import sys

STD = {"core", "alloc", "std", "compiler_builtins", "hashbrown", "std_detect"}
C_PREFIXES = [
    ("mi_", "mimalloc (C)"),
    ("_mi_", "mimalloc (C)"),
    ("theap", "mimalloc (C)"),
    ("ring_core_", "ring (C/asm)"),
    ("ecp_nistz256", "ring (C/asm)"),
    ("fe_", "ring (C/asm)"),
    ("ge_", "ring (C/asm)"),
    ("x25519", "ring (C/asm)"),
    ("anon.", "[anonymous data]"),
]
# SQLite's static functions carry no common prefix: what no rule above names is counted with
# SQLite, by far the largest C library linked (a few libc and ring helpers go with it).
OTHER_C = "SQLite and other C"
CRATE_PATH = re.compile(r"(?<![A-Za-z0-9_:])([a-z_][a-z0-9_]*)::")


def crate_of(name):
    if "::" not in name:
        for prefix, crate in C_PREFIXES:
            if name.lstrip("_").startswith(prefix.lstrip("_")):
                return crate
        return OTHER_C
    crates = CRATE_PATH.findall(name)
    if not crates:
        return "[?]"
    if crates[0] in STD:
        for c in crates[1:]:
            if c not in STD:
                return c
    return crates[0]


def sections(binary):
    out = subprocess.run(["size", "-A", binary], capture_output=True, text=True, check=True).stdout
    result = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0].startswith(".") and parts[1].isdigit():
            result[parts[0]] = int(parts[1])
    return result


def main():
    binary = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    out = subprocess.run(["nm", "-S", "--size-sort", "-C", binary],
                         capture_output=True, text=True, check=True).stdout
    if not out.strip():
        sys.exit(f"{binary} has no symbols: build it with strip off")
    code = collections.Counter()
    data = collections.Counter()
    seen = set()
    for line in out.splitlines():
        parts = line.split(" ", 3)
        # Aliases (several names, one address) count once.
        if len(parts) < 4 or parts[0] in seen:
            continue
        seen.add(parts[0])
        kind = parts[2].lower()
        size = int(parts[1], 16)
        crate = crate_of(parts[3])
        if kind in ("t", "w"):
            code[crate] += size
        elif kind in ("r", "d", "b", "v"):
            data[crate] += size
    secs = sections(binary)
    text = secs.get(".text", 0)
    rodata = secs.get(".rodata", 0)
    print(f"sections: .text {text / 1e6:.2f} MB, .rodata {rodata / 1e6:.2f} MB, "
          f".eh_frame {secs.get('.eh_frame', 0) / 1e6:.2f} MB, "
          f".gcc_except_table {secs.get('.gcc_except_table', 0) / 1e6:.2f} MB, "
          f".data.rel.ro {secs.get('.data.rel.ro', 0) / 1e6:.2f} MB")
    print(f"code in sized symbols {sum(code.values()) / 1e6:.2f} MB of .text; "
          f"named data {sum(data.values()) / 1e6:.2f} MB (the rest of .rodata is anonymous)")
    total = collections.Counter()
    total.update(code)
    total.update(data)
    print(f"{'crate':28} {'code MB':>8} {'data MB':>8} {'code %':>7}")
    for crate, _ in total.most_common(rows):
        print(f"{crate:28} {code[crate] / 1e6:8.2f} {data[crate] / 1e6:8.2f} "
              f"{100 * code[crate] / max(text, 1):6.1f}%")


if __name__ == "__main__":
    main()
