/*
 * An XML text's nesting and attributes counted without parsing it
 * (xml_shape.h).
 */
#include <string.h>

#include "xml_shape.h"

/* Past a construct that ends with end (a comment, CDATA, a processing
 * instruction): the index after it, or len. */
static size_t
xml_skip(const char *p, size_t len, size_t i, const char *end)
{
	size_t	n = strlen(end);

	for (; i + n <= len; i++)
		if (memcmp(p + i, end, n) == 0)
			return i + n;
	return len;
}

/* A start tag from its '<': to its '>' past quoted values (which may
 * hold '>' and '='); each '=' outside them is one attribute. */
static size_t
xml_start_tag(const char *p, size_t len, size_t i, uint32_t max_attrs,
    uint32_t *attrs)
{
	uint32_t	n = 0;
	char		q;

	for (i++, q = 0; i < len && n <= max_attrs; i++) {
		if (q != 0) {
			if (p[i] == q)
				q = 0;
		} else if (p[i] == '"' || p[i] == '\'')
			q = p[i];
		else if (p[i] == '=')
			n++;
		else if (p[i] == '>')
			break;
	}
	if (n > *attrs)
		*attrs = n;
	return i;
}

/* Elements open at '<name', close at '</' or at an empty element's
 * '/>'. */
void
xml_shape(const char *p, size_t len, uint32_t max_depth, uint32_t max_attrs,
    struct xml_shape *sh)
{
	uint32_t	depth = 0;
	size_t		i = 0;

	memset(sh, 0, sizeof(*sh));
	while (i < len && sh->depth <= max_depth && sh->attrs <= max_attrs) {
		if (p[i] != '<') {
			i++;
			continue;
		}
		if (len - i >= 4 && memcmp(p + i, "<!--", 4) == 0)
			i = xml_skip(p, len, i + 4, "-->");
		else if (len - i >= 9 && memcmp(p + i, "<![CDATA[", 9) == 0)
			i = xml_skip(p, len, i + 9, "]]>");
		else if (len - i >= 2 && (p[i + 1] == '?' || p[i + 1] == '!'))
			i = xml_skip(p, len, i + 2, ">");
		else if (len - i >= 2 && p[i + 1] == '/') {
			if (depth > 0)
				depth--;
			i = xml_skip(p, len, i + 2, ">");
		} else {
			i = xml_start_tag(p, len, i, max_attrs, &sh->attrs);
			if (i < len && p[i - 1] == '/')
				;	/* <empty/> opens and closes */
			else if (++depth > sh->depth)
				sh->depth = depth;
			i++;
		}
	}
}
