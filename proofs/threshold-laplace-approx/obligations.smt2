; gpaudit proof obligations for threshold-laplace-approx
; config: examples/threshold-laplace-approx.yaml
; config-sha256: ad51a7f270eaba758fdd573555aa1b624acd043bb16a8cbc381d4e78754f8fbf
; code-sha256: 54d16ccf098a388d1fd175d24d2e56f46838463ba1604894972641125d58b7e5
; z3 5.4.1, tactic qfnra-nlsat, seeds 0 (smt.random_seed, sat.random_seed, nlsat.seed)
; Each block states the NEGATION of one claim over one region: `unsat` proves the claim.
; Non-polynomial functions are abstracted soundly (fresh variables with true facts), so `sat`
; is only a candidate counterexample; refutations are re-verified in mpmath (see proof.md).

; obligation 1: condition=defined region=B2 answer=unsat
; claim: B piece 2 is defined on its closure: Ne(Abs(x) + 1/2, 0), Ne(Abs(x)/20 + 39/40, 0)
(push)
; z3 decided this block as 2 cases, the same hypotheses with one conjunct of the claim negated in each: the block is unsat exactly when every case is
(declare-fun x () Real)
(assert (let ((a!1 (and (<= (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))))
      (a!2 (distinct 0.0 (+ (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))))
      (a!3 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) (ite (>= x 0.0) x (- x))))))
  (and (or a!1) (not (and a!2 (distinct 0.0 a!3))))))
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

; obligation 5: condition=B_positive region=f1.B2.a2.m2 answer=unsat
; claim: B > 0 on f1.B2.a2.m2
(push)
(declare-fun x () Real)
(assert (let ((a!1 (> (/ 1.0 (+ (/ 39.0 40.0) (* (- (/ 1.0 20.0)) x)))
              (/ 1.0 (+ (/ 1.0 2.0) (* (- 1.0) x)))))
      (a!2 (> (/ 1.0 (+ (/ 39.0 40.0) (* (- (/ 1.0 20.0)) x))) 0.0))
      (a!3 (=> true (distinct 0.0 (+ (/ 39.0 40.0) (* (- (/ 1.0 20.0)) x))))))
  (and (> (- (/ 1.0 2.0)) x)
       (< (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))
       (> (* (- 1.0) x) x)
       a!1
       (not (and a!2))
       a!3)))
(check-sat)
(pop)

; obligation 6: condition=cover region=f1.B2.a2.m2 answer=unsat
; claim: |grad f| <= 0 * B on f1.B2.a2.m2
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun x () Real)
(assert (let ((a!1 (^ (/ 1.0 (+ (/ 39.0 40.0) (* (- (/ 1.0 20.0)) x))) 2.0))
      (a!3 (=> true (distinct 0.0 (+ (/ 39.0 40.0) (* (- (/ 1.0 20.0)) x))))))
(let ((a!2 (and (<= 0.0 (* (^ 0.0 2.0) a!1)))))
  (and (not a!2) a!3))))
(check-sat)
(pop)

; obligation 7: condition=smooth region=f1.B2.a2.m2 answer=unsat
; claim: |grad ln B| <= 1/20 on f1.B2.a2.m2
(push)
(declare-fun x () Real)
(assert (let ((a!1 (> (/ 1.0 (+ (/ 39.0 40.0) (* (- (/ 1.0 20.0)) x)))
              (/ 1.0 (+ (/ 1.0 2.0) (* (- 1.0) x)))))
      (a!2 (/ 1.0
              (* (+ (/ 39.0 40.0) (* (- (/ 1.0 20.0)) x))
                 (+ (/ 39.0 40.0) (* (- (/ 1.0 20.0)) x)))))
      (a!4 (=> true (distinct 0.0 (+ (/ 39.0 40.0) (* (- (/ 1.0 20.0)) x))))))
(let ((a!3 (not (and (<= (* (/ 1.0 400.0) a!2) (^ (/ 1.0 20.0) 2.0))))))
  (and (> (- (/ 1.0 2.0)) x)
       (< (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))
       (> (* (- 1.0) x) x)
       a!1
       a!3
       a!4))))
(check-sat)
(pop)

; obligation 8: condition=B_positive region=f3.B2.a1.m2 answer=unsat
; claim: B > 0 on f3.B2.a1.m2
(push)
(declare-fun x () Real)
(assert (let ((a!1 (> (/ 1.0 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) x)))
              (/ 1.0 (+ (/ 1.0 2.0) x))))
      (a!2 (> (/ 1.0 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) x))) 0.0))
      (a!3 (=> true (distinct 0.0 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) x))))))
  (and (<= (- (/ 1.0 2.0)) x)
       (< (/ 1.0 2.0) x)
       (< (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))
       (> x (* (- 1.0) x))
       a!1
       (not (and a!2))
       a!3)))
