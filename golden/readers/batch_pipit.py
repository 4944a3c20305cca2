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
    # No content adapter yet (docs/READERS.md says why): loading is the test.
    pipit.Trace.from_hpctoolkit(path).events
    return None


if __name__ == "__main__":
    batch.serve(load, [sys.argv[1]], sys.argv[2])
