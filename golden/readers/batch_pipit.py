"""Batch driver for pipit's HPCToolkit v4 reader (pipit.Trace.from_hpctoolkit: meta.db
and trace.db), the reader matrix's protocol (batch.py). argv[1] is the reader's source
folder, argv[2] its version as the matrix found it.

With content asked for, it prints pipit's events frame as it is, in its order: per
event the timestamp (pipit's, relative to trace.db's smallest), the event type
(Enter / Leave / Loop Enter / Loop Leave), the calling context id it names and the
trace line's identifier columns (Process, Thread, Host, Core). content.py's
pipit_lines turns each line back into its sequence of context changes."""
import math
import os
import sys
import warnings

warnings.filterwarnings("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batch  # noqa: E402
import pipit  # noqa: E402

LINE = ("Process", "Thread", "Host", "Core")


def _plain(v):
    if v is None:
        return None
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float):
        return None if math.isnan(v) else (int(v) if v.is_integer() else v)
    return v if isinstance(v, (int, str)) else str(v)


def load(path, want_content):
    ev = pipit.Trace.from_hpctoolkit(path).events
    if not want_content:
        return None
    cols = {c: ev[c].tolist() if c in ev.columns else [None] * len(ev)
            for c in ("Timestamp (ns)", "Event Type", "Calling Context ID") + LINE}
    events = [[_plain(cols["Timestamp (ns)"][i]), _plain(cols["Event Type"][i]),
               _plain(cols["Calling Context ID"][i]), [_plain(cols[c][i]) for c in LINE]]
              for i in range(len(ev))]
    return {"pipit": {"events": events}}


if __name__ == "__main__":
    batch.serve(load, [sys.argv[1]], sys.argv[2])
