"""A guided adversary: a seeded evolutionary search over (x, x' - x, y) maximising the loss rate.

A triple is drawn in the parametrisation the grid screen does not use: a landmark of the query (or
one of the audit's seed points), an offset from it of length ``scale * 10**log_off`` (log_off in
[-4, 2]), a step direction of length ``min(scale * 10**log_step, Lambda)`` (log_step in [-5, 1.5])
and an output ``y = f(x) + b(x) sinh(v)`` (v in [-30, 30], i.e. from the body of the noise to about
1e12 scales into its tails).  The search spends a fixed number of evaluations, ``EXAMPLES[effort]``:
a population of random starts (about one parameter in ten snapped to an end of its range, or to 0,
since violations often sit at extremes), then rounds of mutation of the best triples found so far
(a few parameters of each parent perturbed, with steps shrinking from round to round, now and then
a jump to another landmark), keeping the best.  Every batch is evaluated in vectorised float64
through the mechanism's own ``f``, ``B`` and log-density, as the screen does.

It draws only from its own ``numpy.random.Generator``, seeded from the audit's seed: its result is
a pure function of (mechanism, seed, effort), whatever else is imported, and it needs no wall
clock and writes no files.  It complements the grid screen where violations sit in a narrow region
the grid straddles; its best triples go through the same polish and high-precision verification
as the screen's.
"""

from __future__ import annotations

import numpy as np

from ..model.mechanism import Mechanism

# evaluations of the loss rate per effort level
EXAMPLES = {"quick": 150, "standard": 400, "thorough": 2000}
# rounds of mutation after the random starts (which take INIT_SHARE of the budget)
ROUNDS = {"quick": 4, "standard": 6, "thorough": 10}
INIT_SHARE = 0.4
SNAP = 0.1          # chance that a freshly drawn parameter sits at an end of its range (or 0)
JUMP = 0.1          # chance that a child moves to another landmark
LOG_OFF = (-4.0, 2.0)
LOG_STEP = (-5.0, 1.5)
V = (-30.0, 30.0)
_STREAM = 0x6A6476  # separates this search's random stream from others drawn from the same seed


class _Params:
    """A batch of points of the search space, as arrays (n rows)."""

    def __init__(self, k, off, log_off, step, log_step, v):
        self.k, self.off, self.log_off, self.step, self.log_step, self.v = k, off, log_off, step, log_step, v

    def __len__(self):
        return len(self.k)

    def take(self, idx):
        return _Params(self.k[idx], self.off[idx], self.log_off[idx], self.step[idx],
                       self.log_step[idx], self.v[idx])

    @staticmethod
    def concat(parts):
        return _Params(*(np.concatenate([getattr(p, name) for p in parts])
                         for name in ("k", "off", "log_off", "step", "log_step", "v")))


def _snap(rng, values, choices):
    """Replace each entry, with probability SNAP, by one of `choices`."""
    hit = rng.random(values.shape) < SNAP
    pick = rng.choice(np.asarray(choices, float), size=values.shape)
    return np.where(hit, pick, values)


def _random_params(rng, n, n_marks, d) -> _Params:
    return _Params(
        k=rng.integers(0, n_marks, size=n),
        off=_snap(rng, rng.uniform(-1.0, 1.0, (n, d)), (-1.0, 0.0, 1.0)),
        log_off=_snap(rng, rng.uniform(*LOG_OFF, n), LOG_OFF),
        step=_snap(rng, rng.uniform(-1.0, 1.0, (n, d)), (-1.0, 1.0)),
        log_step=_snap(rng, rng.uniform(*LOG_STEP, n), LOG_STEP),
        v=_snap(rng, rng.uniform(*V, n), (V[0], 0.0, V[1])),
    )


def _mutate(rng, parents: _Params, n_marks, width) -> _Params:
    """One child per parent: each of the five parameter groups is perturbed with probability 1/2
    (at least one is), by Gaussian steps of `width` times the group's range, clipped to the range."""
    n, d = parents.off.shape
    which = rng.random((n, 5)) < 0.5
    which[np.arange(n), rng.integers(0, 5, size=n)] = True

    def move(values, lo, hi, col):
        noise = rng.normal(0.0, width * (hi - lo), values.shape)
        mask = which[:, col] if values.ndim == 1 else which[:, col][:, None]
        return np.clip(np.where(mask, values + noise, values), lo, hi)

    k = parents.k.copy()
    jump = rng.random(n) < JUMP
    k[jump] = rng.integers(0, n_marks, size=int(jump.sum()))
    return _Params(k=k,
                   off=move(parents.off, -1.0, 1.0, 0),
                   log_off=move(parents.log_off, *LOG_OFF, 1),
                   step=move(parents.step, -1.0, 1.0, 2),
                   log_step=move(parents.log_step, *LOG_STEP, 3),
                   v=move(parents.v, *V, 4))


