"""Executes a notebook through the real Jupyter protocol (nbclient driving the
Deno kernel from `deno jupyter --install`) and writes the executed copy.

Usage: python3 execute.py SRC.ipynb DST.ipynb [TIMEOUT_SECONDS]
The kernel's working directory is SRC's folder, so relative imports work.
Error outputs are kept (allow_errors) for the caller to inspect.
"""
import os
import queue
import re
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.client import CellExecutionComplete, ensure_async

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


def main() -> int:
    src, dst = sys.argv[1], sys.argv[2]
    timeout = int(sys.argv[3]) if len(sys.argv) > 3 else 600
    nb = nbformat.read(src, as_version=4)
    client = DenoNotebookClient(
        nb,
        kernel_name="deno",
        timeout=timeout,
        startup_timeout=120,
        allow_errors=True,
        # no per-cell timestamps in committed notebooks: they change on every
        # run and only add bytes
        record_timing=False,
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(src))}},
    )
    client.execute()
    strip_ansi(nb)
    nbformat.write(nb, dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
