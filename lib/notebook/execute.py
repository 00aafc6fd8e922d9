"""Executes a notebook through the real Jupyter protocol (nbclient driving the
Deno kernel from `deno jupyter --install`) and writes the executed copy.

Usage: python3 execute.py SRC.ipynb DST.ipynb [TIMEOUT_SECONDS] [--stop-on-error]
The kernel's working directory is SRC's folder, so relative imports work.
Error outputs are kept for the caller to inspect. Without --stop-on-error
every cell runs (allow_errors); with it, execution stops at the first cell
that fails, as "Run All" does in JupyterLab, and the notebook is still
written with the outputs so far. Either way the last line on stdout is a
JSON summary: {"cells": N, "errors": [{"cell": i, "ename": ..., "evalue": ...}],
"kernelPeakMb": ..., "childrenPeakMb": ...} (i counts code cells from 1; the
peaks are the kernel's and the sum of its child processes', such as the
offline emulator, null where not measured).

Why not plain `jupyter nbconvert --execute`: the Deno kernel can publish a
cell's last outputs just after it reports "idle", and stock nbclient stops
listening at idle, so outputs go missing at random.
"""
import json
import os
import queue
import re
import sys

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


def _peak_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def _children(pid: int) -> list:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                # the field after the parenthesised command name is the state, then the parent
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except Exception:  # exited while read
            continue
        if ppid == pid:
            found.append(int(entry))
    return found


def children_peak_mb(client) -> float | None:
    """The sum of the peaks (Linux VmHWM) of the kernel's descendant processes
    alive now (the offline emulator `connect()` starts in a kernel), MiB."""
    try:
        todo = _children(client.km.provisioner.process.pid)
        total = 0
        while todo:
            pid = todo.pop()
            try:
                total += _peak_kb(pid)
            except Exception:  # exited while read
                continue
            todo.extend(_children(pid))
        return total / 1024
    except Exception:  # another OS, or no process to read: not measured
        return None


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
    peak = {"mb": None, "children": None}

    def note_peak(**_kwargs):
        # VmHWM only grows: its value after the last cell is the kernel's peak
        mb = kernel_peak_mb(client)
        if mb is not None:
            peak["mb"] = mb
        # processes the kernel started (and still runs) count beside it: VmHWM after the last cell
        children = children_peak_mb(client)
        if children is not None:
            peak["children"] = children

    client.on_cell_executed = note_peak
    try:
        client.execute()
    except CellExecutionError:
        pass  # the error output is in the notebook; reported below
    strip_ansi(nb)
    nbformat.write(nb, dst)
    code = [c for c in nb.cells if c.cell_type == "code"]
    print(json.dumps({"cells": len(code), "errors": errors_of(nb), "kernelPeakMb": peak["mb"],
                      "childrenPeakMb": peak["children"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
