; gpaudit proof obligations for kde-2d-student-t
; config: examples/kde-2d-student-t.yaml
; config-sha256: 10408b035d3dfc092e05f68e41e55284528e839ec7c4382668dc703b0b3ce738
; code-sha256: 54d16ccf098a388d1fd175d24d2e56f46838463ba1604894972641125d58b7e5
; z3 5.4.1, tactic qfnra-nlsat, seeds 0 (smt.random_seed, sat.random_seed, nlsat.seed)
; Each block states the NEGATION of one claim over one region: `unsat` proves the claim.
; Non-polynomial functions are abstracted soundly (fresh variables with true facts), so `sat`
; is only a candidate counterexample; refutations are re-verified in mpmath (see proof.md).

; obligation 1: condition=lipschitz region=f1 answer=unsat
; claim: |grad f| <= exp(-1/2) on f1
(push)
(declare-fun exp_1 () Real)
(declare-fun x2 () Real)
(declare-fun x1 () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 1.0 (* (- 1.0) x1 x1) (* (- 1.0) x2 x2))))
(assert (let ((a!1 (+ 1.0 (* (- 1.0) x1 x1) (* (- 1.0) x2 x2))))
(let ((a!2 (+ 1.0 a!1 (/ (* a!1 a!1) 2.0) (/ (* (* a!1 a!1) a!1) 6.0))))
  (>= exp_1 a!2))))
(assert (let ((a!1 (+ 1.0 (* (- 1.0) x1 x1) (* (- 1.0) x2 x2))))
(let ((a!2 (<= exp_1 (+ 1.0 a!1 (/ (* a!1 a!1) 2.0)))))
  (=> (<= a!1 0.0) a!2))))
(assert (let ((a!1 (+ 1.0 (* (- 1.0) x1 x1) (* (- 1.0) x2 x2))))
(let ((a!2 (- (+ (- 1.0 a!1) (/ (* a!1 a!1) 2.0)) (/ (* (* a!1 a!1) a!1) 6.0))))
  (=> (<= a!1 0.0) (>= 1.0 (* exp_1 a!2))))))
(assert (let ((a!1 (+ 1.0 (* (- 1.0) x1 x1) (* (- 1.0) x2 x2))))
  (=> (< a!1 1.0) (>= 1.0 (* exp_1 (- 1.0 a!1))))))
(assert (let ((a!1 (and (<= (+ (* x1 x1 exp_1) (* x2 x2 exp_1)) 1.0))))
  (and (not a!1))))
(check-sat)
(pop)

