; gpaudit proof obligations for broken-threshold-pointwise-bound
; config: examples/broken/threshold-pointwise-bound.yaml
; config-sha256: 8dc473a363d5c80d7a04996bfc8f72925ca9d5afd8cbc86a4cab9f523cc900af
; code-sha256: 54d16ccf098a388d1fd175d24d2e56f46838463ba1604894972641125d58b7e5
; z3 5.4.1, tactic qfnra-nlsat, seeds 0 (smt.random_seed, sat.random_seed, nlsat.seed)
; Each block states the NEGATION of one claim over one region: `unsat` proves the claim.
; Non-polynomial functions are abstracted soundly (fresh variables with true facts), so `sat`
; is only a candidate counterexample; refutations are re-verified in mpmath (see proof.md).

; obligation 1: condition=defined region=B2 answer=unsat
; claim: B piece 2 is defined on its closure: Ne(Abs(x) + 1/2, 0)
(push)
(declare-fun x () Real)
(assert (let ((a!1 (and (<= (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))))
      (a!2 (distinct 0.0 (+ (/ 1.0 2.0) (ite (>= x 0.0) x (- x))))))
  (and (or a!1) (not (and a!2)))))
(check-sat)
(pop)

; obligation 2: condition=B_positive region=f2.B1 answer=unsat
; claim: B > 0 on f2.B1
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(assert (and (not (and (> 1.0 0.0)))))
(check-sat)
(pop)

; obligation 3: condition=cover region=f2.B1 answer=unsat
; claim: |grad f| <= 1 * B on f2.B1
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(assert (let ((a!1 (and (<= 1.0 (* (^ 1.0 2.0) (^ 1.0 2.0))))))
  (and (not a!1))))
(check-sat)
(pop)

; obligation 4: condition=smooth region=f2.B1 answer=unsat
; claim: |grad ln B| <= 0 on f2.B1
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(assert (let ((a!1 (not (and (<= 0.0 (^ 0.0 2.0))))))
  (and a!1)))
(check-sat)
(pop)

; obligation 5: condition=B_positive region=f1.B2.a2 answer=unsat
; claim: B > 0 on f1.B2.a2
(push)
(declare-fun x () Real)
(assert (let ((a!1 (> (/ 1.0 (+ (/ 1.0 2.0) (* (- 1.0) x))) 0.0))
      (a!2 (=> true (distinct 0.0 (+ (/ 1.0 2.0) (* (- 1.0) x))))))
  (and (> (- (/ 1.0 2.0)) x)
       (< (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))
       (> (* (- 1.0) x) x)
       (not (and a!1))
       a!2)))
(check-sat)
(pop)

; obligation 6: condition=cover region=f1.B2.a2 answer=unsat
; claim: |grad f| <= 0 * B on f1.B2.a2
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun x () Real)
(assert (let ((a!1 (^ (/ 1.0 (+ (/ 1.0 2.0) (* (- 1.0) x))) 2.0))
      (a!3 (=> true (distinct 0.0 (+ (/ 1.0 2.0) (* (- 1.0) x))))))
(let ((a!2 (and (<= 0.0 (* (^ 0.0 2.0) a!1)))))
  (and (not a!2) a!3))))
(check-sat)
(pop)

; obligation 7: condition=smooth region=f1.B2.a2 answer=sat
; claim: |grad ln B| <= 1/9 on f1.B2.a2
(push)
(declare-fun x () Real)
(assert (let ((a!1 (/ 1.0
              (* (+ (/ 1.0 2.0) (* (- 1.0) x)) (+ (/ 1.0 2.0) (* (- 1.0) x)))))
      (a!3 (=> true (distinct 0.0 (+ (/ 1.0 2.0) (* (- 1.0) x))))))
(let ((a!2 (not (and (<= a!1 (^ (/ 1.0 9.0) 2.0))))))
  (and (> (- (/ 1.0 2.0)) x)
       (< (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))
       (> (* (- 1.0) x) x)
       a!2
       a!3))))
