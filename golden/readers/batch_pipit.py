"""Batch driver for pipit's HPCToolkit v4 reader (pipit.Trace.from_hpctoolkit: meta.db
and trace.db), the reader matrix's protocol (batch.py). argv[1] is the reader's source
folder, argv[2] its version as the matrix found it."""
import os
import sys
import warnings

warnings.filterwarnings("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batch  # noqa: E402
import pipit  # noqa: E402


def load(path, want_content):
    t = pipit.Trace.from_hpctoolkit(path)
    ev = t.events
    if not want_content:
        return None
    return {"events": int(len(ev))}


if __name__ == "__main__":
    batch.serve(load, [sys.argv[1]], sys.argv[2])
