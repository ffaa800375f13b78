; gpaudit proof obligations for broken-threshold-bound-jump
; config: examples/broken/threshold-bound-jump.yaml
; config-sha256: a44c39097679b7339f2688ce1a21b7bc1ee614a781928931434b46478140f327
; code-sha256: 54d16ccf098a388d1fd175d24d2e56f46838463ba1604894972641125d58b7e5
; z3 5.4.1, tactic qfnra-nlsat, seeds 0 (smt.random_seed, sat.random_seed, nlsat.seed)
; Each block states the NEGATION of one claim over one region: `unsat` proves the claim.
; Non-polynomial functions are abstracted soundly (fresh variables with true facts), so `sat`
; is only a candidate counterexample; refutations are re-verified in mpmath (see proof.md).

; obligation 1: condition=B_positive region=f1.B1 answer=unsat
; claim: B > 0 on f1.B1
(push)
(declare-fun x () Real)
(assert (and (> (- (/ 1.0 2.0)) x) (> 3.0 x) (not (and (> 1.0 0.0)))))
(check-sat)
(pop)

; obligation 2: condition=cover region=f1.B1 answer=unsat
; claim: |grad f| <= 0 * B on f1.B1
(push)
(declare-fun x () Real)
(assert (let ((a!1 (and (<= 0.0 (* (^ 0.0 2.0) (^ 1.0 2.0))))))
  (and (> (- (/ 1.0 2.0)) x) (> 3.0 x) (not a!1))))
(check-sat)
(pop)

; obligation 3: condition=smooth region=f1.B1 answer=unsat
; claim: |grad ln B| <= 0 on f1.B1
(push)
(declare-fun x () Real)
(assert (let ((a!1 (not (and (<= 0.0 (^ 0.0 2.0))))))
  (and (> (- (/ 1.0 2.0)) x) (> 3.0 x) a!1)))
(check-sat)
(pop)

; obligation 4: condition=B_positive region=f2.B1 answer=unsat
; claim: B > 0 on f2.B1
(push)
(declare-fun x () Real)
(assert (and (>= (/ 1.0 2.0) x)
     (<= (- (/ 1.0 2.0)) x)
     (> 3.0 x)
     (not (and (> 1.0 0.0)))))
(check-sat)
(pop)

; obligation 5: condition=cover region=f2.B1 answer=unsat
; claim: |grad f| <= 1 * B on f2.B1
(push)
(declare-fun x () Real)
(assert (let ((a!1 (and (<= 1.0 (* (^ 1.0 2.0) (^ 1.0 2.0))))))
  (and (>= (/ 1.0 2.0) x) (<= (- (/ 1.0 2.0)) x) (> 3.0 x) (not a!1))))
(check-sat)
(pop)

; obligation 6: condition=smooth region=f2.B1 answer=unsat
; claim: |grad ln B| <= 0 on f2.B1
(push)
(declare-fun x () Real)
(assert (let ((a!1 (not (and (<= 0.0 (^ 0.0 2.0))))))
  (and (>= (/ 1.0 2.0) x) (<= (- (/ 1.0 2.0)) x) (> 3.0 x) a!1)))
(check-sat)
(pop)

; obligation 7: condition=B_positive region=f3.B1 answer=unsat
; claim: B > 0 on f3.B1
(push)
(declare-fun x () Real)
(assert (and (<= (- (/ 1.0 2.0)) x) (< (/ 1.0 2.0) x) (> 3.0 x) (not (and (> 1.0 0.0)))))
(check-sat)
(pop)

; obligation 8: condition=cover region=f3.B1 answer=unsat
; claim: |grad f| <= 0 * B on f3.B1
(push)
(declare-fun x () Real)
(assert (let ((a!1 (and (<= 0.0 (* (^ 0.0 2.0) (^ 1.0 2.0))))))
  (and (<= (- (/ 1.0 2.0)) x) (< (/ 1.0 2.0) x) (> 3.0 x) (not a!1))))
(check-sat)
(pop)

; obligation 9: condition=smooth region=f3.B1 answer=unsat
; claim: |grad ln B| <= 0 on f3.B1
(push)
(declare-fun x () Real)
(assert (let ((a!1 (not (and (<= 0.0 (^ 0.0 2.0))))))
  (and (<= (- (/ 1.0 2.0)) x) (< (/ 1.0 2.0) x) (> 3.0 x) a!1)))
(check-sat)
(pop)

; obligation 10: condition=B_positive region=f3.B2 answer=unsat
; claim: B > 0 on f3.B2
(push)
(declare-fun x () Real)
(assert (and (<= (- (/ 1.0 2.0)) x)
     (< (/ 1.0 2.0) x)
     (<= 3.0 x)
     (not (and (> (/ 1.0 2.0) 0.0)))))
(check-sat)
(pop)

; obligation 11: condition=cover region=f3.B2 answer=unsat
; claim: |grad f| <= 0 * B on f3.B2
(push)
(declare-fun x () Real)
(assert (let ((a!1 (and (<= 0.0 (* (^ 0.0 2.0) (^ (/ 1.0 2.0) 2.0))))))
  (and (<= (- (/ 1.0 2.0)) x) (< (/ 1.0 2.0) x) (<= 3.0 x) (not a!1))))
(check-sat)
(pop)

; obligation 12: condition=smooth region=f3.B2 answer=unsat
; claim: |grad ln B| <= 0 on f3.B2
(push)
(declare-fun x () Real)
(assert (let ((a!1 (not (and (<= 0.0 (^ 0.0 2.0))))))
  (and (<= (- (/ 1.0 2.0)) x) (< (/ 1.0 2.0) x) (<= 3.0 x) a!1)))
(check-sat)
(pop)

; obligation 13: condition=continuity region=f1|f2 answer=unsat
; claim: f piece 1 = piece 2 on their common boundary
(push)
(declare-fun x () Real)
(assert (and (or (and (>= (- (/ 1.0 2.0)) x)))
     (or (and (>= (/ 1.0 2.0) x) (<= (- (/ 1.0 2.0)) x)))
     true
     (distinct 0.0 (+ (/ 1.0 2.0) x))))
(check-sat)
(pop)

; obligation 14: condition=continuity region=f1|f3 answer=unsat
; claim: f piece 1 = piece 3 on their common boundary
(push)
(declare-fun x () Real)
(assert (and (or (and (>= (- (/ 1.0 2.0)) x)))
     (or (and (<= (- (/ 1.0 2.0)) x) (<= (/ 1.0 2.0) x)))
     true
     (distinct 0.0 1.0)))
(check-sat)
(pop)

; obligation 15: condition=continuity region=f2|f3 answer=unsat
; claim: f piece 2 = piece 3 on their common boundary
(push)
(declare-fun x () Real)
(assert (and (or (and (>= (/ 1.0 2.0) x) (<= (- (/ 1.0 2.0)) x)))
     (or (and (<= (- (/ 1.0 2.0)) x) (<= (/ 1.0 2.0) x)))
     true
     (distinct 1.0 (+ (/ 1.0 2.0) x))))
(check-sat)
(pop)

; obligation 16: condition=continuity region=B1|B2 answer=sat
; claim: B piece 1 = piece 2 on their common boundary
(push)
(declare-fun x () Real)
(assert (and (or (and (>= 3.0 x)))
     (or (and (<= 3.0 x)))
     true
     (distinct 1.0 (/ 1.0 2.0))))
(check-sat)
(pop)

