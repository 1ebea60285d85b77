"""A real SMTP server for the notification tests (aiosmtpd): it accepts every message and
appends it to OUT as one JSON line {"to": [...], "data": "<the whole message>"}, except for
recipients at refuse.example, which it refuses for good (550). Prints "ready" once listening.

Usage: python sink.py PORT OUT
"""

import json
import signal
import sys

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, out):
        self.out = out

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.endswith("@refuse.example"):
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        line = json.dumps({"to": envelope.rcpt_tos, "data": envelope.content.decode("utf-8", "replace")})
        with open(self.out, "a", encoding="utf-8") as f:
            f.write(line + "\n")
        return "250 Message accepted for delivery"


def main():
    port, out = int(sys.argv[1]), sys.argv[2]
    controller = Controller(Sink(out), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    controller.stop()


if __name__ == "__main__":
    main()
