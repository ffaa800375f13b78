"""The readings considered before a claim is judged (the charitable reading, as a rule).

An accusation stands only if no reasonable reading of the statement, in its context (the paper's
conventions, its own use of the result elsewhere, its quantifiers), holds.  Every refutation
therefore lists the readings considered, each with why it fails; a claim true under a reasonable
reading is verified under it, and that reading is listed with ``holds=True``.

``READINGS[(paper, claim id)]`` holds the readings of the claims whose checker does not build them
itself (a checker may return them in its ``Outcome``; those take precedence).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    """One reading of a claim: the reading, whether the claim holds under it, and why (for a
    reading that fails: the witness or the reason; for one that holds: how it was checked).

    ``reasonable=False`` marks a reading considered and set aside because the paper's context rules
    it out (``why`` then says what rules it out); only reasonable readings decide a verdict."""
    text: str
    holds: bool
    why: str
    reasonable: bool = True

    def to_json(self) -> dict:
        return {"reading": self.text, "holds": self.holds, "reasonable": self.reasonable, "why": self.why}

    @property
    def label(self) -> str:
        if not self.reasonable:
            return f"set aside ({'holds' if self.holds else 'fails'}, not a reasonable reading)"
        return "holds" if self.holds else "fails"


def fails(text: str, why: str) -> Reading:
    return Reading(text, False, why)


def holds(text: str, why: str) -> Reading:
    return Reading(text, True, why)


def set_aside(text: str, holds_: bool, why: str) -> Reading:
    return Reading(text, holds_, why, reasonable=False)


READINGS: dict[tuple[str, str], list[Reading]] = {}


def _add(paper: str, claim_id: str, *readings: Reading) -> None:
    READINGS[(paper, claim_id)] = list(readings)


# ---- Liang & Yi -------------------------------------------------------------------------------
_add("liang-yi", "Sec 4.1.1 (pair counts)",
     fails("ordered pairs, as the paper defines I_{m,k} = {(i, j) : i in I_m, j in I_k} two lines earlier and as the MSE "
           "display sums over them", "the number of ordered pairs is twice each printed count (exhaustive over "
                                     "n0, n1 <= 12)"),
     set_aside("unordered pairs {i, j}", True,
               "the printed counts are those of unordered pairs, but I_{m,k} is defined as a set of ordered pairs and "
               "the MSE sums over them; reading the counts so contradicts the definition they count"))
_add("liang-yi", "App. B.2 (M_1 bias bound)",
     fails("M_1(x) with its single Laplace draw Z, as defined, in the range the preceding MGF step needs and under "
           "the stated d > h, eps h > 1", "the bound fails at 9 of 12 grid points and the bias is <= 0 at 3 (50-digit "
                                          "quadrature; the witness)"),
     set_aside("the two factors E[e^{-Zd/h^2}] and E[e^{-Z^2/(2h^2)}] taken over independent draws", True,
               "the product of the two bounds then holds, but M_1 is defined with one draw shared by both factors"))

# ---- Hladik & Tetek (PolyPlace) ----------------------------------------------------------------
_add("polyplace", "Lemma 13",
     fails("for every alpha > 1 (Definition 6's range; the lemma adds no condition, and its proof says it proves the "
           "variance finite)", "for 1 < alpha <= 2 the variance is infinite while the closed form is finite (negative "
                               "on (1, 2), a pole at 2); the witness"),
     set_aside("for alpha > 2 only", True,
               "a restriction the statement does not make (the proof claims finiteness with no condition on alpha); "
               "it is the range Corollary 14 uses (gamma < eps/2), where the formula is proved (the intended statement)"))
_add("polyplace", "Lemma 9 (proof, step (8))",
     fails("the first '<=' of (8) as printed, for all neighbours (lambda_r, lambda_s may be negative: lambda_r is "
           "defined by e^{lambda_r gamma} = SS(D')/SS(D))", "the witness has lambda_r = -1, where moving X inside |.| "
                                                            "while keeping the coefficient lambda_r reverses the "
                                                            "inequality"),
     set_aside("(8) as a whole: (7) <= its second line", True,
               "a different statement, skipping the false intermediate line; it holds (|lambda_r| <= 1 and "
               "|e^{-lambda_r t gamma} lambda_s| <= 1, z3), so the lemma is unaffected"))

# ---- Laud, Pankova & Pettai --------------------------------------------------------------------
_add("laud", "Theorem 1 (restated from NRS)",
     fails("for every gamma > 1 (the theorem's GenCauchy(gamma), density prop. to 1/(1 + |z|^gamma), with no further "
           "condition), every eps > 0, every f and every beta-smooth upper bound S on LS_f",
           "the exact two-point loss exceeds eps for gamma >= 9 at eps = 1 and for gamma >= 8 at small eps (the "
           "witness)"),
     set_aside("at the paper's own gamma = 4", True,
               "a restriction the theorem does not make; it holds on what was tested for gamma <= 7, and the paper's "
               "own mechanism (Theorem 3) is verified separately"))
_add("laud", "Lemma 6",
     fails("for every differentiable f : X -> R, as stated (the statement divides by |f(x)|, so it contemplates f < 0)",
           "f = -1 has DS[f]/|f| = 0 <= beta but is not beta-smooth in the sense of Definition 13"),
     set_aside("for f > 0", True, "a hypothesis the statement does not make (its |f(x)| admits negative f); the proof's "
                                  "ln f needs it, and under it the lemma holds (mean value theorem)"))
_add("laud", "Eq. (3) (ship example)",
     fails("the display's equalities at every (x, y) != 0, with DS of the partial functions at the point (Lemma 3)",
           "sympy: DS[f^v] = ||grad f^v||_2 = 1/|v| everywhere, not sqrt(2)/|v|"),
     set_aside("sqrt(2)/|v| as an upper bound on DS[f^v]", True,
               "the display writes '=' and derives the value by Lemma 3 as an exact one; as a bound it holds and keeps "
               "Eq. (4) private, with sqrt(2) times the noise needed"))
_add("laud", "Sec 7.2 (GS noise 10x smaller)",
     fails("the same Cauchy mechanism at the paper's eps = 1, gamma = 4 (b = eps/(gamma+1) - beta), noise proportional "
           "to c/b", "beta = 0.1 -> b = 1/10, beta -> 0 -> b = 1/5: 2 times less noise, not 10"),
     fails("the same Cauchy mechanism with a shift-only calibration (the most generous Cauchy reading)",
           "at most about 4.39 times less noise"),
     set_aside("Laplace noise GS/eps", True, "gives the factor 10, but the sentence says 'the same Cauchy mechanism'"))
_add("laud", "Table 4 (%noise, rows with q_m != q_i)",
     fails("the caption's formula with '+-' as the worse sign (the error bound the text describes)",
           "3 of the 4 usable entries lie outside the formula's exact range over the printed rounding (the witness)"),
     fails("the caption's formula with '+'", "the same entries lie outside it"),
     fails("the caption's formula with '-'", "the same entries lie outside it"))
_add("laud", "Fig. 1 rule (min_S)",
     fails("the rule as stated, with no sign hypothesis on the f_i (the SQL translation applies MIN to values "
           "f_i(x_i) + (1 - sigma_i) Delta that may be negative)",
           "z3 countermodel of the cover step; exact witness f_1 = -5, g_1 = 5, f_2 = g_2 = 1"),
     set_aside("with f_i >= 0", True, "a hypothesis the rule does not state and the paper's own use does not meet; under "
                                      "it the rule holds (z3 proof)"))

# ---- Liu, Wang & Xia ---------------------------------------------------------------------------
_two_sided = ("the printed two-sided window 1/(2e^eps) <= ratio <= 2e^eps (probabilistic DP, which the footnote says (2) "
              "is equivalent to, is two-sided)")
_add("liu", "Eq. (2)",
     fails(_two_sided, "exact 3-output mechanism: the ratio leaves the window with probability 61/2500 > 2 delta = "
                       "1/50; the sharp bound is (2 + e^-eps) delta"),
     set_aside("one-sided (ratio <= 2e^eps only)", True, "holds (the upper tail is < 2 delta), but the display bounds "
                                                          "the ratio on both sides"))
_add("liu", "Sec. 3.2 Justification 2 (per-database form)",
     fails(_two_sided + ", with delta_eps(x) of Definition 2",
           "the Eq. (2) mechanism as a one-record world: 61/2500 outside the window > 2 delta_eps(x) = 1/50"),
     set_aside("one-sided (ratio <= 2e^eps only)", True, "holds, but the display bounds the ratio on both sides"))
_add("liu", "Lemma 2 / Lemma 10 / Cor. 3 (strict inequality)",
     fails("'<' as printed, for every mechanism (|X| = 2, where Eq. (3) and the pair-specific utility coincide)",
           "M(x) = (1/10, 9/10), M(x') = (0, 1), e^eps = 2: u = 1/10 = d + d' (equality)"),
     set_aside("'<='", True, "a different relation; it holds for every mechanism (proof), and the uses need only it"))
_add("liu", "Corollary 3 (strict inequality)",
     fails("'<' as printed, for every mechanism and pair of neighbours",
           "M(x) = M(x') = (1/2, 1/2): u = 0 = 2 delta_eps(x)"),
     set_aside("'<=', or '<' when delta_eps(x) > 0", True,
               "different statements; they hold (proof for |X| = 2, adversarial search for |X| = 3, 4)"))
_add("liu", "Remark 8 / Theorem 3(i) (explicit bound)",
     fails("as stated: for every f-strictly positive Pi, n, T = ceil(eta n) and eps > ln(1/(1-eta)), the exact smoothed "
           "delta is at most the explicit bound",
           "exact smoothed delta above the bound by a factor ~2 to ~200 at eta = 1/50, eps = 1/25, n in 150..250 "
           "(uniform Pi on 2 types with f = 1/2, which satisfies the hypothesis; the remark is explicitly the "
           "non-asymptotic version, so no asymptotic reading applies)"))
_add("liu", "Eq. (7) (proof of Theorem 3, per-histogram bound)",
     fails("the displayed bound on delta_eps(H) for every histogram H, whenever c > 0",
           "exact delta_eps(H) exceeds it by a factor up to ~1.2e6 (n = 150, T = 3, eps = 1/25); the Chernoff step "
           "drops the mean (T/n) H_i from the exponent"))
_add("liu", "Theorem 3(i) (asymptotic)",
     fails("f-strictly positive as the paper defines it (Sec. 5.1: pi(X) >= f(n, m) 'for any X in the support of pi', "
           "so a point mass qualifies)", "Pi = {point mass}: delta_SDP = T/n >= eta for every n, not m exp(-Theta(f n))"),
     set_aside("full support: pi(X) >= f for every X", True,
               "contradicts the definition's explicit 'in the support of pi'; it is what the proofs use, and under it "
               "the theorem holds (exact check against a proven bound)"))
_add("liu", "Theorem 5 (smoothed part)",
     fails("strictly positive as defined in App. A.3 (pi(X) >= c 'for any X in the support of pi', point masses "
           "allowed), T = o(n), eps = 1 + 2T/n", "Pi = {point mass on 'no ball'}: delta_SDP = 1 - (1-1/n)^T, which "
                                                 "decays like n^-1/2 for T ~ sqrt(n), not exp(-Theta(n))"),
     set_aside("full support", True, "contradicts the definition's explicit 'in the support of pi'; under it the "
                                     "statement holds (exact check)"))
_add("liu", "Theorem 5 (DP part)",
     fails("for every n, T and eps >= 0, no delta <= T/(n+1) makes M_C (eps, delta)-DP",
           "n = 10, T = 3: M_C is (eps, 271/1000)-DP for every eps and 271/1000 < 3/11; the proof's "
           "1 - (1-1/n)^T >= T/(n+1) fails for every T >= 3"),
     fails("in the theorem's regime T = o(n) (large n)", "1 - (1-1/n)^T = T/n - T(T-1)/(2n^2) + ... is below "
                                                          "T/(n+1) = T/n - T/n^2 + ... for every T >= 4 and large n "
                                                          "(the exhaustive check: every 3 <= T < 40, n < 300)"))
