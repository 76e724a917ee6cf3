// SPDX-License-Identifier: MIT
// Every library's answers against hitscan's, before any timing. hitscan answers in the
// semantics each library has (its documentation says which):
//   'solid'                the closed disc counts: a segment starting inside hits it at t = 0
//   'boundary'             only rims count: a segment starting inside meets the rim it leaves by
//   'solid-start-outside'  solid, but a circle that contains the segment's start is ignored
//                          (Box2D's rule, so planck.js's): hitscan's solid hits with t > 0
// A disagreement on a circle the segment only grazes is not counted as one: when the segment's
// distance to the centre, or the distance of its start or end to the centre, is within the
// tangency band of r (a tangency or an end on the rim), rounding decides either way. The band
// is BAND * r, or float32's rounding of |A - C|^2 in the textbook quadratic (2^-22 |A - C|^2 / r
// as a distance, for segments starting far from the circle), whichever is larger.
import { Grid } from '../index.js';

export const BAND = 1e-4;
const F32_BAND = 2 ** -22;
/** Two hits at entry parameters this close are the same hit (a tie between circles). */
export const T_TOL = 1e-4;

/** Whether segment i only grazes circle c: within the tangency band of its rim. */
export function borderline(q, xyr, i, c) {
  const ax = q[4 * i], ay = q[4 * i + 1], dx = q[4 * i + 2] - ax, dy = q[4 * i + 3] - ay;
  const fx = ax - xyr[3 * c], fy = ay - xyr[3 * c + 1], r = xyr[3 * c + 2];
  const dd = dx * dx + dy * dy;
  let s = dd > 0 ? -(fx * dx + fy * dy) / dd : 0;
  s = Math.min(1, Math.max(0, s));
  const near = Math.hypot(fx + s * dx, fy + s * dy);
  const start = Math.hypot(fx, fy);
  const end = Math.hypot(fx + dx, fy + dy);
  const tol = Math.max(BAND * r, F32_BAND * start * start / r);
  return Math.abs(near - r) <= tol || Math.abs(start - r) <= tol || Math.abs(end - r) <= tol;
}

/** hitscan's all-hits answer as ranges by segment (start, count into circle and t). */
export function csrOf(hits, m) {
  const start = new Uint32Array(m);
  const count = new Uint32Array(m);
  for (let k = hits.query.length - 1; k >= 0; k--) {
    start[hits.query[k]] = k;
    count[hits.query[k]]++;
  }
  return { start, count, circle: hits.circle, t: hits.t, total: hits.circle.length, hasT: true };
}

/**
 * hitscan's answers on a scene in every semantics the libraries use: closest and all hits.
 * Made with the build `init` loaded last.
 */
export function references(xyr, q) {
  const m = q.length / 4;
  const grid = new Grid(xyr);
  const solid = grid.closest(q);
  const boundary = grid.closest(q, { semantics: 'boundary' });
  const all = csrOf(grid.all(q), m);
  grid.dispose();
  // solid hits with t > 0: the hits of a segment are by t, so those at t = 0 come first
  const outside = { index: new Int32Array(m).fill(-1), t: new Float32Array(m).fill(NaN) };
  const keep = [];
  for (let i = 0; i < m; i++) {
    for (let k = all.start[i]; k < all.start[i] + all.count[i]; k++) {
      if (all.t[k] > 0) {
        keep.push(k);
        if (outside.index[i] < 0) {
          outside.index[i] = all.circle[k];
          outside.t[i] = all.t[k];
        }
      }
    }
  }
  const allOutside = {
    start: new Uint32Array(m), count: new Uint32Array(m),
    circle: new Int32Array(keep.length), t: new Float32Array(keep.length),
    total: keep.length, hasT: true,
  };
  let j = 0;
  for (let i = 0; i < m; i++) {
    allOutside.start[i] = j;
    for (let k = all.start[i]; k < all.start[i] + all.count[i]; k++) {
      if (all.t[k] > 0) {
        allOutside.circle[j] = all.circle[k];
        allOutside.t[j++] = all.t[k];
      }
    }
    allOutside.count[i] = j - allOutside.start[i];
  }
  return {
    closest: { solid, boundary, 'solid-start-outside': outside },
    all: { solid: all, boundary: null, 'solid-start-outside': allOutside },
  };
}

