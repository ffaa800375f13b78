; gpaudit proof obligations for bounded-range-student-t
; config: examples/bounded-range-student-t.yaml
; config-sha256: d26fedcd3d2cc3022d6a1a6057b45b3bfc9a0cf2933ca86635ca4e20cdc18c28
; code-sha256: 54d16ccf098a388d1fd175d24d2e56f46838463ba1604894972641125d58b7e5
; z3 5.4.1, tactic qfnra-nlsat, seeds 0 (smt.random_seed, sat.random_seed, nlsat.seed)
; Each block states the NEGATION of one claim over one region: `unsat` proves the claim.
; Non-polynomial functions are abstracted soundly (fresh variables with true facts), so `sat`
; is only a candidate counterexample; refutations are re-verified in mpmath (see proof.md).

; obligation 1: condition=defined region=B2 answer=unsat
; claim: B piece 2 is defined on its closure: Ne(Abs(x), 0)
(push)
(declare-fun x () Real)
(assert (let ((a!1 (and (<= (/ 5.0 4.0) (ite (>= x 0.0) x (- x)))))
      (a!2 (and (distinct 0.0 (ite (>= x 0.0) x (- x))))))
  (and (or a!1) (not a!2))))
(check-sat)
(pop)

; obligation 2: condition=B_positive region=f2.B1 answer=unsat
; claim: B > 0 on f2.B1
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(assert (and (not (and (> (/ 4.0 5.0) 0.0)))))
(check-sat)
(pop)

; obligation 3: condition=cover region=f2.B1 answer=unsat
; claim: |grad f| <= 1 * B on f2.B1
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(assert (let ((a!1 (and (<= (/ 16.0 25.0) (* (^ 1.0 2.0) (^ (/ 4.0 5.0) 2.0))))))
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

; obligation 5: condition=B_positive region=f3.B1 answer=unsat
; claim: B > 0 on f3.B1
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(assert (and (not (and (> (/ 4.0 5.0) 0.0)))))
(check-sat)
(pop)

; obligation 6: condition=cover region=f3.B1 answer=unsat
; claim: |grad f| <= 1 * B on f3.B1
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(assert (let ((a!1 (and (<= (/ 16.0 25.0) (* (^ 1.0 2.0) (^ (/ 4.0 5.0) 2.0))))))
  (and (not a!1))))
(check-sat)
(pop)

; obligation 7: condition=smooth region=f3.B1 answer=unsat
; claim: |grad ln B| <= 0 on f3.B1
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(assert (let ((a!1 (not (and (<= 0.0 (^ 0.0 2.0))))))
  (and a!1)))
(check-sat)
(pop)

; obligation 8: condition=B_positive region=f1.B2.a2.m1 answer=unsat
; claim: B > 0 on f1.B2.a2.m1
(push)
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 (/ 5.0 36.0) (* (/ 1.0 9.0) x))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
              (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))))
(let ((a!2 (/ (* a!1 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) 6.0)))
  (>= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) (/ a!1 2.0) a!2)))))
(assert (let ((a!1 (/ (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
                 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))
              2.0)))
(let ((a!2 (<= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) a!1))))
  (=> (<= (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 0.0) a!2))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
              (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))))
(let ((a!2 (+ (- 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) (/ a!1 2.0)))
      (a!3 (/ (* a!1 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) 6.0)))
  (=> (<= (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 0.0)
      (>= 1.0 (* exp_1 (- a!2 a!3)))))))
(assert (let ((a!1 (* exp_1 (- 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))))))
  (=> (< (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 1.0) (>= 1.0 a!1))))
(assert (let ((a!1 (and (> (* (- 1.0) (/ 1.0 x)) 0.0))))
  (and (> (- (/ 5.0 4.0)) x)
       (< (/ 5.0 4.0) (ite (>= x 0.0) x (- x)))
       (> (* (- 1.0) x) x)
       (> (* (- 1.0) (/ 1.0 x)) (* (/ 4.0 5.0) exp_1))
       (not a!1)
       (=> true (distinct 0.0 x)))))
(check-sat)
(pop)

; obligation 9: condition=cover region=f1.B2.a2.m1 answer=unsat
; claim: |grad f| <= 0 * B on f1.B2.a2.m1
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun x () Real)
(assert (let ((a!1 (* (^ 0.0 2.0) (^ (* (- 1.0) (/ 1.0 x)) 2.0))))
  (and (not (and (<= 0.0 a!1))) (=> true (distinct 0.0 x)))))
