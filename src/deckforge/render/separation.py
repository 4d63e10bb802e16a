"""Separation: the CMYK that prints a Lab colour on the modelled press, found by
inverting the press model itself (:mod:`deckforge.render.press`).

Every node of the profile's colour-to-CMYK table is solved at once with numpy: damped
Gauss–Newton on the four inks, minimising a colour difference weighted as CIEDE2000
weighs lightness, chroma and hue, with two soft terms: black held near a grey component
replacement curve (which picks one of the many ink mixtures that print a reachable
colour), and the total ink kept under the limit. A colour the inks cannot reach comes
out as the nearest one they can. Each node starts from the best of a coarse table of
mixtures and then from its neighbours' solutions, so the table has no isolated jumps;
then again with the black it found smoothed over the table, so that where the gamut's
walls force more black than the curve the inks still change gradually between nodes.
"""

from __future__ import annotations

import numpy as np

from deckforge.render import press

#: How much a step of 100 % black away from the black generation curve weighs, in ΔE:
#: small against any colour error, so it only chooses among mixtures of one colour.
BLACK_WEIGHT = 2.0
#: How much a step of 100 % total ink over the limit weighs, in ΔE.
LIMIT_WEIGHT = 400.0
#: The grey component at which black generation starts, and how much of it black takes
#: at first (the rest of the curve rises to all of it in the deepest shadow).
BLACK_START = 0.12
BLACK_SHARE = 0.6
#: Along the grey axis: the lightness black starts at, the lightness it is 100 % at (the
#: press's deepest black within the usual limits) and the curve's power.
BLACK_WHITE = 90.0
BLACK_FULL = 12.0
BLACK_POWER = 1.6
#: How strongly black is held at 0 while the grey component is found.
NO_BLACK = 50.0
#: How many times the table's black is smoothed over its neighbours before the final
#: solve (each time by the 1-2-1 kernel along each axis).
BLACK_SMOOTHING = 3

_INKS = np.array([[int(ch) for ch in key] for key in press.PRIMARIES], dtype=bool)
_ROOTS = np.array(
    [
        [
            (v * w / p) ** (1 / press.YULE_NIELSEN)
            for v, w, p in zip(xyz, press.D50, press._PAPER, strict=True)
        ]
        for xyz in press.PRIMARIES.values()
    ]
)
_CURVES = np.array(press.CURVES)
_STEPS = np.linspace(0.0, 1.0, 11)
_D50 = np.array(press.D50)


def model_lab(cmyk: np.ndarray) -> np.ndarray:
    """Media-relative CIELAB of tints (..., 4) on the modelled press (as press.model_lab)."""
    x = np.clip(cmyk, 0.0, 1.0)
    weights = np.ones(x.shape[:-1] + (16,))
    for i in range(4):
        e = np.interp(x[..., i], _STEPS, _CURVES[i])[..., None]
        weights *= np.where(_INKS[:, i], e, 1.0 - e)
    xyz = np.maximum(weights @ _ROOTS, 0.0) ** press.YULE_NIELSEN
    return xyz_to_lab(xyz)