function note(report, what, i, detail) {
  report[what]++;
  if (report.examples.length < 3) {
    report.examples.push({ query: i, ...detail });
  }
}

/**
 * Closest hits against the reference: the same circle (agree), another circle at the same t
 * (a tie), a disagreement on a grazed circle (tangent), or a mismatch. Where the circle is the
 * same, how far the t differ: `t_off` answers differ by more than T_TOL, at most `t_max_diff`.
 */
export function compareClosest(got, ref, q, xyr) {
  return compareFirst(got, ref, q, { grazes: (i, c) => borderline(q, xyr, i, c) });
}

/**
 * The loop of compareClosest and compareWalls: `grazes(i, k)`, whether segment i only grazes
 * primitive k; `touches(i, k, t)`, whether a tie on k at t holds; `strict`: the same primitive
 * at a t more than T_TOL apart is a mismatch; `wrong(i)`, a reference answer of the wrong kind.
 */
function compareFirst(got, ref, q, { grazes, touches = () => true, strict = false,
  wrong = () => false }) {
  const m = q.length / 4;
  const r = { compared: m, agree: 0, tie: 0, tangent: 0, mismatch: 0, t_off: 0, t_max_diff: 0,
    examples: [] };
  for (let i = 0; i < m; i++) {
    const p = got.index[i], h = ref.index[i];
    const tp = got.t[i], th = ref.t[i];
    if (wrong(i)) {
      note(r, 'mismatch', i, { got: [p, tp], hitscan: [h, th, 'of another kind'] });
    } else if (p === h && (!strict || p < 0 || Math.abs(tp - th) <= T_TOL)) {
      r.agree++;
      if (p >= 0) tDiff(r, Math.abs(tp - th));
    } else if (p >= 0 && h >= 0 && Math.abs(tp - th) <= T_TOL && touches(i, p, tp)) {
      r.tie++;
    } else if ((p >= 0 && grazes(i, p)) || (h >= 0 && grazes(i, h))) {
      r.tangent++;
    } else {
      if (p === h) tDiff(r, Math.abs(tp - th));
      note(r, 'mismatch', i, { got: [p, tp], hitscan: [h, th] });
    }
  }
  return r;
}

function tDiff(r, d) {
  if (d > T_TOL) r.t_off++;
  if (d > r.t_max_diff) r.t_max_diff = d;
}

/**
 * All hits against the reference, segment by segment: the same set of circles, but for
 * circles the segment only grazes (then the segment counts as tangent). Where both give t for
 * a circle, `t_off` and `t_max_diff` as for closest.
 */
export function compareAll(got, ref, q, xyr) {
  const m = q.length / 4;
  const r = { compared: m, hits: ref.total, agree: 0, tangent: 0, mismatch: 0, t_off: 0,
    t_max_diff: 0, examples: [] };
  const seen = new Map(); // circle -> its t in the reference, null once matched
  for (let i = 0; i < m; i++) {
    seen.clear();
    for (let k = ref.start[i]; k < ref.start[i] + ref.count[i]; k++) {
      seen.set(ref.circle[k], ref.t[k]);
    }
    let bad = 0, grazed = 0;
    for (let k = got.start[i]; k < got.start[i] + got.count[i]; k++) {
      const c = got.circle[k];
      const th = seen.get(c);
      if (th === null) {
        bad++; // the same circle twice
      } else if (th === undefined) {
        if (borderline(q, xyr, i, c)) grazed++;
        else bad++;
      } else if (got.hasT) {
        tDiff(r, Math.abs(got.t[k] - th));
      }
      seen.set(c, null);
    }
    for (const [c, th] of seen) {
      if (th !== null) {
        if (borderline(q, xyr, i, c)) grazed++;
        else bad++;
      }
    }
    if (bad > 0) {
      note(r, 'mismatch', i, {
        got: Array.from(got.circle.subarray(got.start[i], got.start[i] + got.count[i])),
        hitscan: Array.from(ref.circle.subarray(ref.start[i], ref.start[i] + ref.count[i])),
      });
    } else if (grazed > 0) {
      r.tangent++;
    } else {
      r.agree++;
    }
  }
  return r;
}