(check-sat)
(pop)

; obligation 10: condition=smooth region=f1.B2.a2.m1 answer=unsat
; claim: |grad ln B| <= 1/9 on f1.B2.a2.m1
(push)
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 (/ 5.0 36.0) (* (/ 1.0 9.0) x))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
              (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))))
(let ((a!2 (/ (* a!1 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) 6.0)))
  (>= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) (/ a!1 2.0) a!2)))))
(assert (let ((a!1 (/ (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
                 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))
              2.0)))
(let ((a!2 (<= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) a!1))))
  (=> (<= (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 0.0) a!2))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
              (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))))
(let ((a!2 (+ (- 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) (/ a!1 2.0)))
      (a!3 (/ (* a!1 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) 6.0)))
  (=> (<= (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 0.0)
      (>= 1.0 (* exp_1 (- a!2 a!3)))))))
(assert (let ((a!1 (* exp_1 (- 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))))))
  (=> (< (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 1.0) (>= 1.0 a!1))))
(assert (let ((a!1 (and (<= (/ 1.0 (* x x)) (^ (/ 1.0 9.0) 2.0)))))
  (and (> (- (/ 5.0 4.0)) x)
       (< (/ 5.0 4.0) (ite (>= x 0.0) x (- x)))
       (> (* (- 1.0) x) x)
       (> (* (- 1.0) (/ 1.0 x)) (* (/ 4.0 5.0) exp_1))
       (not a!1)
       (=> true (distinct 0.0 x)))))
(check-sat)
(pop)

; obligation 11: condition=B_positive region=f1.B2.a2.m2 answer=unsat
; claim: B > 0 on f1.B2.a2.m2
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 (/ 5.0 36.0) (* (/ 1.0 9.0) x))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
              (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))))
(let ((a!2 (/ (* a!1 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) 6.0)))
  (>= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) (/ a!1 2.0) a!2)))))
(assert (let ((a!1 (/ (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
                 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))
              2.0)))
(let ((a!2 (<= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) a!1))))
  (=> (<= (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 0.0) a!2))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
              (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))))
(let ((a!2 (+ (- 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) (/ a!1 2.0)))
      (a!3 (/ (* a!1 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) 6.0)))
  (=> (<= (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 0.0)
      (>= 1.0 (* exp_1 (- a!2 a!3)))))))
(assert (let ((a!1 (* exp_1 (- 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))))))
  (=> (< (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 1.0) (>= 1.0 a!1))))
(assert (let ((a!1 (not (and (> (* (/ 4.0 5.0) exp_1) 0.0)))))
  (and a!1)))
(check-sat)
(pop)

; obligation 12: condition=cover region=f1.B2.a2.m2 answer=unsat
; claim: |grad f| <= 0 * B on f1.B2.a2.m2
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 (/ 5.0 36.0) (* (/ 1.0 9.0) x))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
              (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))))
(let ((a!2 (/ (* a!1 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) 6.0)))
  (>= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) (/ a!1 2.0) a!2)))))
(assert (let ((a!1 (/ (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
                 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))
              2.0)))
(let ((a!2 (<= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) a!1))))
  (=> (<= (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 0.0) a!2))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
              (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))))
(let ((a!2 (+ (- 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) (/ a!1 2.0)))
      (a!3 (/ (* a!1 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) 6.0)))
  (=> (<= (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 0.0)
      (>= 1.0 (* exp_1 (- a!2 a!3)))))))
(assert (let ((a!1 (* exp_1 (- 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))))))
  (=> (< (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 1.0) (>= 1.0 a!1))))
(assert (let ((a!1 (<= 0.0 (* (^ 0.0 2.0) (^ (* (/ 4.0 5.0) exp_1) 2.0)))))
  (and (not (and a!1)))))
(check-sat)
(pop)

; obligation 13: condition=smooth region=f1.B2.a2.m2 answer=unsat
; claim: |grad ln B| <= 1/9 on f1.B2.a2.m2
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(assert (let ((a!1 (not (and (<= (/ 1.0 81.0) (^ (/ 1.0 9.0) 2.0))))))
  (and a!1)))
