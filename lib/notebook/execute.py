"""Executes a notebook through the real Jupyter protocol (nbclient driving the
Deno kernel from `deno jupyter --install`) and writes the executed copy.

Usage: python3 execute.py SRC.ipynb DST.ipynb [TIMEOUT_SECONDS] [--stop-on-error]
The kernel's working directory is SRC's folder, so relative imports work.
Error outputs are kept for the caller to inspect. Without --stop-on-error
every cell runs (allow_errors); with it, execution stops at the first cell
that fails, as "Run All" does in JupyterLab, and the notebook is still
written with the outputs so far. Either way the last line on stdout is a
JSON summary: {"cells": N, "errors": [{"cell": i, "ename": ..., "evalue": ...}],
"kernelPeakMb": ..., "childrenPeakMb": ..., "wholePeakMb": ...} (i counts code
cells from 1; the peaks are the kernel's, the largest sum of the peaks of its
live child processes (such as a query's) read every 0.1 s, and the largest
resident memory of the kernel and its children together at one reading, at
least the kernel's peak; null where not measured).

Why not plain `jupyter nbconvert --execute`: the Deno kernel can publish a
cell's last outputs just after it reports "idle", and stock nbclient stops
listening at idle, so outputs go missing at random.
"""
import json
import os
import queue
import re
import sys
import threading

import nbformat
from nbclient import NotebookClient
from nbclient.client import CellExecutionComplete, ensure_async
from nbclient.exceptions import CellExecutionError

# The Deno kernel can publish a cell's result just after its "idle" status;
# stock nbclient stops listening at idle and drops it. Keep listening for
# this long after idle (nothing else is in flight: the next cell has not
# been sent yet).
GRACE_SECONDS = 0.5

# Terminal colour codes have no place in a committed notebook.
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def strip_ansi(nb) -> None:
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if "text" in out:
                out["text"] = ANSI.sub("", out["text"])
            data = out.get("data", {})
            if "text/plain" in data:
                data["text/plain"] = ANSI.sub("", data["text/plain"])
            if "traceback" in out:
                out["traceback"] = [ANSI.sub("", line) for line in out["traceback"]]


class DenoNotebookClient(NotebookClient):
    async def _async_poll_output_msg(self, parent_msg_id, cell, cell_index):
        assert self.kc is not None
        while True:
            msg = await ensure_async(self.kc.iopub_channel.get_msg(timeout=None))
            if msg["parent_header"].get("msg_id") == parent_msg_id:
                try:
                    self.process_message(msg, cell, cell_index)
                except CellExecutionComplete:
                    break
        while True:
            try:
                msg = await ensure_async(self.kc.iopub_channel.get_msg(timeout=GRACE_SECONDS))
            except queue.Empty:
                return
            if msg["parent_header"].get("msg_id") == parent_msg_id:
                try:
                    self.process_message(msg, cell, cell_index)
                except CellExecutionComplete:
                    pass


def kernel_peak_mb(client) -> float | None:
    """The kernel process's peak resident memory so far (Linux VmHWM), MiB."""
    try:
        pid = client.km.provisioner.process.pid
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except Exception:  # another OS, or no process to read: not measured
        return None
    return None


def _status_kb(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def _parents() -> dict:
    """Each process's parent, from one pass over /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                # the field after the parenthesised command name is the state, then the parent
                parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
        except Exception:  # exited while read
            continue
    return parents


def children_mb(client, key: str = "VmHWM") -> float | None:
    """The sum of `key` (VmHWM: each one's peak so far; VmRSS: now) over the
    kernel's descendant processes alive now (a query's process, any the
    notebook starts), MiB."""
    try:
        kernel = client.km.provisioner.process.pid
        parents = _parents()
        below = {}
        for pid, ppid in parents.items():
            below.setdefault(ppid, []).append(pid)
        todo = list(below.get(kernel, []))
        total = 0
        while todo:
            pid = todo.pop()
            try:
                total += _status_kb(pid, key)
            except Exception:  # exited while read
                continue
            todo.extend(below.get(pid, []))
        return total / 1024
    except Exception:  # another OS, or no process to read: not measured
        return None


class ChildrenSampler(threading.Thread):
    """While the notebook runs, reads the kernel's child processes every
    0.1 s: `best`, the largest sum of their peaks (a process that starts and
    exits within a cell, such as a query's, counts at its peak as last read
    before it exited), and `whole`, the largest resident memory of the
    kernel and its children together at one reading."""

    def __init__(self, client):
        super().__init__(daemon=True)
        self.client = client
        self.best = None
        self.whole = None
        self.done = threading.Event()

    def sample(self) -> None:
        mb = children_mb(self.client)
        if mb is not None:
            self.best = mb if self.best is None else max(self.best, mb)
        now = children_mb(self.client, "VmRSS")
        try:
            kernel = _status_kb(self.client.km.provisioner.process.pid, "VmRSS") / 1024
        except Exception:  # not started, or gone
            return
        if now is not None:
            self.whole = max(self.whole or 0, kernel + now)

    def run(self) -> None:
        while not self.done.wait(0.1):
            self.sample()


def errors_of(nb) -> list:
    found = []
    code = [c for c in nb.cells if c.cell_type == "code"]
    for i, cell in enumerate(code, start=1):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                found.append({"cell": i, "ename": out.get("ename", ""),
                              "evalue": ANSI.sub("", out.get("evalue", ""))})
    return found


def main() -> int:
    flags = [a for a in sys.argv[1:] if a.startswith("--")]
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    src, dst = args[0], args[1]
    timeout = int(args[2]) if len(args) > 2 else 600
    stop = "--stop-on-error" in flags
    nb = nbformat.read(src, as_version=4)
    client = DenoNotebookClient(
        nb,
        kernel_name="deno",
        timeout=timeout,
        startup_timeout=120,
        allow_errors=not stop,
        # no per-cell timestamps in committed notebooks: they change on every
        # run and only add bytes
        record_timing=False,
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(src))}},
    )
    peak = {"mb": None}
    # the processes the kernel starts count beside it, each at its peak while it runs
    sampler = ChildrenSampler(client)

    def note_peak(**_kwargs):
        # VmHWM only grows: its value after the last cell is the kernel's peak
        mb = kernel_peak_mb(client)
        if mb is not None:
            peak["mb"] = mb
        sampler.sample()

    client.on_cell_executed = note_peak
    sampler.start()
    try:
        client.execute()
    except CellExecutionError:
        pass  # the error output is in the notebook; reported below
    finally:
        sampler.done.set()
    strip_ansi(nb)
    nbformat.write(nb, dst)
    code = [c for c in nb.cells if c.cell_type == "code"]
    print(json.dumps({"cells": len(code), "errors": errors_of(nb), "kernelPeakMb": peak["mb"],
                      "childrenPeakMb": sampler.best,
                      # the kernel's own peak can fall between readings: it bounds the whole from below
                      "wholePeakMb": None if sampler.whole is None or peak["mb"] is None
                      else max(sampler.whole, peak["mb"])}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