(check-sat)
(pop)

; obligation 9: condition=cover region=f3.B2.a1.m2 answer=unsat
; claim: |grad f| <= 0 * B on f3.B2.a1.m2
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun x () Real)
(assert (let ((a!1 (^ (/ 1.0 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) x))) 2.0))
      (a!3 (=> true (distinct 0.0 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) x))))))
(let ((a!2 (and (<= 0.0 (* (^ 0.0 2.0) a!1)))))
  (and (not a!2) a!3))))
(check-sat)
(pop)

; obligation 10: condition=smooth region=f3.B2.a1.m2 answer=unsat
; claim: |grad ln B| <= 1/20 on f3.B2.a1.m2
(push)
(declare-fun x () Real)
(assert (let ((a!1 (> (/ 1.0 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) x)))
              (/ 1.0 (+ (/ 1.0 2.0) x))))
      (a!2 (/ 1.0
              (* (+ (/ 39.0 40.0) (* (/ 1.0 20.0) x))
                 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) x)))))
      (a!4 (=> true (distinct 0.0 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) x))))))
(let ((a!3 (not (and (<= (* (/ 1.0 400.0) a!2) (^ (/ 1.0 20.0) 2.0))))))
  (and (<= (- (/ 1.0 2.0)) x)
       (< (/ 1.0 2.0) x)
       (< (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))
       (> x (* (- 1.0) x))
       a!1
       a!3
       a!4))))
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
      (a!4 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) (ite (>= x 0.0) x (- x)))))
      (a!5 (/ 1.0 (+ (/ 1.0 2.0) (ite (>= x 0.0) x (- x))))))
(let ((a!6 (distinct 1.0 (ite (> (/ 1.0 a!4) a!5) (/ 1.0 a!4) a!5))))
  (and (or a!1) (or a!2) a!3 (distinct 0.0 a!4) a!6))))
(check-sat)
(pop)

; obligation 15: condition=two_point_cover region=all pairs answer=unsat
; claim: |f(x) - f(x')| <= B(x) |x - x'| for |x - x'| <= Lambda
(push)
(declare-fun xp () Real)
(declare-fun x () Real)
(assert (let ((a!1 (ite (> (- (/ 1.0 2.0)) x)
                0.0
                (ite (>= (/ 1.0 2.0) x) (+ (/ 1.0 2.0) x) 1.0)))
      (a!2 (ite (> (- (/ 1.0 2.0)) xp)
                0.0
                (ite (>= (/ 1.0 2.0) xp) (+ (/ 1.0 2.0) xp) 1.0)))
      (a!3 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) (ite (>= x 0.0) x (- x)))))
      (a!4 (/ 1.0 (+ (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))))
      (a!6 (ite (>= (+ x (* (- 1.0) xp)) 0.0)
                (+ x (* (- 1.0) xp))
                (- (+ x (* (- 1.0) xp))))))
(let ((a!5 (ite (>= (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))
                1.0
                (ite (> (/ 1.0 a!3) a!4) (/ 1.0 a!3) a!4))))
(let ((a!7 (> (ite (>= (- a!1 a!2) 0.0) (- a!1 a!2) (- a!2 a!1)) (* a!5 a!6))))
  (and a!7 (> a!6 0.0))))))
(check-sat)
(pop)

; obligation 16: condition=two_point_smooth region=all pairs answer=unsat
; claim: B(x) <= (1 + gamma |x - x'|) B(x')
(push)
(declare-fun xp () Real)
(declare-fun x () Real)
(assert (let ((a!1 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) (ite (>= x 0.0) x (- x)))))
      (a!2 (/ 1.0 (+ (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))))
      (a!4 (ite (>= (+ x (* (- 1.0) xp)) 0.0)
                (+ x (* (- 1.0) xp))
                (- (+ x (* (- 1.0) xp)))))
      (a!5 (+ (/ 39.0 40.0) (* (/ 1.0 20.0) (ite (>= xp 0.0) xp (- xp)))))
      (a!6 (/ 1.0 (+ (/ 1.0 2.0) (ite (>= xp 0.0) xp (- xp))))))
(let ((a!3 (ite (>= (/ 1.0 2.0) (ite (>= x 0.0) x (- x)))
                1.0
                (ite (> (/ 1.0 a!1) a!2) (/ 1.0 a!1) a!2)))
      (a!7 (ite (>= (/ 1.0 2.0) (ite (>= xp 0.0) xp (- xp)))
                1.0
                (ite (> (/ 1.0 a!5) a!6) (/ 1.0 a!5) a!6))))
(let ((a!8 (> a!3 (* (+ 1.0 (* (/ 1.0 20.0) a!4)) a!7))))
  (and a!8)))))
(check-sat)
(pop)