(check-sat)
(pop)

; obligation 14: condition=B_positive region=f1.B2.a2.m= answer=unsat
; claim: B > 0 on f1.B2.a2.m=
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 (/ 5.0 36.0) (* (/ 1.0 9.0) x))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
              (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))))
(let ((a!2 (/ (* a!1 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) 6.0)))
  (>= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) (/ a!1 2.0) a!2)))))
(assert (let ((a!1 (/ (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
                 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))
              2.0)))
(let ((a!2 (<= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) a!1))))
  (=> (<= (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 0.0) a!2))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
              (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))))
(let ((a!2 (+ (- 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) (/ a!1 2.0)))
      (a!3 (/ (* a!1 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) 6.0)))
  (=> (<= (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 0.0)
      (>= 1.0 (* exp_1 (- a!2 a!3)))))))
(assert (let ((a!1 (* exp_1 (- 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))))))
  (=> (< (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 1.0) (>= 1.0 a!1))))
(assert (let ((a!1 (and (> (* (- 1.0) (/ 1.0 x)) 0.0)))
      (a!2 (not (and (> (* (/ 4.0 5.0) exp_1) 0.0)))))
  (and (not a!1) (=> true (distinct 0.0 x)) a!2)))
(check-sat)
(pop)

; obligation 15: condition=cover region=f1.B2.a2.m= answer=unsat
; claim: |grad f| <= 0 * B on f1.B2.a2.m=
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 (/ 5.0 36.0) (* (/ 1.0 9.0) x))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
              (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))))
(let ((a!2 (/ (* a!1 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) 6.0)))
  (>= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) (/ a!1 2.0) a!2)))))
(assert (let ((a!1 (/ (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
                 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))
              2.0)))
(let ((a!2 (<= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) a!1))))
  (=> (<= (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 0.0) a!2))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))
              (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)))))
(let ((a!2 (+ (- 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) (/ a!1 2.0)))
      (a!3 (/ (* a!1 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))) 6.0)))
  (=> (<= (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 0.0)
      (>= 1.0 (* exp_1 (- a!2 a!3)))))))
(assert (let ((a!1 (* exp_1 (- 1.0 (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x))))))
  (=> (< (+ (/ 5.0 36.0) (* (/ 1.0 9.0) x)) 1.0) (>= 1.0 a!1))))
(assert (let ((a!1 (* (^ 0.0 2.0) (^ (* (- 1.0) (/ 1.0 x)) 2.0)))
      (a!2 (<= 0.0 (* (^ 0.0 2.0) (^ (* (/ 4.0 5.0) exp_1) 2.0)))))
  (and (not (and (<= 0.0 a!1))) (=> true (distinct 0.0 x)) (not (and a!2)))))
(check-sat)
(pop)

; obligation 16: condition=smooth region=f1.B2.a2.m= answer=unsat
; claim: |grad ln B| <= 1/9 on f1.B2.a2.m=
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun x () Real)
(assert (let ((a!1 (and (<= (/ 1.0 (* x x)) (^ (/ 1.0 9.0) 2.0))))
      (a!2 (not (and (<= (/ 1.0 81.0) (^ (/ 1.0 9.0) 2.0))))))
  (and (not a!1) (=> true (distinct 0.0 x)) a!2)))
(check-sat)
(pop)

; obligation 17: condition=B_positive region=f4.B2.a1.m1 answer=unsat
; claim: B > 0 on f4.B2.a1.m1
(push)
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
              (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))))
(let ((a!2 (/ (* a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) 6.0)))
  (>= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) (/ a!1 2.0) a!2)))))
(assert (let ((a!1 (/ (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
                 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))
              2.0)))
(let ((a!2 (<= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) a!1))))
  (=> (<= (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 0.0) a!2))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
              (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))))
(let ((a!2 (+ (- 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) (/ a!1 2.0)))
      (a!3 (/ (* a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) 6.0)))
  (=> (<= (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 0.0)
      (>= 1.0 (* exp_1 (- a!2 a!3)))))))
(assert (let ((a!1 (* exp_1 (- 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))))))
  (=> (< (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 1.0) (>= 1.0 a!1))))