def _evaluate(mech: Mechanism, marks, scale, Lambda, p: _Params):
    """(X, Xp, y, rate) for a batch; rate is -inf where the triple is undefined."""
    with np.errstate(all="ignore"):
        X = marks[p.k] + (scale * 10.0 ** p.log_off)[:, None] * p.off
        n = mech.metric.dist_np(p.step)
        length = np.minimum(scale * 10.0 ** p.log_step, Lambda)
        Xp = X + p.step / np.where(n > 0, n, 1.0)[:, None] * length[:, None]
        a, b = mech.centre_scale_np(X)
        ap, bp = mech.centre_scale_np(Xp)
        y = a + b * np.sinh(p.v)
        dist = mech.dist_np(Xp, X)  # what float64 kept of the step (0 far from the origin)
        lr = mech.log_density_np(a, b, y) - mech.log_density_np(ap, bp, y)
        rate = lr / dist
    ok = ((n > 0) & (dist > 0) & (b > 0) & (bp > 0) & np.isfinite(b) & np.isfinite(bp)
          & np.isfinite(y) & np.isfinite(rate))
    return X, Xp, y, np.where(ok, rate, -np.inf)


def _best_distinct(X, Xp, rates, n):
    """Indices of the n best finite rates, one per distinct (x, x') pair; ties by index."""
    order = np.argsort(-rates, kind="stable")
    out, seen = [], set()
    for i in order:
        if not np.isfinite(rates[i]) or len(out) == n:
            break
        key = (X[i].tobytes(), Xp[i].tobytes())
        if key not in seen:
            seen.add(key)
            out.append(int(i))
    return out


def adversarial_triples(mech: Mechanism, audit_seed: int, effort: str, keep: int = 4, extra_marks=()):
    """The `keep` best (x, x', y, rate) found, as tuples of floats (x, x' as tuples).

    extra_marks: further points (arrays of dim floats, e.g. the audit's seed points) searched around
    like the query's landmarks."""
    marks = np.atleast_2d(np.asarray(mech.query.landmarks, float))
    if len(extra_marks):
        marks = np.concatenate([marks, np.atleast_2d(np.asarray(extra_marks, float))])
    scale = float(mech.query.scale)
    Lambda = float(mech.Lambda)
    d = mech.dim
    rng = np.random.default_rng(np.random.SeedSequence([int(audit_seed), _STREAM]))

    budget = EXAMPLES[effort]
    rounds = ROUNDS[effort]
    n_init = max(keep, int(budget * INIT_SHARE))
    per_round = (budget - n_init) // rounds
    n_init = budget - per_round * rounds  # spend the whole budget, exactly

    params = _random_params(rng, n_init, len(marks), d)
    X, Xp, Y, R = _evaluate(mech, marks, scale, Lambda, params)
    n_elite = max(2, per_round // 4)
    for r in range(rounds):
        elite = _best_distinct(X, Xp, R, n_elite)
        if not elite:  # nothing defined yet: keep drawing at random
            child = _random_params(rng, per_round, len(marks), d)
        else:
            # parents by rank: the best triples get the most children
            w = 1.0 / (1.0 + np.arange(len(elite)))
            parents = params.take(np.asarray(elite)[rng.choice(len(elite), size=per_round, p=w / w.sum())])
            width = 0.1 * (0.02 / 0.1) ** (r / max(1, rounds - 1))  # 10% of the range down to 2%
            child = _mutate(rng, parents, len(marks), width)
        cX, cXp, cY, cR = _evaluate(mech, marks, scale, Lambda, child)
        params = _Params.concat([params, child])
        X, Xp = np.concatenate([X, cX]), np.concatenate([Xp, cXp])
        Y, R = np.concatenate([Y, cY]), np.concatenate([R, cR])
    return [(tuple(map(float, X[i])), tuple(map(float, Xp[i])), float(Y[i]), float(R[i]))
            for i in _best_distinct(X, Xp, R, keep)]