def model_lab_slopes(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The model's Lab of tints (n, 4) within 0–1, and its derivatives (n, 3, 4)."""
    n = press.YULE_NIELSEN
    factors, slopes = [], []
    for i in range(4):
        e = np.interp(x[:, i], _STEPS, _CURVES[i])
        segment = np.minimum((x[:, i] * 10).astype(int), 9)
        slopes.append((_CURVES[i][segment + 1] - _CURVES[i][segment]) * 10)
        factors.append(np.where(_INKS[:, i], e[:, None], 1.0 - e[:, None]))
    sign = np.where(_INKS, 1.0, -1.0)
    d_weights = []
    for i in range(4):
        others = np.ones_like(factors[0])
        for j in range(4):
            if j != i:
                others = others * factors[j]
        d_weights.append(others * sign[:, i] * slopes[i][:, None])
    weights = factors[0] * factors[1] * factors[2] * factors[3]
    sums = np.maximum(weights @ _ROOTS, 1e-12)
    xyz = sums**n
    d_sums = (np.concatenate(d_weights, axis=0) @ _ROOTS).reshape(4, len(x), 3)
    d_sums = d_sums.transpose(1, 2, 0)  # (n, 3, 4)
    d_xyz = (n * sums ** (n - 1))[:, :, None] * d_sums
    t = xyz / _D50
    big = t > 216 / 24389
    f = np.where(big, np.cbrt(t), (24389 / 27 * t + 16) / 116)
    df = np.where(big, 1 / 3 * np.cbrt(t) ** -2, 24389 / 27 / 116) / _D50
    g = df[:, :, None] * d_xyz  # d f(X/Xn), d f(Y/Yn), d f(Z/Zn) by the inks
    lab = np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], -1)
    slopes_lab = np.stack([116 * g[:, 1], 500 * (g[:, 0] - g[:, 1]), 200 * (g[:, 1] - g[:, 2])], 1)
    return lab, slopes_lab


def xyz_to_lab(xyz: np.ndarray) -> np.ndarray:
    """CIE XYZ (D50, Y 0–100) to CIELAB, for arrays (..., 3)."""
    t = xyz / _D50
    f = np.where(t > 216 / 24389, np.cbrt(np.maximum(t, 0.0)), (24389 / 27 * t + 16) / 116)
    return np.stack(
        [116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])],
        axis=-1,
    )


def black_curve(lab: np.ndarray, grey: np.ndarray) -> np.ndarray:
    """Grey component replacement: the black (0–1) printed for a colour of lightness
    ``lab[:, 0]`` whose grey component (the least of C, M and Y when it is printed with
    them alone) is ``grey``. Black starts in light greys and rises with darkness to all of
    it at the deepest shadow; a colour with little grey in it gets little black."""
    darkness = np.clip((BLACK_WHITE - lab[:, 0]) / (BLACK_WHITE - BLACK_FULL), 0.0, 1.0)
    by_grey = np.clip((grey - BLACK_START) / (1.0 - BLACK_START), 0.0, 1.0)
    return np.minimum(darkness**BLACK_POWER, BLACK_SHARE * by_grey + (1 - BLACK_SHARE) * by_grey**2)


def weights(lab: np.ndarray) -> np.ndarray:
    """Per colour, the 3 × 3 matrix taking a Lab difference to one whose length is
    close to CIEDE2000's: lightness, chroma and hue, each scaled as it weighs them."""
    L, a, b = lab[..., 0], lab[..., 1], lab[..., 2]
    chroma = np.hypot(a, b)
    sl = 1 + 0.015 * (L - 50) ** 2 / np.sqrt(20 + (L - 50) ** 2)
    sc = 1 + 0.045 * chroma
    sh = 1 + 0.015 * chroma
    safe = np.maximum(chroma, 1e-6)
    ua = np.where(chroma > 1e-3, a / safe, 1.0)
    ub = np.where(chroma > 1e-3, b / safe, 0.0)
    w = np.zeros(lab.shape[:-1] + (3, 3))
    w[..., 0, 0] = 1 / sl
    w[..., 1, 1], w[..., 1, 2] = ua / sc, ub / sc
    w[..., 2, 1], w[..., 2, 2] = -ub / sh, ua / sh
    return w


