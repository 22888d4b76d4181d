#!/usr/bin/env python3
"""Worked examples of the rating update, computed independently of the Go
code (python3 worked.py prints the tables in worked.md).

The model (README of package rating, constants in rating.go):
  - a person starts at R 1500, RD 350 (RD never above 350);
  - before each rated game every person's RD grows: RD = min(sqrt(RD^2 + C^2), 350), C = 25;
  - a game of k seats is a field: every seat meets every other once, weight 2/k,
    scored by final places: 1 ahead, 0.5 level, 0 behind;
  - bots are anchors with RD 0 (g = 1) and ratings by level and seats (anchors.md);
  - seats not rated (covered by a bot more than 3 plays, an unknown bot, no place)
    are left out of every pairing, but k stays the number of seats;
  - Glicko-1 for each rated person i, from everyone's pre-game values:
      q = ln 10 / 400,  g(RD) = 1 / sqrt(1 + 3 q^2 RD^2 / pi^2)
      E_j = 1 / (1 + 10^(-g(RD_j) (R_i - R_j) / 400))
      1/d^2 = q^2 sum_j w g_j^2 E_j (1 - E_j)
      RD'  = 1 / sqrt(1/RD^2 + 1/d^2)
      R'   = R + q RD'^2 sum_j w g_j (s_j - E_j)
"""
import math

Q = math.log(10) / 400
C = 25.0
RDMAX = 350.0
ANCHORS = {  # seats: (easy, hard); medium is 1500
    2: (599, 1562), 3: (1159, 1579), 4: (1261, 1578), 5: (1346, 1596), 6: (1393, 1590),
    7: (1362, 1725), 8: (1374, 1722), 9: (1387, 1714), 10: (1402, 1705),
}


def g(rd):
    return 1 / math.sqrt(1 + 3 * Q * Q * rd * rd / (math.pi ** 2))


def anchor(level, k):
    e, h = ANCHORS[k]
    return {"easy": e, "medium": 1500, "hard": h}[level]


def game(seats):
    """seats: list of dicts: name, place, and either bot=level or r, rd;
    rated=False leaves a person out. Returns {name: (R', RD', dR)}."""
    k = len(seats)
    w = 2 / k
    pre = []
    for s in seats:
        if "bot" in s:
            pre.append((anchor(s["bot"], k), 0.0))
        else:
            pre.append((s["r"], min(math.sqrt(s["rd"] ** 2 + C * C), RDMAX)))
    out = {}
    for i, s in enumerate(seats):
        if "bot" in s or not s.get("rated", True):
            continue
        r, rd = pre[i]
        inv_d2, sum_ = 0.0, 0.0
        for j, o in enumerate(seats):
            if j == i or not o.get("rated", True):
                continue
            rj, rdj = pre[j]
            gj = g(rdj)
            e = 1 / (1 + 10 ** (-gj * (r - rj) / 400))
            sc = 1.0 if s["place"] < o["place"] else 0.5 if s["place"] == o["place"] else 0.0
            inv_d2 += Q * Q * w * gj * gj * e * (1 - e)
            sum_ += w * gj * (sc - e)
        rd2 = 1 / math.sqrt(1 / (rd * rd) + inv_d2)
        r2 = r + Q * rd2 * rd2 * sum_
        out[s["name"]] = (r2, rd2, r2 - s["r"])
    return out


def show(title, seats):
    print("### " + title)
    print()
    print("| seat | before | place | after | change |")
    print("|---|---|---|---|---|")
    res = game(seats)
    for s in seats:
        if "bot" in s:
            print("| %s | bot %s, %d (anchor) | %d | — | — |" % (s["name"], s["bot"], anchor(s["bot"], len(seats)), s["place"]))
        elif s["name"] not in res:
            print("| %s | %.2f ± %.2f | %d | not rated | — |" % (s["name"], s["r"], s["rd"], s["place"]))
        else:
            r2, rd2, dr = res[s["name"]]
            print("| %s | %.2f ± %.2f | %d | %.2f ± %.2f | %+.2f |" % (s["name"], s["r"], s["rd"], s["place"], r2, rd2, dr))
    print()
    return res


if __name__ == "__main__":
    new = dict(r=1500.0, rd=350.0)
    show("1. Four new players, places 1 to 4", [
        dict(name="A", place=1, **new), dict(name="B", place=2, **new),
        dict(name="C", place=3, **new), dict(name="D", place=4, **new)])
    show("2. Two new players and two medium bots, 4 seats, places 1, 2, 2, 4 (a tie)", [
        dict(name="A", place=2, **new), dict(name="M1", place=1, bot="medium"),
        dict(name="B", place=4, **new), dict(name="M2", place=2, bot="medium")])
    show("3. A settled player wins a 3-seat game against easy and hard", [
        dict(name="A", place=1, r=1620.0, rd=60.0), dict(name="E", place=3, bot="easy"),
        dict(name="H", place=2, bot="hard")])
    show("4. Settled against new: 1700 ± 80 comes last, a new player wins, 3 seats with a medium bot", [
        dict(name="A", place=3, r=1700.0, rd=80.0), dict(name="B", place=1, **new),
        dict(name="M", place=2, bot="medium")])
    show("5. Five seats, one covered by a bot too long (not rated), places 1 2 3 4 5", [
        dict(name="A", place=1, **new), dict(name="B", place=2, r=1550.0, rd=120.0),
        dict(name="X", place=3, r=1500.0, rd=350.0, rated=False), dict(name="H", place=4, bot="hard"),
        dict(name="E", place=5, bot="easy")])
    show("6. Two seats: a new player loses to an easy bot", [
        dict(name="A", place=2, **new), dict(name="E", place=1, bot="easy")])
    g1 = show("7a. Two games in a row, 3 seats with a hard bot: the first", [
        dict(name="A", place=1, **new), dict(name="H", place=2, bot="hard"),
        dict(name="B", place=3, **new)])
    (ra, rda, _), (rb, rdb, _) = g1["A"], g1["B"]
    show("7b. The second, from the first's results", [
        dict(name="A", place=2, r=ra, rd=rda), dict(name="H", place=3, bot="hard"),
        dict(name="B", place=1, r=rb, rd=rdb)])
