"""The examples: examples/check_tree.py on a tree of inputs, and the
notebook examples/hpcvet.ipynb executed end to end where Debian's
jupyter-nbconvert and python3-ipykernel are installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import GEN, ROOT, SANITIZED, gen


def env_with_package(tmp_path) -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT / "python"), HPCVET_GEN=str(GEN), TMPDIR=str(tmp_path))


def test_check_tree(tmp_path, inputs):
    tree = tmp_path / "tree"
    gen(tree / "runs" / "a" / "database", "hpctoolkit-db")
    gen(tree / "runs" / "b" / "trace", "ovni-trace")
    gen(tree / "mpi", "dumpi-trace")
    gen(tree / "runs" / "c" / "database", "hpctoolkit-db")
    (tree / "runs" / "c" / "database" / "meta.db").write_bytes(b"HPCTOOLKITmeta\x04\x00")
    p = subprocess.run([sys.executable, str(ROOT / "examples" / "check_tree.py"), "-j2", str(tree)],
                       capture_output=True, text=True, env=env_with_package(tmp_path))
    assert p.returncode == 1, p.stderr
    lines = p.stdout.splitlines()
    assert lines[-1] == "4 inputs: 3 conforming, 1 nonconforming", p.stdout
    assert lines[0].startswith(f"{tree}/runs/c/database: nonconforming")


@pytest.mark.skipif(SANITIZED, reason="the notebook runs in the plain build (its hpcvet-gen would get the ASan runtime preloaded into python3)")
def test_notebook_runs(tmp_path):
    nbconvert = shutil.which("jupyter-nbconvert")
    if not nbconvert:
        pytest.skip("jupyter-nbconvert not installed (Debian: jupyter-nbconvert python3-ipykernel)")
    kernel = subprocess.run(["/usr/bin/python3", "-c", "import ipykernel"], capture_output=True)
    if kernel.returncode != 0:
        pytest.skip("python3-ipykernel not installed")
    p = subprocess.run([nbconvert, "--to", "notebook", "--execute", "--output-dir", str(tmp_path),
                        "--ExecutePreprocessor.timeout=300", str(ROOT / "examples" / "hpcvet.ipynb")],
                       capture_output=True, text=True, env=env_with_package(tmp_path), cwd=ROOT / "examples")
    assert p.returncode == 0, p.stderr[-3000:]
    nb = json.loads((tmp_path / "hpcvet.ipynb").read_text())
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert any("hpcvet-report" in "".join(h) and "metadb.hdr.footer" in "".join(h) for h in html)
