/* SPDX-License-Identifier: MIT */
/* Scalar narrowphase: query builders, validation, query-vs-circle hit and contact. */
#include "hitscan/narrow.h"

#include <float.h>
#include <math.h>

#include "core.h"

hs_query hs_segment(hs_vec2 a, hs_vec2 b)
{
    hs_query q = {a, {b.x - a.x, b.y - a.y}, 0.0f, 1.0f, 0.0f};
    return q;
}

hs_query hs_ray(hs_vec2 a, hs_vec2 dir, float tmax)
{
    hs_query q = {a, dir, 0.0f, tmax, 0.0f};
    return q;
}

hs_query hs_line(hs_vec2 a, hs_vec2 b)
{
    hs_query q = {a, {b.x - a.x, b.y - a.y}, -INFINITY, INFINITY, 0.0f};
    return q;
}

hs_query hs_capsule(hs_vec2 a, hs_vec2 b, float q) { return hs_query_thick(hs_segment(a, b), q); }

hs_query hs_query_thick(hs_query query, float q)
{
    query.q = q;
    return query;
}

hs_status hs_query_validate(hs_query q)
{
    if (!isfinite(q.a.x) || !isfinite(q.a.y) || !isfinite(q.d.x) || !isfinite(q.d.y) ||
        !isfinite(q.q) || isnan(q.tmin) || isnan(q.tmax) || q.tmin == INFINITY ||
        q.tmax == -INFINITY)
        return HS_E_NONFINITE;
    if (q.q < 0.0f)
        return HS_E_NEG_RADIUS;
    if (q.tmin > q.tmax || fabsf(q.a.x) > HS_MAX_COORD || fabsf(q.a.y) > HS_MAX_COORD ||
        q.q > HS_MAX_COORD)
        return HS_E_RANGE;
    /* |d|^2 must be representable: overflow would make every query a point query, and a
     * subnormal |d|^2 would make 1/|d|^2 infinite; one that underflows to 0 from a d that is
     * not 0 would make it a point query too. Such a d is rescaled by the caller. */
    float dd = q.d.x * q.d.x + q.d.y * q.d.y;
    if (dd > FLT_MAX || (dd < FLT_MIN && (q.d.x != 0.0f || q.d.y != 0.0f)))
        return HS_E_RANGE;
    return HS_OK;
}

hs_status hs_circle_validate(hs_circle c)
{
    if (!isfinite(c.x) || !isfinite(c.y) || !isfinite(c.r))
        return HS_E_NONFINITE;
    if (c.r < 0.0f)
        return HS_E_NEG_RADIUS;
    if (fabsf(c.x) > HS_MAX_COORD || fabsf(c.y) > HS_MAX_COORD || c.r > HS_MAX_COORD)
        return HS_E_RANGE;
    return HS_OK;
}

static hs_status validate_pair(hs_query q, hs_circle c)
{
    hs_status s = hs_query_validate(q);
    return s != HS_OK ? s : hs_circle_validate(c);
}

int hs_query_hits_circle(hs_query query, hs_circle c, hs_semantics sem)
{
    hs_status s = validate_pair(query, c);
    if (s != HS_OK)
        return s;
    if ((unsigned)sem > (unsigned)HS_BOUNDARY_SKIP_START)
        return HS_E_RANGE;
    hs_kq k = hs_kq_make(query, sem, 0u);
    return hs_pair_hits(&k, c.x, c.y, c.r);
}

int hs_intersect_circle(hs_query query, hs_circle c, hs_semantics sem, hs_hit *out)
{
    int h = hs_query_hits_circle(query, c, sem);
    if (h <= 0 || out == NULL)
        return h;
    hs_kq k = hs_kq_make(query, sem, 0u);
    hs_pair p = hs_pair_times(&k, c.x, c.y, c.r);
    out->t = p.t;
    out->t_exit = p.t_exit;
    out->flags = p.flags;
    hs_hit_geometry(&k, c.x, c.y, p.t, &out->point, &out->normal);
    return 1;
}

int hs_contact_circle(hs_query query, hs_circle c, hs_contact *out)
{
    hs_status s = validate_pair(query, c);
    if (s != HS_OK)
        return s;
    hs_kq k = hs_kq_make(query, HS_SOLID, 0u);
    float fx = k.ax - c.x, fy = k.ay - c.y;
    float t = hs_clampf(-(fx * k.dx + fy * k.dy) * k.inv_dd, k.tmin, k.tmax);
    float vx = -(fx + t * k.dx), vy = -(fy + t * k.dy); /* closest -> centre */
    float dist = sqrtf(vx * vx + vy * vy);
    float depth = (c.r + k.q) - dist;
    if (out) {
        hs_vec2 left = hs_unit_or(-k.dy, k.dx, (hs_vec2){1.0f, 0.0f});
        out->t = t;
        out->closest.x = k.ax + t * k.dx;
        out->closest.y = k.ay + t * k.dy;
        out->normal = hs_unit_or(vx, vy, left);
        out->distance = dist;
        out->depth = depth;
    }
    return depth >= 0.0f ? 1 : 0;
}