(assert (let ((a!1 (not (and (> (/ 1.0 x) 0.0)))))
  (and (<= (- (/ 5.0 4.0)) x)
       (< 0.0 x)
       (< (/ 5.0 4.0) x)
       (< (/ 5.0 4.0) (ite (>= x 0.0) x (- x)))
       (> x (* (- 1.0) x))
       (> (/ 1.0 x) (* (/ 4.0 5.0) exp_1))
       a!1
       (=> true (distinct 0.0 x)))))
(check-sat)
(pop)

; obligation 18: condition=cover region=f4.B2.a1.m1 answer=unsat
; claim: |grad f| <= 0 * B on f4.B2.a1.m1
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun x () Real)
(assert (let ((a!1 (<= 0.0 (* (^ 0.0 2.0) (^ (/ 1.0 x) 2.0)))))
  (and (not (and a!1)) (=> true (distinct 0.0 x)))))
(check-sat)
(pop)

; obligation 19: condition=smooth region=f4.B2.a1.m1 answer=unsat
; claim: |grad ln B| <= 1/9 on f4.B2.a1.m1
(push)
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
              (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))))
(let ((a!2 (/ (* a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) 6.0)))
  (>= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) (/ a!1 2.0) a!2)))))
(assert (let ((a!1 (/ (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
                 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))
              2.0)))
(let ((a!2 (<= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) a!1))))
  (=> (<= (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 0.0) a!2))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
              (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))))
(let ((a!2 (+ (- 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) (/ a!1 2.0)))
      (a!3 (/ (* a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) 6.0)))
  (=> (<= (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 0.0)
      (>= 1.0 (* exp_1 (- a!2 a!3)))))))
(assert (let ((a!1 (* exp_1 (- 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))))))
  (=> (< (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 1.0) (>= 1.0 a!1))))
(assert (let ((a!1 (and (<= (/ 1.0 (* x x)) (^ (/ 1.0 9.0) 2.0)))))
  (and (<= (- (/ 5.0 4.0)) x)
       (< 0.0 x)
       (< (/ 5.0 4.0) x)
       (< (/ 5.0 4.0) (ite (>= x 0.0) x (- x)))
       (> x (* (- 1.0) x))
       (> (/ 1.0 x) (* (/ 4.0 5.0) exp_1))
       (not a!1)
       (=> true (distinct 0.0 x)))))
(check-sat)
(pop)

; obligation 20: condition=B_positive region=f4.B2.a1.m2 answer=unsat
; claim: B > 0 on f4.B2.a1.m2
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
              (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))))
(let ((a!2 (/ (* a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) 6.0)))
  (>= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) (/ a!1 2.0) a!2)))))
(assert (let ((a!1 (/ (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
                 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))
              2.0)))
(let ((a!2 (<= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) a!1))))
  (=> (<= (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 0.0) a!2))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
              (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))))
(let ((a!2 (+ (- 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) (/ a!1 2.0)))
      (a!3 (/ (* a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) 6.0)))
  (=> (<= (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 0.0)
      (>= 1.0 (* exp_1 (- a!2 a!3)))))))
(assert (let ((a!1 (* exp_1 (- 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))))))
  (=> (< (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 1.0) (>= 1.0 a!1))))
(assert (let ((a!1 (not (and (> (* (/ 4.0 5.0) exp_1) 0.0)))))
  (and a!1)))
(check-sat)
(pop)

; obligation 21: condition=cover region=f4.B2.a1.m2 answer=unsat
; claim: |grad f| <= 0 * B on f4.B2.a1.m2
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
              (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))))
(let ((a!2 (/ (* a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) 6.0)))
  (>= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) (/ a!1 2.0) a!2)))))
(assert (let ((a!1 (/ (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
                 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))
              2.0)))
(let ((a!2 (<= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) a!1))))
  (=> (<= (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 0.0) a!2))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
              (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))))
(let ((a!2 (+ (- 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) (/ a!1 2.0)))
      (a!3 (/ (* a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) 6.0)))
  (=> (<= (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 0.0)
      (>= 1.0 (* exp_1 (- a!2 a!3)))))))
(assert (let ((a!1 (* exp_1 (- 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))))))
  (=> (< (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 1.0) (>= 1.0 a!1))))
(assert (let ((a!1 (<= 0.0 (* (^ 0.0 2.0) (^ (* (/ 4.0 5.0) exp_1) 2.0)))))
  (and (not (and a!1)))))
