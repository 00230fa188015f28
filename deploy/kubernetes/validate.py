#!/usr/bin/python3
"""Offline schema check of Kubernetes manifests, with no cluster.

kubectl's client-side dry run still asks an API server for its schema;
this checks every document against the API's own models as the official
Python client (Debian's python3-kubernetes) carries them: each field
must be one the object has (a typo such as completionMod is an error,
where the API server would drop it silently), of its type (a string
where a string goes, an integer, a boolean, a list, a map), and every
required field present (the client's models refuse a missing one).

Usage: validate.py MANIFEST.yaml...  (- for standard input)
Exit 0 when every document is valid, 1 with one line per error.
"""
import re
import sys

import yaml
from kubernetes import client

PRIMITIVE = {"str": str, "int": int, "bool": bool, "float": (int, float)}


def model_name(doc):
    """V1Job for batch/v1 Job: the client's class for the document."""
    version = str(doc.get("apiVersion", "")).split("/")[-1]
    kind = str(doc.get("kind", ""))
    return version[:1].upper() + version[1:] + kind


def check(value, typ, path, errors):
    """Check value against the client's type string typ."""
    if typ == "object":
        return
    m = re.fullmatch(r"list\[(.+)\]", typ)
    if m:
        if not isinstance(value, list):
            errors.append("%s: a list expected" % path)
            return
        for i, v in enumerate(value):
            check(v, m.group(1), "%s[%d]" % (path, i), errors)
        return
    m = re.fullmatch(r"dict\((\w+), (.+)\)", typ)
    if m:
        if not isinstance(value, dict):
            errors.append("%s: a map expected" % path)
            return
        for k, v in value.items():
            if not isinstance(k, str):
                errors.append("%s: key %r is not a string" % (path, k))
            check(v, m.group(2), "%s.%s" % (path, k), errors)
        return
    if typ in PRIMITIVE:
        ok = isinstance(value, PRIMITIVE[typ])
        if typ in ("int", "float") and isinstance(value, bool):
            ok = False
        if not ok:
            errors.append("%s: %s expected, not %r" % (path, typ, value))
        return
    if typ == "datetime":
        return
    cls = getattr(client, typ, None)
    if cls is None:
        errors.append("%s: the client has no model %s" % (path, typ))
        return
    if not isinstance(value, dict):
        errors.append("%s: an object (%s) expected" % (path, typ))
        return
    by_json = {j: a for a, j in cls.attribute_map.items()}
    for k, v in value.items():
        if k not in by_json:
            errors.append("%s: %s has no field %r" % (path, typ, k))
            continue
        check(v, cls.openapi_types[by_json[k]], "%s.%s" % (path, k), errors)


def check_required(doc, name, where, errors):
    """The client's models refuse a required field that is missing."""
    api = client.ApiClient()
    try:
        api._ApiClient__deserialize(doc, name)
    except (ValueError, TypeError) as e:
        errors.append("%s: %s" % (where, e))


def main(paths):
    errors = []
    ndocs = 0
    for path in paths:
        text = sys.stdin.read() if path == "-" else open(path).read()
        try:
            docs = [d for d in yaml.safe_load_all(text) if d is not None]
        except yaml.YAMLError as e:
            errors.append("%s: not YAML: %s" % (path, e))
            continue
        for i, doc in enumerate(docs):
            ndocs += 1
            where = "%s#%d" % (path, i + 1)
            if not isinstance(doc, dict):
                errors.append("%s: not an object" % where)
                continue
            name = model_name(doc)
            if getattr(client, name, None) is None:
                errors.append("%s: unknown apiVersion/kind %s %s" % (
                    where, doc.get("apiVersion"), doc.get("kind")))
                continue
            check(doc, name, where, errors)
            check_required(doc, name, where, errors)
    if ndocs == 0 and not errors:
        errors.append("no document")
    for e in errors:
        print(e)
    if not errors:
        print("%d document(s) valid" % ndocs)
    return 1 if errors or ndocs == 0 else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
