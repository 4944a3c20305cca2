"""Batch driver for hatchet's HPCToolkit v4 reader (GraphFrame.from_hpctoolkit), the
reader matrix's protocol (batch.py). Run with the Python and PYTHONPATH the reader
was installed with; argv[1] is the reader's source folder (what counts as its code)."""
import os
import sys
import warnings

warnings.filterwarnings("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batch  # noqa: E402
from hatchet import GraphFrame  # noqa: E402


def load(path, want_content):
    # No content adapter yet (docs/READERS.md says why): loading is the test.
    GraphFrame.from_hpctoolkit(path)
    return None


if __name__ == "__main__":
    from hatchet.version import __version__
    batch.serve(load, [sys.argv[1]], "hatchet " + __version__)