def delta_e_parts(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """Three numbers per pair of Lab colours (..., 3) whose squares add up to their
    CIEDE2000 difference squared (lightness, chroma with the hue rotation term, hue)."""
    L1, a1, b1 = np.moveaxis(np.asarray(lab1, dtype=float), -1, 0)
    L2, a2, b2 = np.moveaxis(np.asarray(lab2, dtype=float), -1, 0)
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    zero = c1p * c2p == 0
    dh = np.where(zero, 0.0, ((h2p - h1p + 180) % 360) - 180)
    d_hp = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    l_mean, cp_mean = (L1 + L2) / 2, (c1p + c2p) / 2
    h_sum = h1p + h2p
    h_mean = np.where(
        np.abs(h1p - h2p) <= 180, h_sum / 2, np.where(h_sum < 360, h_sum + 360, h_sum - 360) / 2
    )
    h_mean = np.where(zero, h_sum, h_mean)
    t = (
        1
        - 0.17 * np.cos(np.radians(h_mean - 30))
        + 0.24 * np.cos(np.radians(2 * h_mean))
        + 0.32 * np.cos(np.radians(3 * h_mean + 6))
        - 0.20 * np.cos(np.radians(4 * h_mean - 63))
    )
    rot = 30 * np.exp(-(((h_mean - 275) / 25) ** 2))
    rc = 2 * np.sqrt(cp_mean**7 / (cp_mean**7 + 25.0**7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    sc, sh = 1 + 0.045 * cp_mean, 1 + 0.015 * cp_mean * t
    rt = -np.sin(np.radians(2 * rot)) * rc
    dl, dc, dhh = (L2 - L1) / sl, (c2p - c1p) / sc, d_hp / sh
    # dl² + dc² + dh² + rt dc dh, as a sum of three squares (|rt| < 2).
    return np.stack([dl, dc + rt / 2 * dhh, np.sqrt(1 - rt * rt / 4) * dhh], axis=-1)


class _Problem:
    """The least-squares problem of many colours at once: the colour error (weighted
    Lab, or CIEDE2000 itself when ``exact``), black near ``k0`` and the ink limit."""

    def __init__(
        self, target: np.ndarray, limit: float, k0: np.ndarray, black: float, exact: bool
    ) -> None:
        self.target = target
        self.w = weights(target)
        self.k0 = k0
        self.black = black
        self.limit = limit
        self.exact = exact

    def residual(self, x: np.ndarray) -> np.ndarray:
        """Each colour's colour error, black term and ink term."""
        return self._terms(x, model_lab(x))

    def _terms(self, x: np.ndarray, lab: np.ndarray) -> np.ndarray:
        if self.exact:
            colour = delta_e_parts(self.target, lab)
        else:
            colour = (self.w @ (self.target - lab)[:, :, None])[:, :, 0]
        black = self.black * (x[:, 3] - self.k0)
        over = LIMIT_WEIGHT * np.maximum(x.sum(axis=1) - self.limit, 0.0)
        return np.concatenate([colour, black[:, None], over[:, None]], axis=1)

    def linear(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The residual at ``x`` and its derivatives by the inks (n, 5, 4)."""
        if self.exact:
            r = self.residual(x)
            jac = np.empty(r.shape + (4,))
            for i in range(4):
                probe = x.copy()
                step = np.where(x[:, i] + 1e-5 <= 1.0, 1e-5, -1e-5)
                probe[:, i] += step
                jac[:, :, i] = (self.residual(probe) - r) / step[:, None]
            return r, jac
        lab, slopes = model_lab_slopes(x)
        jac = np.zeros((len(x), 5, 4))
        jac[:, :3] = -(self.w @ slopes)
        jac[:, 3, 3] = self.black
        jac[:, 4] = (LIMIT_WEIGHT * (x.sum(axis=1) > self.limit))[:, None]
        return self._terms(x, lab), jac

    def subset(self, rows: np.ndarray) -> _Problem:
        """The problem of some of the colours."""
        part = _Problem.__new__(_Problem)
        part.target, part.w, part.k0 = self.target[rows], self.w[rows], self.k0[rows]
        part.black, part.limit, part.exact = self.black, self.limit, self.exact
        return part


def _refine(problem: _Problem, x: np.ndarray, iterations: int) -> tuple[np.ndarray, np.ndarray]:
    """Damped Gauss–Newton (Levenberg–Marquardt) within 0–1 for every colour at once,
    an ink held at 0 or 1 while the error would take it further; the inks and each
    colour's cost (its squared residual)."""
    damping = np.full(len(x), 1e-3)
    r, jac = problem.linear(x)
    cost = (r * r).sum(axis=1)
    eye = np.eye(4)
    for _ in range(iterations):
        gradient = (jac.transpose(0, 2, 1) @ r[:, :, None])[:, :, 0]
        held = ((x <= 0.0) & (gradient > 0)) | ((x >= 1.0) & (gradient < 0))
        free = np.where(held[:, None, :], 0.0, jac)
        jt = free.transpose(0, 2, 1)
        jtj = jt @ free
        jtr = jt @ r[:, :, None]
        diagonal = damping[:, None] * (1 + np.diagonal(jtj, axis1=1, axis2=2))
        d = -np.linalg.solve(jtj + diagonal[:, :, None] * eye, jtr)[:, :, 0]
        trial = np.clip(x + d, 0.0, 1.0)
        tr, tjac = problem.linear(trial)
        tcost = (tr * tr).sum(axis=1)
        better = tcost < cost
        x = np.where(better[:, None], trial, x)
        r = np.where(better[:, None], tr, r)
        jac = np.where(better[:, None, None], tjac, jac)
        cost = np.where(better, tcost, cost)
        damping = np.where(better, damping * 0.3, damping * 4.0).clip(1e-7, 1e7)
    return x, cost


def _starts(problem: _Problem, levels: int = 9) -> np.ndarray:
    """For each colour, the mixture of a coarse table of tints nearest it in Lab (with
    black near its curve)."""
    steps = np.linspace(0.0, 1.0, levels)
    grid = np.stack(np.meshgrid(steps, steps, steps, steps, indexing="ij"), -1).reshape(-1, 4)
    grid = grid[grid.sum(axis=1) <= problem.limit + 1e-9]
    labs = model_lab(grid)
    # |t - l|² + (w (k - k0))², expanded so that it is a product of matrices.
    left = np.concatenate([problem.target, problem.black * problem.k0[:, None]], axis=1)
    right = np.concatenate([labs, problem.black * grid[:, 3:]], axis=1)
    cost = (right * right).sum(axis=1)[None, :] - 2 * left @ right.T
    return grid[cost.argmin(axis=1)]


def _upsample(coarse: np.ndarray, factor: int) -> np.ndarray:
    """A grid of values (g, g, g, n) interpolated to (factor (g - 1) + 1)³ nodes."""
    for axis in range(3):
        g = coarse.shape[axis]
        fine = np.linspace(0, g - 1, factor * (g - 1) + 1)
        low = np.minimum(fine.astype(int), g - 2)
        t = (fine - low).reshape([-1 if a == axis else 1 for a in range(4)])
        coarse = np.take(coarse, low, axis) * (1 - t) + np.take(coarse, low + 1, axis) * t
    return coarse


def _neighbours(problem: _Problem, x: np.ndarray, cost: np.ndarray, shape) -> np.ndarray:
    """Each node's inks replaced by a neighbour's solution refined, where that ends
    nearer: no node is left in a worse local minimum than the ones beside it."""
    for axis in range(3):
        for shift in (1, -1):
            start = np.roll(x.reshape(shape + (4,)), shift, axis=axis).reshape(-1, 4)
            r = problem.residual(start)
            rows = np.flatnonzero((r * r).sum(axis=1) < cost - 1e-6)
            if len(rows):
                trial, tcost = _refine(problem.subset(rows), start[rows], 6)
                keep = tcost < cost[rows]
                x[rows[keep]], cost[rows[keep]] = trial[keep], tcost[keep]
    return x


def _solve(
    target: np.ndarray, limit: float, shape: tuple, iterations: int
) -> tuple[np.ndarray, np.ndarray]:
    """Inks for colours (n, 3) on a grid of ``shape``, and the black curve's black for
    each: first with cyan, magenta and yellow alone (black held at 0, no limit), whose
    grey component sets the black curve's black, then with all four inks within the
    limit."""
    plain = _Problem(target, 4.0, np.zeros(len(target)), NO_BLACK, exact=False)
    x, cost = _refine(plain, _starts(plain), iterations)
    x = _neighbours(plain, x, cost, shape)
    k0 = black_curve(target, x[:, :3].min(axis=1))
    problem = _Problem(target, limit, k0, BLACK_WEIGHT, exact=False)
    x, cost = _refine(problem, _starts(problem), iterations)
    return _neighbours(problem, x, cost, shape), k0


def separate_grid(target: np.ndarray, limit: float, coarse: int = 9) -> np.ndarray:
    """The CMYK (0–1) of each colour of a Lab grid (g, g, g, 3), at most ``limit`` (a
    fraction: 2.4 is 240 %) of ink in all. A coarse grid (every few nodes) is solved
    from the best of a table of tints, and the whole grid from the coarse solution
    interpolated, then from its neighbours' where that ends nearer, then for CIEDE2000
    itself."""
    g = target.shape[0]
    factor = (g - 1) // (coarse - 1)
    if factor < 2 or factor * (coarse - 1) != g - 1:
        factor, coarse = 1, g
    small = target[::factor, ::factor, ::factor].reshape(-1, 3)
    x, k0 = _solve(small, limit, (coarse,) * 3, 30)
    flat = target.reshape(-1, 3)
    both = np.concatenate([x, k0[:, None]], axis=1).reshape((coarse,) * 3 + (5,))
    if factor > 1:
        both = _upsample(both, factor)
    start, k0 = both[..., :4].reshape(-1, 4), both[..., 4].reshape(-1)
    problem = _Problem(flat, limit, k0, BLACK_WEIGHT, exact=False)
    x, cost = _refine(problem, start, 10)
    x = _neighbours(problem, x, cost, (g,) * 3)
    # Near the gamut's walls the colour, not the curve, sets the black, which would then
    # jump within a cell; solved again for the black spread smoothly over its neighbours,
    # the table's inks change gradually enough to be interpolated between nodes.
    k0 = _smoothed(x[:, 3].reshape((g,) * 3), BLACK_SMOOTHING).reshape(-1)
    problem = _Problem(flat, limit, k0, BLACK_WEIGHT, exact=False)
    r = problem.residual(x)
    cost = (r * r).sum(axis=1)
    moved = np.flatnonzero(np.abs(k0 - x[:, 3]) > 5e-3)
    x[moved], cost[moved] = _refine(problem.subset(moved), x[moved], 10)
    x = _neighbours(problem, x, cost, (g,) * 3)
    # CIEDE2000 itself, for the colours the inks do not reach exactly.
    exact = _Problem(flat, limit, k0, BLACK_WEIGHT, exact=True)
    r = exact.residual(x)
    rows = np.flatnonzero((r[:, :3] ** 2).sum(axis=1) > 1e-4)
    x[rows] = _refine(exact.subset(rows), x[rows], 5)[0]
    return _within(x, limit).reshape(target.shape[:-1] + (4,))


def _smoothed(values: np.ndarray, passes: int) -> np.ndarray:
    """A grid of values (g, g, g) smoothed ``passes`` times by the 1-2-1 kernel along
    each axis, its faces held by repeating them."""
    for _ in range(passes):
        for axis in range(3):
            n = values.shape[axis]
            padded = np.concatenate([values.take([0], axis), values, values.take([-1], axis)], axis)
            values = (
                padded.take(range(n), axis) + 2 * padded.take(range(1, n + 1), axis)
                + padded.take(range(2, n + 2), axis)
            ) / 4  # fmt: skip
    return values


def _within(x: np.ndarray, limit: float) -> np.ndarray:
    """The inks with any excess over the limit (a trace the soft term leaves) taken
    from cyan, magenta and yellow."""
    total = x.sum(axis=1)
    cmy = x[:, :3].sum(axis=1)
    scale = np.where(
        total > limit, np.clip((limit - x[:, 3]) / np.maximum(cmy, 1e-9), 0.0, 1.0), 1.0
    )
    return np.concatenate([x[:, :3] * scale[:, None], x[:, 3:]], axis=1)
