#!/usr/bin/env python3
"""A reference external bot for every game: plays a random legal action (hoola-bot/1 protocol).

It needs nothing but the Python standard library, as a bot in any language would: read one JSON
object per line on stdin, answer the ones that ask with one JSON object per line on stdout. It
knows no game's rules: it chooses from the view's ``legal`` list (and passing, when ``can_pass``),
so it plays whatever game the ``hello`` names. See docs/protocol.md. Try it:

    hoola sim --external rnd="python examples/random_bot.py" --bots rnd,greedy -n 20 -j 1
    hoola sim --game kalookie --external rnd="python examples/random_bot.py" --bots rnd,random -n 5
"""

from __future__ import annotations

import json
import random
import sys


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else None)
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            # message["game"] names the game (absent from hosts older than it: Hoola).
            reply: dict[str, object] = {"type": "ready", "name": "random-example"}
        elif kind == "act":
            view = message["view"]
            choices: list[str | None] = list(view["legal"])
            if view["can_pass"]:
                choices.append(None)  # letting a discard, a warning or a swap go
            # Echo the question's id: the host refuses an answer to any other question.
            reply = {"type": "action", "id": message.get("id"), "action": rng.choice(choices)}
        elif kind == "quit":
            return
        else:
            continue  # "deal" and "end" are news; nothing to answer
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
