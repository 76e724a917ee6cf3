/* SPDX-License-Identifier: MIT */
/* Fuzz target: the scalar calls (narrow.h, geom.h): statuses as validation says, answers finite and
 * inside their documented ranges. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_unit(hs_vec2 n, const char *what)
{
    if (!isfinite(n.x) || !isfinite(n.y) || fabsf(hypotf(n.x, n.y) - 1.0f) > 1e-5f)
        fz_fail(what, "normal not a finite unit vector");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f = {data, size};
    hs_query q;
    q.a.x = fz_float(&f);
    q.a.y = fz_float(&f);
    q.d.x = fz_float(&f);
    q.d.y = fz_float(&f);
    switch (fz_u8(&f) & 3) {
    case 0:
        q.tmin = -INFINITY;
        q.tmax = INFINITY;
        break;
    case 1:
        q.tmin = 0.0f;
        q.tmax = INFINITY;
        break;
    case 2:
        q.tmin = 0.0f;
        q.tmax = 1.0f;
        break;
    default:
        q.tmin = fz_float(&f);
        q.tmax = fz_float(&f);
        break;
    }
    q.q = (fz_u8(&f) & 1) ? fz_radius(&f) : 0.0f;
    hs_circle c = {fz_float(&f), fz_float(&f), fz_radius(&f)};
    hs_semantics sem = (fz_u8(&f) & 1) ? HS_BOUNDARY : HS_SOLID;

    const hs_status qv = hs_query_validate(q), cv = hs_circle_validate(c);
    const int valid = qv == HS_OK && cv == HS_OK;
    hs_hit h;
    memset(&h, 0x5A, sizeof h);
    const hs_hit untouched = h;
    int r = hs_intersect_circle(q, c, sem, &h);
    if (r != hs_query_hits_circle(q, c, sem))
        fz_fail("scalar", "hs_intersect_circle and hs_query_hits_circle disagree");
    if (!valid) {
        if (r != (qv != HS_OK ? qv : cv) || memcmp(&h, &untouched, sizeof h) != 0)
            fz_fail("scalar", "invalid input: wrong status or output written");
    } else if (r != 0 && r != 1) {
        fz_fail("scalar", "valid input: status neither hit nor miss");
    } else if (r == 1) {
        if (!(h.t >= q.tmin && h.t <= q.tmax) || !(h.t_exit >= h.t && h.t_exit <= q.tmax) ||
            !isfinite(h.t) || !isfinite(h.t_exit))
            fz_fail("scalar", "hit parameters outside [tmin, tmax] or not finite");
        if (!isfinite(h.point.x) || !isfinite(h.point.y))
            fz_fail("scalar", "hit point not finite");
        check_unit(h.normal, "scalar normal");
        if ((h.flags & ~HS_HIT_INSIDE) != 0)
            fz_fail("scalar", "unknown flag");
        /* the hit point is within r + q of the centre, up to rounding at the scale */
        double px = (double)q.a.x + (double)h.t * q.d.x, py = (double)q.a.y + (double)h.t * q.d.y;
        double dist = hypot(px - c.x, py - c.y), R = (double)c.r + q.q;
        double scale = fmax(fmax(fabs(q.a.x), fabs(q.a.y)), fmax(fmax(fabs(c.x), fabs(c.y)), R));
        scale = fmax(scale, fabs((double)h.t) * hypot(q.d.x, q.d.y));
        if (dist > R + 1e-3 * scale + 0x1p-60)
            fz_fail("scalar", "hit point farther than r + q from the centre");
    }
    hs_contact ct;
    int rc = hs_contact_circle(q, c, &ct);
    if (!valid && rc >= 0)
        fz_fail("contact", "invalid input answered");
    if (valid && rc == 1 && (!isfinite(ct.t) || !isfinite(ct.distance) || !isfinite(ct.depth)))
        fz_fail("contact", "touching contact not finite");
    if (valid && rc >= 0)
        check_unit(ct.normal, "contact normal");

    /* geom.h: statuses and ranges only (their exactness is tested in test_geom) */
    hs_vec2 p = {fz_float(&f), fz_float(&f)}, b0 = {fz_float(&f), fz_float(&f)};
    hs_vec2 b1 = {fz_float(&f), fz_float(&f)};
    int pin = hs_point_in_circle(p, c);
    if (pin > 1)
        fz_fail("geom", "hs_point_in_circle out of range");
    int pos = hs_point_on_segment(p, q.a, b0, fabsf(fz_float(&f)));
    if (pos > 1)
        fz_fail("geom", "hs_point_on_segment out of range");
    hs_segseg ss;
    int sg = hs_segment_segment(q.a, p, b0, b1, &ss);
    if (sg > 1 || (sg == 1 && (ss.kind == HS_SEGSEG_NONE ||
                               !(ss.t0 >= 0.0f && ss.t1 <= 1.0f && ss.t0 <= ss.t1))))
        fz_fail("geom", "hs_segment_segment result out of range");
    hs_aabb box = {b0, b1};
    float te = NAN, tx = NAN;
    int sa = hs_segment_aabb(q.a, p, box, &te, &tx);
    if (sa > 1 || (sa == 1 && !(te >= 0.0f && tx <= 1.0f && te <= tx)))
        fz_fail("geom", "hs_segment_aabb result out of range");
    return 0;
}
