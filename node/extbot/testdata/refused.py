#!/usr/bin/env python3
# A bot whose first answer to every decision is a card it doesn't hold; sent
# the refusal, it tries again with its first card or a let-go.
import json, sys

def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()

view, moves = None, []
for line in sys.stdin:
    msg = json.loads(line)
    if "decide" in msg:
        view, moves = msg["decide"], msg["moves"]
        if "play" in moves and view["phase"] == "play":
            say({"cmd": "play", "cards": ["XX"], "claim": 1})
        else:
            say({"cmd": "call" if "call" in moves else "skip", "no": 99999})
    elif "ok" in msg and not msg["ok"]:
        if "pass" in moves:
            say({"cmd": "pass"})
        elif "give" in moves:
            say({"cmd": "give", "cards": view["hand"][:1]})
        elif "skip" in moves:
            say({"cmd": "skip"})
        else:
            card = view["hand"][0]
            rank = view.get("rank") or (view.get("ranks") or [None])[0] or ("A" if card == "JK" else card[:-1])
            say({"cmd": "play", "cards": [card], "claim": 1, "rank": rank})
