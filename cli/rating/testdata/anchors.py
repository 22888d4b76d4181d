# Bot anchors for the ratings, from our own measured ladder:
#   bullshit sim --ladder --seats N --games G     (seed 1, the default)
# Medium is fixed at 1500 at every table size. Each pairing's head-to-head
# score p (pairs of seats by finishing order: 1 ahead, 1/2 level, 0
# behind; half the games one bot of the first kind against the rest of the
# second, half the other way, same deals) is an Elo difference
# 400*log10(p/(1-p)). easy and hard are the weighted least-squares fit of
# the three differences (medium-easy, hard-medium, hard-easy), each weighted
# by 1/se^2 from its 95 % interval.
import math

def d(p): return 400*math.log10(p/(1-p))

# seats: pair -> (games, elo, elo_lo, elo_hi)
E = {}
def add(seats, pair, games, p, lo, hi):
    E.setdefault(seats, {})[pair] = (games, p, d(p), d(lo), d(hi))
def adde(seats, pair, games, p, e, elo, ehi):
    E.setdefault(seats, {})[pair] = (games, p, e, elo, ehi)

# 2 and 5 seats: 30000 games a pairing (elo and its interval as printed)
adde(2, "me", 30000, 0.9933, 867.5, 845.0, 893.4)
adde(2, "hm", 30000, 0.5867, 60.8, 56.9, 64.8)
adde(2, "he", 30000, 0.9989, 1188.6, 1136.9, 1262.5)
adde(5, "me", 30000, 0.7372, 179.2, 176.0, 182.4)
adde(5, "hm", 30000, 0.6652, 119.3, 116.2, 122.4)
adde(5, "he", 30000, 0.7816, 221.5, 218.1, 225.0)
# 3 seats: 100000 games; 4: 60000; 6: 40000
add(3, "me", 100000, 0.871155, 0.869607062579787, 0.872702937420213)
add(3, "hm", 100000, 0.605725, 0.6032772473916692, 0.6081727526083307)
add(3, "he", 100000, 0.924425, 0.9231864968071458, 0.9256635031928543)
add(4, "me", 60000, 0.8063527777778091, 0.8040639691603727, 0.8086415863952455)
add(4, "hm", 60000, 0.619580555555553, 0.6166222924306262, 0.6225388186804799)
add(4, "he", 60000, 0.8536055555555846, 0.8515311413435809, 0.8556799697675883)
add(6, "me", 40000, 0.679774999999985, 0.6765600779328149, 0.6829899220671551)
add(6, "hm", 40000, 0.6646799999999877, 0.6611138165232854, 0.6682461834766901)
add(6, "he", 40000, 0.7279974999999811, 0.7249638832880344, 0.7310311167119278)
# 7 to 10 seats: 20000 games
add(7, "me", 20000, 0.7239166666666553, 0.7196683464148775, 0.7281649869184331)
add(7, "hm", 20000, 0.8386749999999753, 0.8345575595499443, 0.8427924404500063)
add(7, "he", 20000, 0.8632874999999817, 0.8602756170138658, 0.8662993829860975)
add(8, "me", 20000, 0.6963928571428615, 0.6920187420603565, 0.7007669722253664)
add(8, "hm", 20000, 0.8164285714285928, 0.8119551387421664, 0.8209020041150192)
add(8, "he", 20000, 0.8634178571428817, 0.8604030858862294, 0.8664326283995339)
add(9, "me", 20000, 0.66935625, 0.6648794133025543, 0.6738330866974457)
add(9, "hm", 20000, 0.793965625, 0.7891338494935836, 0.7987974005064165)
add(9, "he", 20000, 0.856990625, 0.853820818307078, 0.860160431692922)
add(10, "me", 20000, 0.643680555555543, 0.6391064988853151, 0.648254612225771)
add(10, "hm", 20000, 0.7756611111110722, 0.7705856769793173, 0.780736545242827)
add(10, "he", 20000, 0.8454944444443954, 0.8422331556179363, 0.8487557332708544)

print("| seats | medium–easy | hard–medium | hard–easy | easy | hard |")
print("|---|---|---|---|---|---|")
# The anchors' 95 % intervals are from the fit's covariance (the inverse of
# the normal matrix); the ladder's intransitivity is larger than that.
for n in sorted(E):
    r = E[n]
    w = {k: 1/(((v[4]-v[3])/3.92)**2) for k, v in r.items()}
    a, b, c = r["me"][2], r["hm"][2], r["he"][2]
    # minimise wa(-e-a)^2 + wb(h-b)^2 + wc(h-e-c)^2 over e, h
    wa, wb, wc = w["me"], w["hm"], w["he"]
    # d/de: wa(e+a) - wc(h-e-c) = 0 -> (wa+wc)e - wc h = -wa a - wc c
    # d/dh: wb(h-b) + wc(h-e-c) = 0 -> -wc e + (wb+wc)h = wb b + wc c
    A = [[wa+wc, -wc], [-wc, wb+wc]]
    y = [-wa*a - wc*c, wb*b + wc*c]
    det = A[0][0]*A[1][1]-A[0][1]*A[1][0]
    e = (y[0]*A[1][1]-A[0][1]*y[1])/det
    h = (A[0][0]*y[1]-A[1][0]*y[0])/det
    cell = lambda k: "%.1f %% (%d games) = %+.0f [%+.0f, %+.0f]" % (100*r[k][1], r[k][0], r[k][2], r[k][3], r[k][4])
    se_e = 1.96 * math.sqrt(A[1][1] / det)
    se_h = 1.96 * math.sqrt(A[0][0] / det)
    print("| %d | %s | %s | %s | %d ± %.0f | %d ± %.0f |" % (n, cell("me"), cell("hm"), cell("he"), round(1500+e), se_e, round(1500+h), se_h))