(check-sat)
(pop)

; obligation 22: condition=smooth region=f4.B2.a1.m2 answer=unsat
; claim: |grad ln B| <= 1/9 on f4.B2.a1.m2
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(assert (let ((a!1 (not (and (<= (/ 1.0 81.0) (^ (/ 1.0 9.0) 2.0))))))
  (and a!1)))
(check-sat)
(pop)

; obligation 23: condition=B_positive region=f4.B2.a1.m= answer=unsat
; claim: B > 0 on f4.B2.a1.m=
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
              (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))))
(let ((a!2 (/ (* a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) 6.0)))
  (>= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) (/ a!1 2.0) a!2)))))
(assert (let ((a!1 (/ (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
                 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))
              2.0)))
(let ((a!2 (<= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) a!1))))
  (=> (<= (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 0.0) a!2))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
              (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))))
(let ((a!2 (+ (- 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) (/ a!1 2.0)))
      (a!3 (/ (* a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) 6.0)))
  (=> (<= (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 0.0)
      (>= 1.0 (* exp_1 (- a!2 a!3)))))))
(assert (let ((a!1 (* exp_1 (- 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))))))
  (=> (< (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 1.0) (>= 1.0 a!1))))
(assert (let ((a!1 (not (and (> (/ 1.0 x) 0.0))))
      (a!2 (not (and (> (* (/ 4.0 5.0) exp_1) 0.0)))))
  (and a!1 (=> true (distinct 0.0 x)) a!2)))
(check-sat)
(pop)

; obligation 24: condition=cover region=f4.B2.a1.m= answer=unsat
; claim: |grad f| <= 0 * B on f4.B2.a1.m=
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (>= exp_1 (+ 1.0 (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
              (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))))
(let ((a!2 (/ (* a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) 6.0)))
  (>= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) (/ a!1 2.0) a!2)))))
(assert (let ((a!1 (/ (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
                 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))
              2.0)))
(let ((a!2 (<= exp_1 (+ 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) a!1))))
  (=> (<= (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 0.0) a!2))))
(assert (let ((a!1 (* (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))
              (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)))))
(let ((a!2 (+ (- 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) (/ a!1 2.0)))
      (a!3 (/ (* a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))) 6.0)))
  (=> (<= (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 0.0)
      (>= 1.0 (* exp_1 (- a!2 a!3)))))))
(assert (let ((a!1 (* exp_1 (- 1.0 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x))))))
  (=> (< (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) x)) 1.0) (>= 1.0 a!1))))
(assert (let ((a!1 (<= 0.0 (* (^ 0.0 2.0) (^ (/ 1.0 x) 2.0))))
      (a!2 (<= 0.0 (* (^ 0.0 2.0) (^ (* (/ 4.0 5.0) exp_1) 2.0)))))
  (and (not (and a!1)) (=> true (distinct 0.0 x)) (not (and a!2)))))
(check-sat)
(pop)

; obligation 25: condition=smooth region=f4.B2.a1.m= answer=unsat
; claim: |grad ln B| <= 1/9 on f4.B2.a1.m=
(push)
; z3 decided this block without the region's conditions, a stronger statement: unsat without them is unsat with them
(declare-fun x () Real)
(assert (let ((a!1 (and (<= (/ 1.0 (* x x)) (^ (/ 1.0 9.0) 2.0))))
      (a!2 (not (and (<= (/ 1.0 81.0) (^ (/ 1.0 9.0) 2.0))))))
  (and (not a!1) (=> true (distinct 0.0 x)) a!2)))
(check-sat)
(pop)

; obligation 26: condition=continuity region=f1|f2 answer=unsat
; claim: f piece 1 = piece 2 on their common boundary
(push)
(declare-fun x () Real)
(assert (and (or (and (>= (- (/ 5.0 4.0)) x)))
     (or (and (>= 0.0 x) (<= (- (/ 5.0 4.0)) x)))
     true
     (distinct 0.0 (+ 1.0 (* (/ 4.0 5.0) x)))))
(check-sat)
(pop)

; obligation 27: condition=continuity region=f1|f3 answer=unsat
; claim: f piece 1 = piece 3 on their common boundary
(push)
(declare-fun x () Real)
(assert (and (or (and (>= (- (/ 5.0 4.0)) x)))
     (or (and (>= (/ 5.0 4.0) x) (<= (- (/ 5.0 4.0)) x) (<= 0.0 x)))
     true
     (distinct 0.0 (+ 1.0 (* (- (/ 4.0 5.0)) x)))))
