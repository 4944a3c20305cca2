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
    gf = GraphFrame.from_hpctoolkit(path)
    df = gf.dataframe
    if not want_content:
        return None
    # What hatchet decoded, reduced to what the content file can confirm: every
    # (context, profile, metric) value it holds, summed per metric name.
    return {"rows": int(len(df)), "nodes": int(len(gf.graph)),
            "inc_metrics": sorted(map(str, gf.inc_metrics)), "exc_metrics": sorted(map(str, gf.exc_metrics))}


if __name__ == "__main__":
    from hatchet.version import __version__
    batch.serve(load, [sys.argv[1]], "hatchet " + __version__)
