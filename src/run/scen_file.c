/*
 * A scenario file, read before libyang sees it (sbsim run, docs/guide.md
 * "Scenarios"):
 *
 * - a regular file only: a FIFO would block the run for ever on its
 *   open or its read, a device such as /dev/zero would never end;
 * - no larger than --max-scenario-size, so that a file cannot make the
 *   process take what it likes;
 * - no entry twice among its siblings (a list's key, a leaf-list's
 *   value, RFC 7950 sections 7.7 and 7.8): libyang links each sibling by
 *   walking those of the same hash, so N copies of one key take N^2/2
 *   steps before its validation refuses them (20 000 took 4.5 s, 100 000
 *   over 40 s); a hash here refuses them at once, naming the entry.
 *
 * A file that jansson or libxml2 cannot read goes on to libyang, whose
 * message names the error's place.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "log.h"
#include "scen_file.h"
#include "ut.h"

/* What a file that is not regular is, for the message. */
static const char *
scen_file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "a special file";
}

/* Everything fd holds, at most max bytes, NUL-terminated; NULL with a
 * message in err when there is more (a file that grew since fstat). */
static char *
scen_file_slurp(int fd, size_t size, size_t max, size_t *len, char *err,
    size_t errlen)
{
	size_t	 cap = (size < max ? size : max) + 1, n = 0;
	char	*buf = xmalloc(cap + 1);
	ssize_t	 r;

	for (;;) {
		if (n == cap) {
			if (cap > max) {
				snprintf(err, errlen, "more than "
				    "--max-scenario-size %zu bytes", max);
				free(buf);
				return NULL;
			}
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			buf = xreallocarray(buf, cap + 1, 1);
		}
		if ((r = read(fd, buf + n, cap - n)) == 0)
			break;
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			snprintf(err, errlen, "%s", strerror(errno));
			free(buf);
			return NULL;
		}
		n += (size_t)r;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

char *
scen_file_read(const char *path, size_t max, size_t *len, char *err,
    size_t errlen)
{
	struct stat	 st;
	char		*data;
	int		 fd;

	/* O_NONBLOCK: opening a FIFO with no writer returns at once. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == -1) {
		snprintf(err, errlen, "%s", strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "it is %s, not a regular file",
		    scen_file_kind(st.st_mode));
		close(fd);
		return NULL;
	}
	if ((uintmax_t)st.st_size > max) {
		snprintf(err, errlen, "%jd bytes, more than --max-scenario-size "
		    "%zu", (intmax_t)st.st_size, max);
		close(fd);
		return NULL;
	}
	data = scen_file_slurp(fd, (size_t)st.st_size, max, len, err,
	    errlen);
	close(fd);
	return data;
}

/* ---- no entry twice among its siblings ---- */

struct scen_seen {
	UT_hash_handle	 hh;
	char		 key[];
};

/* 0 when key is new among the siblings of seen, 1 when it is there. */
static int
scen_seen_add(struct scen_seen **seen, const char *key)
{
	struct scen_seen	*s;
	size_t			 len = strlen(key);

	HASH_FIND(hh, *seen, key, len, s);
	if (s != NULL)
		return 1;
	s = xmalloc(sizeof(*s) + len + 1);
	memcpy(s->key, key, len + 1);
	HASH_ADD(hh, *seen, key[0], len, s);
	return 0;
}

/* A JSON array entry's key: a list entry's "name", a leaf-list's value;
 * NULL for what the module has no key for (libyang refuses it). */
static const char *
scen_json_key(const json_t *v)
{
	if (json_is_object(v))
		v = json_object_get(v, "name");
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int scen_json_walk(const json_t *, char *path, size_t plen,
    char *err, size_t errlen);

/* The entries of array a (member name of its object at path). */
static int
scen_json_array(const json_t *a, const char *name, char *path, size_t plen,
    char *err, size_t errlen)
{
	struct scen_seen	*seen = NULL;
	const json_t		*v;
	const char		*key;
	size_t			 i, at = strlen(path);
	int			 rc = 0;

	json_array_foreach(a, i, v) {
		if ((key = scen_json_key(v)) == NULL)
			continue;
		if (scen_seen_add(&seen, key)) {
			snprintf(err, errlen, "%s '%s' twice (at %s)", name,
			    key, at > 0 ? path : "/");
			rc = -1;
			break;
		}
		snprintf(path + at, plen - at, "/%s[name='%.64s']", name, key);
		rc = json_is_object(v) ? scen_json_walk(v, path, plen, err,
		    errlen) : 0;
		path[at] = '\0';
		if (rc == -1)
			break;
	}
	UT_FREE_ALL(seen);
	return rc;
}

static int
scen_json_walk(const json_t *o, char *path, size_t plen, char *err,
    size_t errlen)
{
	const char	*name;
	const json_t	*v;
	size_t		 at = strlen(path);
	int		 rc = 0;

	json_object_foreach((json_t *)o, name, v) {
		if (json_is_array(v))
			rc = scen_json_array(v, name, path, plen, err, errlen);
		else if (json_is_object(v)) {
			snprintf(path + at, plen - at, "/%s", name);
			rc = scen_json_walk(v, path, plen, err, errlen);
			path[at] = '\0';
		}
		if (rc == -1)
			return -1;
	}
	return 0;
}

static int
scen_file_unique_json(const char *data, size_t len, char *err,
    size_t errlen)
{
	json_error_t	 e;
	json_t		*doc;
	char		 path[1024] = "";
	int		 rc;

	/* An object's member twice is refused by jansson, in linear time. */
	if ((doc = json_loadb(data, len, JSON_REJECT_DUPLICATES, &e)) ==
	    NULL) {
		if (strstr(e.text, "duplicate") == NULL)
			return 0;
		snprintf(err, errlen, "%s (line %d)", e.text, e.line);
		return -1;
	}
	rc = json_is_object(doc) ? scen_json_walk(doc, path, sizeof(path),
	    err, errlen) : 0;
	json_decref(doc);
	return rc;
}

/* An XML element's key among its siblings: its name and its <name>
 * child's text (a list entry) or its own text (a leaf-list's value). */
static char *
scen_xml_key(const xmlNode *n)
{
	const xmlNode	*c, *key = n;
	xmlChar		*text;
	char		*s;

	for (c = n->children; c != NULL; c = c->next)
		if (c->type == XML_ELEMENT_NODE) {
			key = NULL;
			if (xmlStrcmp(c->name, BAD_CAST "name") == 0) {
				key = c;
				break;
			}
		}
	if (key == NULL)
		return NULL;	/* a container: the module has one each */
	text = xmlNodeGetContent(key);
	if (xasprintf(&s, "%s '%s'", (const char *)n->name, text != NULL ?
	    (const char *)text : "") == -1)
		fatalx("xasprintf");
	xmlFree(text);
	return s;
}

static int
scen_xml_walk(const xmlNode *parent, char *err, size_t errlen)
{
	struct scen_seen	*seen = NULL;
	const xmlNode		*n;
	char			*key;
	int			 rc = 0, dup;

	for (n = parent->children; n != NULL && rc == 0; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if ((key = scen_xml_key(n)) != NULL) {
			if ((dup = scen_seen_add(&seen, key)))
				snprintf(err, errlen, "%.200s twice (at line "
				    "%ld)", key, (long)xmlGetLineNo(n));
			free(key);
			if (dup) {
				rc = -1;
				break;
			}
		}
		rc = scen_xml_walk(n, err, errlen);
	}
	UT_FREE_ALL(seen);
	return rc;
}

static int
scen_file_unique_xml(const char *data, size_t len, char *err,
    size_t errlen)
{
	xmlDoc	*doc;
	int	 rc;

	/* No network, no entities expanded: only the structure is read. */
	doc = xmlReadMemory(data, (int)len, NULL, NULL, XML_PARSE_NONET |
	    XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (doc == NULL)
		return 0;
	rc = scen_xml_walk((const xmlNode *)doc, err, errlen);
	xmlFreeDoc(doc);
	return rc;
}

int
scen_file_unique(const char *data, size_t len, int xml, char *err,
    size_t errlen)
{
	if (len > INT32_MAX)
		return 0;
	return xml ? scen_file_unique_xml(data, len, err, errlen) :
	    scen_file_unique_json(data, len, err, errlen);
}
