# Reference values for tests/unit/test-stats.c, computed independently:
# scipy 1.10.1 (Debian python3-scipy) where it is exact, brute-force
# enumeration of all label permutations where there are ties.
import itertools, numpy as np
from scipy import stats
def perm_p(a, b, stat):
    pool = a + b; m = len(a); obs = stat(a, b); cnt = tot = 0
    for idx in itertools.combinations(range(len(pool)), m):
        s = set(idx); x = [pool[i] for i in idx]; y = [pool[i] for i in range(len(pool)) if i not in s]
        tot += 1
        if stat(x, y) >= obs - 1e-12: cnt += 1
    return cnt / tot
def mw_dev(a, b):  # |U - mn/2|
    u = stats.mannwhitneyu(a, b, method='asymptotic', use_continuity=False).statistic
    return abs(u - len(a)*len(b)/2)
def ks_d(a, b): return stats.ks_2samp(a, b).statistic
cases = {
 'no_ties': ([1.1, 2.3, 0.7, 4.4, 3.9], [5.2, 6.1, 4.8, 7.3]),
 'two_two': ([10.0, 11.0], [12.0, 13.0]),
 'overlap': ([1, 3, 5, 7, 9, 11], [2, 4, 6, 8, 10, 12, 14]),
 'ties': ([1, 2, 2, 3, 3, 3], [2, 3, 4, 4, 5]),
 'identical': ([5.0]*4, [5.0]*4),
 'tiny': ([1.0], [2.0]),
}
for k, (a, b) in cases.items():
    print(k)
    if k != 'ties' and k != 'identical':
        r = stats.mannwhitneyu(a, b, method='exact'); print('  mw exact scipy U=%g p=%.10f' % (r.statistic, r.pvalue))
        r = stats.ks_2samp(a, b, method='exact'); print('  ks exact scipy D=%.10f p=%.10f' % (r.statistic, r.pvalue))
    print('  mw perm p=%.10f' % perm_p(list(a), list(b), mw_dev))
    print('  ks perm p=%.10f' % perm_p(list(a), list(b), ks_d))
# large: normal approximation with ties
rng = np.random.default_rng(7)
a = list(np.round(rng.normal(10, 1, 40), 1)); b = list(np.round(rng.normal(10.5, 1, 35), 1))
r = stats.mannwhitneyu(a, b, method='asymptotic', use_continuity=True)
print('large a=', a); print('large b=', b); print('  mw asym U=%g p=%.10f' % (r.statistic, r.pvalue))
r = stats.ks_2samp(a, b, method='exact'); print('  ks scipy exact p=%.10f D=%.10f' % (r.pvalue, r.statistic))
print('holm', __import__('statsmodels') if False else '')
p = [0.01, 0.04, 0.03, 0.005]
# Holm by hand-checked formula: sorted .005,.01,.03,.04 -> *4,*3,*2,*1 = .02,.03,.06,.04 -> monotone .02,.03,.06,.06
print('hl', np.median([y - x for x in cases['no_ties'][0] for y in cases['no_ties'][1]]))
a = list(rng.normal(10, 1, 30)); b = list(rng.normal(10.6, 1, 25))
print('ksl a=', ', '.join('%.17g' % x for x in a)); print('ksl b=', ', '.join('%.17g' % x for x in b))
r = stats.ks_2samp(a, b, method='exact'); print('  ks scipy exact p=%.10f D=%.10f' % (r.pvalue, r.statistic))
r = stats.mannwhitneyu(a, b, method='exact'); print('  mw scipy exact p=%.10f U=%g' % (r.pvalue, r.statistic))

# The t test's references (test_t): Student's two-sided tail by Simpson's
# rule, no scipy needed; scipy.stats.ttest_ind([1,2,3],[4,5,6]) agrees.
import math
def t_pdf(x, n):
    return math.gamma((n + 1) / 2) / (math.sqrt(n * math.pi) * math.gamma(n / 2)) * (1 + x * x / n) ** (-(n + 1) / 2)
def t_two_sided(t, n, steps=200000, span=2000.0):
    h = span / steps; s = t_pdf(t, n) + t_pdf(t + span, n)
    for i in range(1, steps): s += (4 if i % 2 else 2) * t_pdf(t + i * h, n)
    return 2 * s * h / 3
t = 3 / math.sqrt(2 / 3)
print('t test df 4', t_two_sided(t, 4), 'df 8', t_two_sided(t, 8))
print('paired, d = 3, 3.5, 2.5: df 2', t_two_sided(3 / (0.5 / math.sqrt(3)), 2))
