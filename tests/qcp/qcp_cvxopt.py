#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Solves a qcp problem dumped as text by test_qcp_cvxopt with CVXOPT's coneqp (Debian
# python3-cvxopt) and prints "status objective" then x, one value per line. Exit 77 = no cvxopt.
import sys

try:
    from cvxopt import matrix, spmatrix, solvers
except ImportError:
    sys.exit(77)


def read_csc(tok, nrows, ncols):
    colptr = [int(next(tok)) for _ in range(ncols + 1)]
    rowind = [int(next(tok)) for _ in range(colptr[-1])]
    values = [float(next(tok)) for _ in range(colptr[-1])]
    cols = [j for j in range(ncols) for _ in range(colptr[j], colptr[j + 1])]
    return rowind, cols, values


def main():
    with open(sys.argv[1]) as f:
        tok = iter(f.read().split())
    n, p, m, l, nsoc = (int(next(tok)) for _ in range(5))
    q = [int(next(tok)) for _ in range(nsoc)]
    pr, pc, pv = read_csc(tok, n, n)
    # full symmetric P from the upper triangle
    I, J, V = list(pr), list(pc), list(pv)
    for i, j, v in zip(pr, pc, pv):
        if i != j:
            I.append(j), J.append(i), V.append(v)
    P = spmatrix(V, I, J, (n, n))
    ar, ac, av = read_csc(tok, p, n)
    gr, gc, gv = read_csc(tok, m, n)
    c = matrix([float(next(tok)) for _ in range(n)])
    b = matrix([float(next(tok)) for _ in range(p)], (p, 1))
    h = matrix([float(next(tok)) for _ in range(m)], (m, 1))
    A = spmatrix(av, ar, ac, (p, n))
    G = spmatrix(gv, gr, gc, (m, n))
    dims = {'l': l, 'q': q, 's': []}
    # strict tolerances first; CVXOPT's scaling update can fail numerically close to the
    # optimum ("math domain error"), then the next looser tolerance is used
    sol, tol = None, None
    for tol in (1e-11, 1e-10, 1e-9, 1e-8):
        solvers.options.update({'show_progress': False, 'abstol': tol, 'reltol': tol,
                                'feastol': tol, 'maxiters': 200, 'refinement': 2})
        try:
            if p > 0:
                sol = solvers.coneqp(P, c, G, h, dims, A, b, kktsolver='ldl')
            else:
                sol = solvers.coneqp(P, c, G, h, dims, kktsolver='ldl')
        except (ValueError, ArithmeticError):
            sol = None
            continue
        if sol['status'] == 'optimal':
            break
    if sol is None:
        sys.exit(1)
    print('tolerance', tol, file=sys.stderr)
    x = sol['x']
    print(sol['status'], repr(sol['primal objective']))
    for v in x:
        print(repr(v))


if __name__ == '__main__':
    main()
