; gpaudit proof obligations for broken-diffprivlib-laplace-approx-delta-below-profile
; config: examples/broken/diffprivlib-laplace-approx-delta-below-profile.yaml
; config-sha256: c2128b2c1725d2a381965939b99db943cb06e45dc7f323b44c4d64638fa17424
; code-sha256: 2def2e32d64bcb01e85f672b210a7afec7bc1c45734251fd01b7613a6b336321
; z3 5.4.1, seeds 0 (smt.random_seed, sat.random_seed, nlsat.seed)
; Each block states the NEGATION of one claim over one region: `unsat` proves the claim.
; Non-polynomial functions are abstracted soundly (fresh variables with true facts), so `sat`
; is only a candidate counterexample; refutations are re-verified in mpmath (see proof.md).

; obligation 1: condition=B_positive region=f1.B1 answer=unsat
; claim: B > 0 on f1.B1
(push)
(assert (and (not (and (> 1.0 0.0)))))
(check-sat)
(pop)

; obligation 2: condition=cover region=f1.B1 answer=unsat
; claim: |grad f| <= 1 * B on f1.B1
(push)
(assert (let ((a!1 (and (<= 1.0 (* (^ 1.0 2.0) (^ 1.0 2.0))))))
  (and (not a!1))))
(check-sat)
(pop)

; obligation 3: condition=smooth region=f1.B1 answer=unsat
; claim: |grad ln B| <= 0 on f1.B1
(push)
(assert (let ((a!1 (not (and (<= 0.0 (^ 0.0 2.0))))))
  (and a!1)))
(check-sat)
(pop)