/**
 * Whether segment i only grazes wall w of `walls` (ax, ay, bx, by quadruples): an end of
 * either within the band of the other (a ray touching a wall's end, or ending on a wall), or
 * the two nearly collinear. The band is 2^-20 of the coordinates' magnitude (float32's
 * rounding there, with room), at least 1e-6.
 */
export function wallBorderline(q, walls, i, w) {
  const [ax, ay, bx, by] = q.subarray(4 * i, 4 * i + 4);
  const [cx, cy, dx, dy] = walls.subarray(4 * w, 4 * w + 4);
  const tol = Math.max(1e-6, 2 ** -20 * Math.max(Math.abs(ax), Math.abs(ay), Math.abs(bx),
                                                 Math.abs(by), Math.abs(cx), Math.abs(cy)));
  const d = (px, py, x0, y0, x1, y1) => {
    const ex = x1 - x0, ey = y1 - y0, ee = ex * ex + ey * ey;
    const s = ee > 0 ? Math.min(1, Math.max(0, ((px - x0) * ex + (py - y0) * ey) / ee)) : 0;
    return Math.hypot(px - x0 - s * ex, py - y0 - s * ey);
  };
  const line = (px, py, x0, y0, x1, y1) =>
    Math.abs((x1 - x0) * (py - y0) - (y1 - y0) * (px - x0)) / Math.hypot(x1 - x0, y1 - y0);
  return d(cx, cy, ax, ay, bx, by) <= tol || d(dx, dy, ax, ay, bx, by) <= tol ||
    d(ax, ay, cx, cy, dx, dy) <= tol || d(bx, by, cx, cy, dx, dy) <= tol ||
    (line(cx, cy, ax, ay, bx, by) <= tol && line(dx, dy, ax, ay, bx, by) <= tol);
}

/** Whether segment i's point at t lies on wall w (within t's tolerance along the segment). */
function touches(q, walls, i, w, t) {
  const [ax, ay, bx, by] = q.subarray(4 * i, 4 * i + 4);
  const [cx, cy, dx, dy] = walls.subarray(4 * w, 4 * w + 4);
  const px = ax + t * (bx - ax), py = ay + t * (by - ay);
  const ex = dx - cx, ey = dy - cy, ee = ex * ex + ey * ey;
  const s = ee > 0 ? Math.min(1, Math.max(0, ((px - cx) * ex + (py - cy) * ey) / ee)) : 0;
  return Math.hypot(px - cx - s * ex, py - cy - s * ey) <= T_TOL * Math.hypot(bx - ax, by - ay);
}

/**
 * Closest walls against hitscan's (`ref`: index, t, kind): the same wall with t within T_TOL
 * (agree), another wall at the same t that the segment's point there touches (a tie: two
 * walls meeting at a corner), a disagreement on a wall the segment only grazes (tangent), or
 * a mismatch, which a hit on the same wall at a t more than T_TOL apart is too.
 */
export function compareWalls(got, ref, q, walls) {
  return compareFirst(got, ref, q, {
    grazes: (i, w) => wallBorderline(q, walls, i, w),
    touches: (i, w, t) => touches(q, walls, i, w, t),
    strict: true,
    wrong: (i) => ref.index[i] >= 0 && ref.kind[i] !== 1,
  });
}