(check-sat)
(pop)

; obligation 8: condition=B_positive region=f3.B2.a1 answer=unsat
; claim: B > 0 on f3.B2.a1
(push)
(declare-fun x () Real)
(assert (let ((a!1 (and (> (/ 1.0 (+ (/ 1.0 2.0) x)) 0.0))))
  (and (<= (- (/ 1.0 2.0)) x)
       (< (/ 1.0 2.0) x)
       (< (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))
       (> x (* (- 1.0) x))
       (not a!1)
       (=> true (distinct 0.0 (+ (/ 1.0 2.0) x))))))
(check-sat)
(pop)

; obligation 9: condition=cover region=f3.B2.a1 answer=unsat
; claim: |grad f| <= 0 * B on f3.B2.a1
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun x () Real)
(assert (let ((a!1 (* (^ 0.0 2.0) (^ (/ 1.0 (+ (/ 1.0 2.0) x)) 2.0))))
  (and (not (and (<= 0.0 a!1))) (=> true (distinct 0.0 (+ (/ 1.0 2.0) x))))))
(check-sat)
(pop)

; obligation 10: condition=smooth region=f3.B2.a1 answer=sat
; claim: |grad ln B| <= 1/9 on f3.B2.a1
(push)
(declare-fun x () Real)
(assert (let ((a!1 (<= (/ 1.0 (* (+ (/ 1.0 2.0) x) (+ (/ 1.0 2.0) x)))
               (^ (/ 1.0 9.0) 2.0))))
  (and (<= (- (/ 1.0 2.0)) x)
       (< (/ 1.0 2.0) x)
       (< (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))
       (> x (* (- 1.0) x))
       (not (and a!1))
       (=> true (distinct 0.0 (+ (/ 1.0 2.0) x))))))
(check-sat)
(pop)

; obligation 11: condition=continuity region=f1|f2 answer=unsat
; claim: f piece 1 = piece 2 on their common boundary
(push)
(declare-fun x () Real)
(assert (and (or (and (>= (- (/ 1.0 2.0)) x)))
     (or (and (>= (/ 1.0 2.0) x) (<= (- (/ 1.0 2.0)) x)))
     true
     (distinct 0.0 (+ (/ 1.0 2.0) x))))
(check-sat)
(pop)

; obligation 12: condition=continuity region=f1|f3 answer=unsat
; claim: f piece 1 = piece 3 on their common boundary
(push)
(declare-fun x () Real)
(assert (and (or (and (>= (- (/ 1.0 2.0)) x)))
     (or (and (<= (- (/ 1.0 2.0)) x) (<= (/ 1.0 2.0) x)))
     true
     (distinct 0.0 1.0)))
(check-sat)
(pop)

; obligation 13: condition=continuity region=f2|f3 answer=unsat
; claim: f piece 2 = piece 3 on their common boundary
(push)
(declare-fun x () Real)
(assert (and (or (and (>= (/ 1.0 2.0) x) (<= (- (/ 1.0 2.0)) x)))
     (or (and (<= (- (/ 1.0 2.0)) x) (<= (/ 1.0 2.0) x)))
     true
     (distinct 1.0 (+ (/ 1.0 2.0) x))))
(check-sat)
(pop)

; obligation 14: condition=continuity region=B1|B2 answer=unsat
; claim: B piece 1 = piece 2 on their common boundary
(push)
(declare-fun x () Real)
(assert (let ((a!1 (and (>= (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))))
      (a!2 (and (<= (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))))
      (a!3 (distinct 0.0 (+ (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))))
      (a!4 (/ 1.0 (+ (/ 1.0 2.0) (ite (>= x 0.0) x (- x))))))
  (and (or a!1) (or a!2) a!3 (distinct 1.0 a!4))))
(check-sat)
(pop)

