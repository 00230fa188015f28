/*
 * OVSDB values in their JSON notation (RFC 7047 section 5.1): atoms,
 * sets and maps, checked against a column's type (section 3.2) and kept
 * canonical: a set of one element is its atom, sets and maps are sorted
 * and have no duplicate keys, reals are reals, UUIDs lower case.  Two
 * values are then equal exactly when json_equal() says so.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ovsdb_db.h"

/* ---- UUIDs (section 5.1, <uuid>: 8-4-4-4-12 hex digits) ---- */

void
ovsdb_uuid_random(uint8_t *u)
{
	size_t	i;

	for (i = 0; i < OVSDB_UUID_LEN; i++)
		u[i] = (uint8_t)(random() >> 7);
	u[6] = (uint8_t)((u[6] & 0x0f) | 0x40);	/* RFC 4122 version 4 */
	u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
}

void
ovsdb_uuid_fmt(const uint8_t *u, char *s)
{
	static const char	hex[] = "0123456789abcdef";
	size_t			i;

	for (i = 0; i < OVSDB_UUID_LEN; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*s++ = '-';
		*s++ = hex[u[i] >> 4];
		*s++ = hex[u[i] & 0xf];
	}
	*s = '\0';
}

static int
ovsdb_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
ovsdb_uuid_parse(const char *s, uint8_t *u)
{
	size_t	i, k = 0;
	int	hi, lo;

	if (s == NULL || strlen(s) != OVSDB_UUID_STRLEN - 1)
		return -1;
	for (i = 0; i < OVSDB_UUID_LEN; i++) {
		if ((i == 4 || i == 6 || i == 8 || i == 10) && s[k++] != '-')
			return -1;
		if ((hi = ovsdb_hexval(s[k])) == -1 ||
		    (lo = ovsdb_hexval(s[k + 1])) == -1)
			return -1;
		u[i] = (uint8_t)(hi << 4 | lo);
		k += 2;
	}
	return 0;
}

/* Every ["uuid", "..."] shares its "uuid": a reference costs a string
 * less (devices hold many).  Made once, never freed. */
json_t *
ovsdb_uuid_json(const uint8_t *u)
{
	static json_t	*tag;
	char		 s[OVSDB_UUID_STRLEN];

	if (tag == NULL && (tag = json_string("uuid")) == NULL)
		fatalx("json_string");
	ovsdb_uuid_fmt(u, s);
	return json_pack("[Os]", tag, s);
}

