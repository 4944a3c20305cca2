#!/usr/bin/env python3
"""The layers of validator/LAYERS, held against the code.

Folders: at most 25 source files each, no file name starting with its
folder's name and '_'. Includes: a file may include files of its own entry and of the entries
above it, never of one below, and no family includes another. Calls (with
--objects DIR, the build's obj/ folder): no function or variable a file
uses may be defined by a file of a higher entry, except the hooks LAYERS
names. A concept's rule table (rules.def) is data gathered by
core/rules_all.def, exempt from both.

usage: tests/check_layers.py [--objects DIR] [REPO_ROOT]
Prints one line per violation, then 'layers: ...' with the counts; exits 1
on any violation."""
import os
import re
import subprocess
import sys

args = sys.argv[1:]
objdir = None
if args[:1] == ['--objects']:
    objdir = os.path.abspath(args[1])
    args = args[2:]
os.chdir(args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
FAMILIES = ('hpctoolkit', 'ovni', 'dumpi')


def full(e):
    return e if e.startswith('golden/') else 'validator/' + e


entries, hooks = [], {}
for line in open('validator/LAYERS'):
    words = line.split('#')[0].split()
    if not words:
        continue
    if words[0] == 'hook:':         # hook: ENTRY SYMBOL... (below, what a lower entry may call above it)
        hooks.setdefault(full(words[1]), set()).update(words[2:])
    else:
        entries.append(full(words[0]))
rank = {e: i for i, e in enumerate(entries)}


def entry_of(path):
    best = None
    for e in entries:
        if path == e or (e.endswith('/') and path.startswith(e)):
            if best is None or len(e) > len(best):
                best = e
    return best


def family_of(path):
    parts = path.split('/')
    return parts[1] if len(parts) > 2 and parts[1] in FAMILIES else None


def exempt(path):
    return os.path.basename(path) == 'rules.def'


files = []
for top in ('validator', 'golden'):
    for dp, dn, fn in os.walk(top):
        dn[:] = [d for d in dn if d not in ('cases', 'tools')]
        files += [os.path.join(dp, f) for f in fn if f.endswith(('.c', '.h', '.def'))]
fset = set(files)
bad = 0


def violation(msg):
    global bad
    print(msg)
    bad += 1


def check_edge(src, dst, what):
    es, ed = entry_of(src), entry_of(dst)
    fs, fd = family_of(src), family_of(dst)
    if fs and fd and fs != fd:
        violation(f'{src}: {what} {dst}, of another family')
    elif es is not None and ed is not None and rank[ed] > rank[es]:
        violation(f'{src} ({es[10:] if es.startswith("validator/") else es}): {what} {dst}, a layer above it')


# A folder is one concept: about 25 source files at most, and no file name
# that repeats the folder's (metadb/context.c, not metadb/metadb_context.c).
MAX_FILES = 25
by_dir = {}
for f in files:
    by_dir.setdefault(os.path.dirname(f), []).append(os.path.basename(f))
for d, names in sorted(by_dir.items()):
    if len(names) > MAX_FILES:
        violation(f'{d}/: {len(names)} source files, more than {MAX_FILES}: split it by concept')
    folder = os.path.basename(d)
    for n in sorted(names):
        if n.startswith(folder + '_'):
            violation(f'{d}/{n}: its name repeats its folder')

inc_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
nincs = 0
for f in sorted(files):
    if entry_of(f) is None:
        violation(f'{f}: in no entry of validator/LAYERS')
        continue
    for inc in inc_re.findall(open(f, errors='replace').read()):
        for base in (os.path.dirname(f), 'validator', 'golden'):
            p = os.path.normpath(os.path.join(base, inc))
            if p in fset:
                nincs += 1
                if not exempt(p):
                    check_edge(f, p, 'includes')
                break

ncalls = 0
if objdir:
    defs, uses = {}, {}
    objs = {}
    for dp, dn, fn in os.walk(objdir):
        for o in fn:
            if not o.endswith('.o'):
                continue
            rel = os.path.relpath(os.path.join(dp, o), objdir)
            src = rel[:-2] + '.c'
            if src in fset:
                objs[rel] = src
    # One nm for all the objects (a process each cost ~2 CPU-s a build);
    # -A prefixes every line with its object's path (relative, from the
    # repository's own names: no colon of the checkout's path in it), and
    # the objects keep the walk's order, so the first definition of a name
    # is the same one.
    out = subprocess.run(['nm', '-A', '--'] + list(objs), capture_output=True, text=True,
                         check=True, cwd=objdir).stdout if objs else ''
    for line in out.splitlines():
        path, sep, rest = line.partition(':')
        src = objs.get(path)
        if not sep or src is None:
            continue
        p = rest.split()
        if len(p) == 3 and p[1] in 'TDBRCV':
            defs.setdefault(p[2], src)
        elif len(p) == 2 and p[0] == 'U':
            uses.setdefault(src, set()).add(p[1])
    for src in sorted(uses):
        allowed = hooks.get(entry_of(src), set())
        for sym in sorted(uses[src]):
            dst = defs.get(sym)
            if dst is None or sym in allowed:
                continue
            ncalls += 1
            check_edge(src, dst, f'uses {sym} of')
print(f'layers: {len(files)} files, {nincs} includes, {ncalls} uses across files'
      f'{"" if objdir else " (no --objects: includes only)"}, {bad} violations')
sys.exit(1 if bad else 0)
