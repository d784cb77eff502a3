#!/usr/bin/env python3
"""A pi client in Python, with the standard library only: it runs `pi --mode rpc`, lists the session's services,
sends one prompt and prints the answer as it streams.

    python3 client.py "what does this project do?"
    python3 client.py --cwd ~/src/app --no-session "summarize README.md"

`pi` is found on PATH; set PI_COMMAND to run another (for example "node /path/to/apps/cli/bin/pi.mjs").
The protocol: docs/rpc-mode.md in the pi repository.
"""

import argparse
import itertools
import json
import os
import queue
import shlex
import subprocess
import sys
import threading


class RpcError(Exception):
    """A command pi answered with success: false; `code` is pi's stable code (invalid_argument, unknown_model, ...)."""

    def __init__(self, error):
        super().__init__(f"{error['code']}: {error['message']}")
        self.code = error["code"]
        self.data = error.get("data")


class PiRpc:
    """One `pi --mode rpc` process: commands go in as JSON lines, responses and events come out as JSON lines."""

    def __init__(self, pi_args):
        command = shlex.split(os.environ.get("PI_COMMAND", "pi")) + ["--mode", "rpc"] + pi_args
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.lines = queue.Queue()
        self.ids = itertools.count(1)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        # A binary stream splits on b"\n" only, as the protocol asks (JSON strings may hold U+2028).
        for raw in self.process.stdout:
            self.lines.put(json.loads(raw))
        self.lines.put(None)

    def next_line(self):
        line = self.lines.get()
        if line is None:
            raise EOFError(f"pi exited with code {self.process.wait()}")
        return line

    def send(self, command):
        """Writes one command with a fresh id, and returns the id its response will carry."""
        command = {"id": f"py-{next(self.ids)}", **command}
        self.process.stdin.write(json.dumps(command).encode("utf-8") + b"\n")
        self.process.stdin.flush()
        return command["id"]

    def request(self, command, on_event=lambda line: None):
        """Sends a command and waits for its response; lines that come meanwhile go to on_event."""
        request_id = self.send(command)
        while True:
            line = self.next_line()
            if line["type"] == "response" and line["id"] == request_id:
                if not line["success"]:
                    raise RpcError(line["error"])
                return line["data"]
            on_event(line)

    def close(self):
        """Ends the input: pi lets the runs it started finish, lets go of the session and exits."""
        self.process.stdin.close()
        return self.process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prompt")
    parser.add_argument("--cwd", help="the project directory (default: this one)")
    parser.add_argument("--data-dir", help="where pi keeps sessions (default: pi's)")
    parser.add_argument("--no-session", action="store_true", help="a session of its own, removed afterwards")
    options = parser.parse_args()
    pi_args = []
    if options.cwd:
        pi_args += ["--cwd", options.cwd]
    if options.data_dir:
        pi_args += ["--data-dir", options.data_dir]
    if options.no_session:
        pi_args.append("--no-session")

    pi = PiRpc(pi_args)
    ready = pi.next_line()
    print(f"session {ready['sessionId']} in {ready['cwd']}", file=sys.stderr)

    # Any service's methods are callable by name; describe says what this session serves.
    description = pi.request({"type": "describe"})
    print("services: " + ", ".join(service["id"] for service in description["services"]), file=sys.stderr)
    try:
        pi.request({"type": "call", "service": "models", "method": "select", "args": [{"provider": "none", "modelId": "x"}]})
    except RpcError as error:
        print(f"as expected, no such model: {error.code}", file=sys.stderr)

    # The run's events may come before the prompt's response names its operation: keep them until then.
    early = []
    accepted = pi.request({"type": "prompt", "message": options.prompt}, on_event=early.append)
    if not accepted["accepted"]:
        print(f"refused: {accepted['error']['message']}", file=sys.stderr)
        return 1
    operation = accepted["operationId"]
    outcome = None
    for line in itertools.chain(early, iter(pi.next_line, None)):
        if line["type"] != "event" or line["service"] != "chat":
            continue
        event = line["event"]
        if event.get("operationId") != operation:
            continue
        if event["type"] == "delta":
            print(event["text"], end="", flush=True)
        elif event["type"] == "settled":
            outcome = event
            break
    print()
    code = pi.close()
    if outcome is None or outcome["outcome"] != "completed":
        print(f"the run did not complete: {outcome}", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