(check-sat)
(pop)

; obligation 28: condition=continuity region=f2|f3 answer=unsat
; claim: f piece 2 = piece 3 on their common boundary
(push)
(declare-fun x () Real)
(assert (and (or (and (>= 0.0 x) (<= (- (/ 5.0 4.0)) x)))
     (or (and (>= (/ 5.0 4.0) x) (<= (- (/ 5.0 4.0)) x) (<= 0.0 x)))
     true
     (distinct (+ 1.0 (* (/ 4.0 5.0) x)) (+ 1.0 (* (- (/ 4.0 5.0)) x)))))
(check-sat)
(pop)

; obligation 29: condition=continuity region=f2|f4 answer=unsat
; claim: f piece 2 = piece 4 on their common boundary
(push)
(declare-fun x () Real)
(assert (and (or (and (>= 0.0 x) (<= (- (/ 5.0 4.0)) x)))
     (or (and (<= (- (/ 5.0 4.0)) x) (<= 0.0 x) (<= (/ 5.0 4.0) x)))
     true
     (distinct 0.0 (+ 1.0 (* (/ 4.0 5.0) x)))))
(check-sat)
(pop)

; obligation 30: condition=continuity region=f3|f4 answer=unsat
; claim: f piece 3 = piece 4 on their common boundary
(push)
(declare-fun x () Real)
(assert (and (or (and (>= (/ 5.0 4.0) x) (<= (- (/ 5.0 4.0)) x) (<= 0.0 x)))
     (or (and (<= (- (/ 5.0 4.0)) x) (<= 0.0 x) (<= (/ 5.0 4.0) x)))
     true
     (distinct 0.0 (+ 1.0 (* (- (/ 4.0 5.0)) x)))))
(check-sat)
(pop)

; obligation 31: condition=continuity region=B1|B2 answer=unsat
; claim: B piece 1 = piece 2 on their common boundary
(push)
(declare-fun exp_1 () Real)
(declare-fun x () Real)
(assert (> exp_1 0.0))
(assert (let ((a!1 (+ 1.0 (/ 5.0 36.0) (* (- (/ 1.0 9.0)) (ite (>= x 0.0) x (- x))))))
  (>= exp_1 a!1)))
(assert (let ((a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) (ite (>= x 0.0) x (- x))))))
(let ((a!2 (+ 1.0 a!1 (/ (* a!1 a!1) 2.0) (/ (* (* a!1 a!1) a!1) 6.0))))
  (>= exp_1 a!2))))
(assert (let ((a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) (ite (>= x 0.0) x (- x))))))
(let ((a!2 (<= exp_1 (+ 1.0 a!1 (/ (* a!1 a!1) 2.0)))))
  (=> (<= a!1 0.0) a!2))))
(assert (let ((a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) (ite (>= x 0.0) x (- x))))))
(let ((a!2 (- (+ (- 1.0 a!1) (/ (* a!1 a!1) 2.0)) (/ (* (* a!1 a!1) a!1) 6.0))))
  (=> (<= a!1 0.0) (>= 1.0 (* exp_1 a!2))))))
(assert (let ((a!1 (+ (/ 5.0 36.0) (* (- (/ 1.0 9.0)) (ite (>= x 0.0) x (- x))))))
  (=> (< a!1 1.0) (>= 1.0 (* exp_1 (- 1.0 a!1))))))
(assert (let ((a!1 (and (>= (/ 5.0 4.0) (ite (>= x 0.0) x (- x)))))
      (a!2 (and (<= (/ 5.0 4.0) (ite (>= x 0.0) x (- x)))))
      (a!3 (> (* (/ 4.0 5.0) exp_1) (/ 1.0 (ite (>= x 0.0) x (- x))))))
(let ((a!4 (ite a!3 (* (/ 4.0 5.0) exp_1) (/ 1.0 (ite (>= x 0.0) x (- x))))))
  (and (or a!1)
       (or a!2)
       (distinct 0.0 (ite (>= x 0.0) x (- x)))
       (distinct (/ 4.0 5.0) a!4)))))
(check-sat)
(pop)