int
ovsdb_name_find(const char *const *names, int lo, int hi, const char *s)
{
	int	i;

	for (i = lo; i <= hi; i++)
		if (names[i] != NULL && strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

json_t *
ovsdb_error(const char *tag, const char *fmt, ...)
{
	char	details[512];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(details, sizeof(details), fmt, ap);
	va_end(ap);
	return json_pack("{ssss}", "error", tag, "details", details);
}

/* ---- atoms ---- */

/* Characters of a UTF-8 string (section 3.2, minLength and maxLength). */
static uint64_t
ovsdb_utf8_len(const char *s)
{
	uint64_t	n = 0;

	for (; *s != '\0'; s++)
		if (((uint8_t)*s & 0xc0) != 0x80)
			n++;
	return n;
}

static int
ovsdb_atom_in_enum(const struct ovsdb_base *b, const json_t *a)
{
	size_t	i;

	for (i = 0; i < json_array_size(b->enums); i++)
		if (json_equal(json_array_get(b->enums, i), (json_t *)a))
			return 1;
	return 0;
}

/* As ovsdb-server says it: "x is not one of the allowed values ([a,
 * b])" (the list for strings only). */
static json_t *
ovsdb_enum_error(const struct ovsdb_base *b, const json_t *a)
{
	char	list[256];
	size_t	i, n = 0;

	list[0] = '\0';
	for (i = 0; i < json_array_size(b->enums) && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
		    i ? ", " : "", json_string_value(json_array_get(b->enums,
		    i)) ? json_string_value(json_array_get(b->enums, i)) : "?");
	return ovsdb_error("constraint violation", "%s is not one of the "
	    "allowed values ([%s])", json_is_string(a) ? json_string_value(a) :
	    "the value", list);
}

/* A <uuid> or, in a transaction, a <named-uuid>. */
static json_t *
ovsdb_atom_uuid(json_t *j, struct ovsdb_symtab *st, json_t **err)
{
	const char	*kind = json_string_value(json_array_get(j, 0));
	const char	*s = json_string_value(json_array_get(j, 1));
	uint8_t		 u[OVSDB_UUID_LEN];

	if (json_array_size(j) != 2 || kind == NULL || s == NULL)
		goto bad;
	if (strcmp(kind, "uuid") == 0 && ovsdb_uuid_parse(s, u) == 0)
		return ovsdb_uuid_json(u);
	if (strcmp(kind, "named-uuid") == 0 && st != NULL)
		return ovsdb_symtab_uuid(st, s);
bad:
	*err = ovsdb_error("syntax error", "expected a uuid");
	return NULL;
}

static json_t *
ovsdb_atom_number(const struct ovsdb_base *b, json_t *j, json_t **err)
{
	double	d;

	if (b->type == OVSDB_INTEGER) {
		if (!json_is_integer(j))
			goto bad;
		if (json_integer_value(j) < b->imin ||
		    json_integer_value(j) > b->imax) {
			*err = ovsdb_error("constraint violation",
			    "%lld is not in the valid range %lld to %lld "
			    "(inclusive)",
			    (long long)json_integer_value(j),
			    (long long)b->imin, (long long)b->imax);
			return NULL;
		}
		return json_incref(j);
	}
	if (!json_is_number(j))
		goto bad;
	if ((d = json_number_value(j)) < b->rmin || d > b->rmax) {
		*err = ovsdb_error("constraint violation", "%g is not in the "
		    "valid range %g to %g (inclusive)", d, b->rmin, b->rmax);
		return NULL;
	}
	return json_real(d);
bad:
	*err = ovsdb_error("syntax error", "expected %s",
	    b->type == OVSDB_INTEGER ? "integer" : "real");
	return NULL;
}

static json_t *
ovsdb_atom_string(const struct ovsdb_base *b, json_t *j, json_t **err)
{
	uint64_t	n;

	if (!json_is_string(j)) {
		*err = ovsdb_error("syntax error", "expected string");
		return NULL;
	}
	n = ovsdb_utf8_len(json_string_value(j));
	if (n < b->lmin || n > b->lmax) {
		*err = ovsdb_error("constraint violation", "\"%s\" length %llu "
		    "is not in the valid range", json_string_value(j),
		    (unsigned long long)n);
		return NULL;
	}
	return json_incref(j);
}

/* An atom of base type b, checked (section 5.1, <atom>). */
static json_t *
ovsdb_atom_parse(const struct ovsdb_base *b, json_t *j,
    struct ovsdb_symtab *st, json_t **err)
{
	json_t	*a = NULL;

	switch (b->type) {
	case OVSDB_INTEGER:
	case OVSDB_REAL:
		a = ovsdb_atom_number(b, j, err);
		break;
	case OVSDB_BOOLEAN:
		if (json_is_boolean(j))
			a = json_incref(j);
		else
			*err = ovsdb_error("syntax error", "expected boolean");
		break;
	case OVSDB_STRING:
		a = ovsdb_atom_string(b, j, err);
		break;
	case OVSDB_UUID:
		a = json_is_array(j) ? ovsdb_atom_uuid(j, st, err) : NULL;
		if (!json_is_array(j))
			*err = ovsdb_error("syntax error", "expected a uuid");
		break;
	}
	if (a != NULL && b->enums != NULL && !ovsdb_atom_in_enum(b, a)) {
		*err = ovsdb_enum_error(b, a);
		json_decref(a);
		return NULL;
	}
	return a;
}

int
ovsdb_atom_cmp(const json_t *a, const json_t *b)
{
	double	x, y;

	if (json_typeof(a) != json_typeof(b) &&
	    !(json_is_number(a) && json_is_number(b)))
		return (int)json_typeof(a) - (int)json_typeof(b);
	if (json_is_number(a)) {
		x = json_number_value(a);
		y = json_number_value(b);
		return x < y ? -1 : x > y;
	}
	if (json_is_string(a))
		return strcmp(json_string_value(a), json_string_value(b));
	if (json_is_array(a))		/* ["uuid", "..."] */
		return strcmp(json_string_value(json_array_get(a, 1)),
		    json_string_value(json_array_get(b, 1)));
	return json_is_true(a) - json_is_true(b);
}

/* ---- sets and maps ---- */

int
ovsdb_datum_cmp(const json_t *a, const json_t *b)
{
	size_t	i, n = ovsdb_datum_n(a);
	int	r;

	if (n != ovsdb_datum_n(b))
		return n < ovsdb_datum_n(b) ? -1 : 1;
	for (i = 0; i < n; i++) {
		if ((r = ovsdb_atom_cmp(ovsdb_datum_key(a, i),
		    ovsdb_datum_key(b, i))) != 0)
			return r;
		if (ovsdb_datum_val(a, i) != NULL && (r = ovsdb_atom_cmp(
		    ovsdb_datum_val(a, i), ovsdb_datum_val(b, i))) != 0)
			return r;
	}
	return 0;
}

static int
ovsdb_is_tagged(const json_t *j, const char *tag)
{
	return json_is_array(j) && json_array_size(j) == 2 &&
	    json_is_string(json_array_get(j, 0)) &&
	    strcmp(json_string_value(json_array_get(j, 0)), tag) == 0 &&
	    json_is_array(json_array_get(j, 1));
}

size_t
ovsdb_datum_n(const json_t *d)
{
	if (ovsdb_is_tagged(d, "set") || ovsdb_is_tagged(d, "map"))
		return json_array_size(json_array_get(d, 1));
	return 1;
}

json_t *
ovsdb_datum_key(const json_t *d, size_t i)
{
	if (ovsdb_is_tagged(d, "map"))
		return json_array_get(json_array_get(json_array_get(d, 1), i),
		    0);
	if (ovsdb_is_tagged(d, "set"))
		return json_array_get(json_array_get(d, 1), i);
	return (json_t *)d;
}

json_t *
ovsdb_datum_val(const json_t *d, size_t i)
{
	if (!ovsdb_is_tagged(d, "map"))
		return NULL;
	return json_array_get(json_array_get(json_array_get(d, 1), i), 1);
}

struct ovsdb_pair {
	json_t	*k, *v;
};

static int
ovsdb_pair_cmp(const void *a, const void *b)
{
	return ovsdb_atom_cmp(((const struct ovsdb_pair *)a)->k,
	    ((const struct ovsdb_pair *)b)->k);
}

/* The wire form of sorted pairs: ["map", ...], an atom, ["set", ...]. */
static json_t *
ovsdb_datum_wire(const struct ovsdb_pair *p, size_t n, int map)
{
	json_t	*arr = json_array();
	size_t	 i;

	if (!map && n == 1) {
		json_decref(arr);
		return json_incref(p[0].k);
	}
	for (i = 0; i < n; i++)
		json_array_append_new(arr, map ? json_pack("[OO]", p[i].k,
		    p[i].v) : json_incref(p[i].k));
	return json_pack("[so]", map ? "map" : "set", arr);
}

json_t *
ovsdb_datum_make(const struct ovsdb_column *c, json_t *keys, json_t *vals)
{
	struct ovsdb_pair	*p;
	size_t			 i, n = json_array_size(keys);
	json_t			*d = NULL;

	p = xcalloc(n ? n : 1, sizeof(*p));
	for (i = 0; i < n; i++) {
		p[i].k = json_array_get(keys, i);
		p[i].v = vals != NULL ? json_array_get(vals, i) : NULL;
	}
	qsort(p, n, sizeof(*p), ovsdb_pair_cmp);
	for (i = 1; i < n; i++)
		if (ovsdb_atom_cmp(p[i - 1].k, p[i].k) == 0)
			goto out;
	d = ovsdb_datum_wire(p, n, c->value.type != OVSDB_VOID);
out:
	free(p);
	json_decref(keys);
	json_decref(vals);
	return d;
}

/* The elements of a value's JSON: a map's pairs, a set's members, or a
 * single atom (section 5.1, <value>). */
static int
ovsdb_datum_split(const struct ovsdb_column *c, json_t *j,
    struct ovsdb_symtab *st, json_t *keys, json_t *vals, json_t **err)
{
	json_t	*elems, *e, *a;
	size_t	 i;
	int	 map = c->value.type != OVSDB_VOID;

	if (map && !ovsdb_is_tagged(j, "map")) {
		*err = ovsdb_error("syntax error", "expected a map");
		return -1;
	}
	if (!map && !ovsdb_is_tagged(j, "set")) {
		if ((a = ovsdb_atom_parse(&c->key, j, st, err)) == NULL)
			return -1;
		return json_array_append_new(keys, a);
	}
	elems = json_array_get(j, 1);
	json_array_foreach(elems, i, e) {
		if (map && (!json_is_array(e) || json_array_size(e) != 2)) {
			*err = ovsdb_error("syntax error", "expected a pair");
			return -1;
		}
		if ((a = ovsdb_atom_parse(&c->key, map ? json_array_get(e, 0) :
		    e, st, err)) == NULL)
			return -1;
		json_array_append_new(keys, a);
		if (map && (a = ovsdb_atom_parse(&c->value,
		    json_array_get(e, 1), st, err)) == NULL)
			return -1;
		if (map)
			json_array_append_new(vals, a);
	}
	return 0;
}

json_t *
ovsdb_datum_parse(const struct ovsdb_column *c, json_t *j,
    struct ovsdb_symtab *st, int any_size, json_t **err)
{
	json_t	*keys = json_array(), *vals = NULL, *d;
	size_t	 n;

	if (c->value.type != OVSDB_VOID)
		vals = json_array();
	if (ovsdb_datum_split(c, j, st, keys, vals, err) == -1) {
		json_decref(keys);
		json_decref(vals);
		return NULL;
	}
	n = json_array_size(keys);
	if (!any_size && (n < c->min || n > c->max)) {
		*err = ovsdb_error("syntax error", "column %s must have %u to "
		    "%u members but %zu are present", c->name, c->min, c->max,
		    n);
		json_decref(keys);
		json_decref(vals);
		return NULL;
	}
	if ((d = ovsdb_datum_make(c, keys, vals)) == NULL)
		*err = ovsdb_error("constraint violation", "column %s: a value "
		    "with a duplicate %s", c->name, vals ? "key" : "element");
	return d;
}

/* ---- update2 differences (ovsdb-server(7), "update2"): a scalar's new
 * value; for a set the elements in one value only; for a map the pairs
 * removed or added, and the new pair of a key whose value changed ---- */

static void
ovsdb_diff_add(json_t *arr, const json_t *d, size_t i, int map)
{
	if (map)
		json_array_append_new(arr, json_pack("[OO]",
		    ovsdb_datum_key(d, i), ovsdb_datum_val(d, i)));
	else
		json_array_append(arr, ovsdb_datum_key(d, i));
}

json_t *
ovsdb_datum_diff(const struct ovsdb_column *c, const json_t *old,
    const json_t *new)
{
	json_t	*arr;
	size_t	 i = 0, k = 0, no = ovsdb_datum_n(old), nn = ovsdb_datum_n(new);
	int	 map = c->value.type != OVSDB_VOID, r;

	if (c->min == 1 && c->max == 1)
		return json_incref((json_t *)new);
	arr = json_array();
	while (i < no || k < nn) {
		r = i == no ? 1 : k == nn ? -1 : ovsdb_atom_cmp(
		    ovsdb_datum_key(old, i), ovsdb_datum_key(new, k));
		if (r < 0)
			ovsdb_diff_add(arr, old, i++, map);
		else if (r > 0)
			ovsdb_diff_add(arr, new, k++, map);
		else {
			if (map && !json_equal(ovsdb_datum_val(old, i),
			    ovsdb_datum_val(new, k)))
				ovsdb_diff_add(arr, new, k, map);
			i++;
			k++;
		}
	}
	if (!map && json_array_size(arr) == 1) {
		json_t	*a = json_incref(json_array_get(arr, 0));

		json_decref(arr);
		return a;
	}
	return json_pack("[so]", map ? "map" : "set", arr);
}
