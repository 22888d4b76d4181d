#!/usr/bin/env python3
# A bot that lets every play go and plays its first card, claiming one of
# the rank it must (or the first rank it may). On a refusal it answers
# with its fallback: let go, or skip in doubt mode.
import json, sys

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()

view = None
for line in sys.stdin:
    msg = json.loads(line)
    if "decide" in msg:
        view, moves = msg["decide"], msg["moves"]
        if "pass" in moves:
            say({"cmd": "pass", "no": view["window"]["no"]})
        elif "give" in moves:
            say({"cmd": "give", "cards": view["hand"][:view["give"]["count"]]})
        elif "skip" in moves:
            say({"cmd": "skip"})
        elif "play" in moves:
            card = view["hand"][0]
            rank = view.get("rank") or (view.get("ranks") or [None])[0] or ("A" if card == "JK" else card[:-1])
            say({"cmd": "play", "cards": [card], "claim": 1, "rank": rank})
    elif "ok" in msg and not msg["ok"]:
        sys.stderr.write("refused: %s\n" % msg["message"])
